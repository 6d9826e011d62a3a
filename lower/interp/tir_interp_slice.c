/* tir_interp_slice.c — the reference interpreter's sub-tiles, rows and
 * columns (docs/LANGUAGE.md §5.13): SLICE and LINE read a region of a tile
 * or vector, SET_SLICE and SET_LINE write one into a slot. The moves are
 * exact, so each element's error bound moves with it. Tiles are held
 * row-major whatever their layout, vectors as N×1. */
#include "tir_interp_internal.h"

/* Tile operand k of x: its value and node, or NULL after a failure. */
static const Val *tile_arg(Interp *I, const Node *x, unsigned k, int64_t w, const Node **node)
{
    const Val *v = ti_opnd(I, x, k, w);
    if (!v) return NULL;
    *node = ti_arg_node(I, x, k);
    if ((*node)->vk != VK_TILE || !v->d) {
        ti_fail(I, x, "operand %u of %s is not a tile", k, tir_op_name(x->op));
        return NULL;
    }
    return v;
}

/* Copies element (si, sj) of `src` to (di, dj) of `dst`, with its bound. */
static void move(const Interp *I, double *dst, const Node *dn, int64_t di, int64_t dj, const double *src, const Node *sn,
                 int64_t si, int64_t sj)
{
    int64_t d = di * dn->cols + dj, s = si * sn->cols + sj;
    dst[d] = src[s];
    if (I->bounds) dst[dn->n + d] = src[sn->n + s];
}

/* A line index operand k of x, checked against the line count `count`. */
static bool line_index(Interp *I, const Node *x, unsigned k, int64_t w, int64_t count, int64_t *out)
{
    if (!ti_int_opnd(I, x, k, w, out)) return false;
    if (*out < 0 || *out >= count) {
        ti_fail(I, x, "%s index %lld out of bounds", x->ti->imm ? "column" : "row", (long long)*out);
        return false;
    }
    return true;
}

static void exec_slice(Interp *I, const Node *x, int64_t w)
{
    const Node *an;
    const Val *a = tile_arg(I, x, 0, w, &an);
    if (!a) return;
    int64_t r0 = an->vec ? x->ti->imm : x->ti->aux, c0 = an->vec ? 0 : x->ti->imm;
    if (x->vk != VK_TILE || x->vec != an->vec || r0 < 0 || c0 < 0 || r0 + x->rows > an->rows || c0 + x->cols > an->cols) {
        ti_fail(I, x, "SLICE lies outside its tile");
        return;
    }
    Val *o = ti_out_val(I, x, w);
    if (!o) return;
    for (int64_t i = 0; i < x->rows; i++)
        for (int64_t j = 0; j < x->cols; j++) move(I, o->d, x, i, j, a->d, an, i + r0, j + c0);
}

static void exec_line(Interp *I, const Node *x, int64_t w)
{
    const Node *an;
    const Val *a = tile_arg(I, x, 0, w, &an);
    if (!a) return;
    bool col = x->ti->imm != 0;
    int64_t k;
    if (x->vk != VK_TILE || !x->vec || an->vec || x->n != (col ? an->rows : an->cols)) {
        ti_fail(I, x, "LINE needs an rt and an rv as long as its %s", col ? "columns" : "rows");
        return;
    }
    if (!line_index(I, x, 1, w, col ? an->cols : an->rows, &k)) return;
    Val *o = ti_out_val(I, x, w);
    if (!o) return;
    for (int64_t j = 0; j < x->n; j++) move(I, o->d, x, j, 0, a->d, an, col ? j : k, col ? k : j);
}

static void exec_set_slice(Interp *I, const Node *x, int64_t w)
{
    Val *s = ti_slot_of(I, x, 0, w);
    const Node *vn, *sn = ti_arg_node(I, x, 0);
    const Val *v = s ? tile_arg(I, x, 1, w, &vn) : NULL;
    if (!v) return;
    int64_t r0 = sn->vec ? x->ti->imm : x->ti->aux, c0 = sn->vec ? 0 : x->ti->imm;
    if (sn->vk != VK_TILE || sn->vec != vn->vec || r0 < 0 || c0 < 0 || r0 + vn->rows > sn->rows || c0 + vn->cols > sn->cols) {
        ti_fail(I, x, "SET_SLICE writes outside its slot");
        return;
    }
    for (int64_t i = 0; i < vn->rows; i++)
        for (int64_t j = 0; j < vn->cols; j++) move(I, s->d, sn, i + r0, j + c0, v->d, vn, i, j);
}

static void exec_set_line(Interp *I, const Node *x, int64_t w)
{
    Val *s = ti_slot_of(I, x, 0, w);
    const Node *vn, *sn = ti_arg_node(I, x, 0);
    const Val *v = s ? tile_arg(I, x, 1, w, &vn) : NULL;
    if (!v) return;
    bool col = x->ti->imm != 0;
    int64_t off = x->ti->aux, k;
    if (sn->vk != VK_TILE || sn->vec || !vn->vec || off < 0 || off + vn->n > (col ? sn->rows : sn->cols)) {
        ti_fail(I, x, "SET_LINE writes outside its slot");
        return;
    }
    if (!line_index(I, x, 2, w, col ? sn->cols : sn->rows, &k)) return;
    for (int64_t j = 0; j < vn->n; j++) move(I, s->d, sn, col ? off + j : k, col ? k : off + j, v->d, vn, j, 0);
}

void ti_exec_slice_op(Interp *I, const Node *x, int64_t w)
{
    switch (x->op) {
    case TIR_SLICE: exec_slice(I, x, w); return;
    case TIR_LINE: exec_line(I, x, w); return;
    case TIR_SET_SLICE: exec_set_slice(I, x, w); return;
    case TIR_SET_LINE: exec_set_line(I, x, w); return;
    default: ti_fail(I, x, "not a sub-tile op"); return;
    }
}
