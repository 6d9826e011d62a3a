/* gpu_slice.c — sub-tiles, sub-vectors, rows and columns on GPUs
 * (docs/LANGUAGE.md §5.13): TIR SLICE and LINE read a region of a register
 * tile or vector, SET_SLICE and SET_LINE write one into a slot.
 *
 * A sub-tile whose offsets fall on its tile's fragment grid (the usual case:
 * offsets are multiples of 16, and NVIDIA's fragments are 16 or 8 wide) is a
 * set of whole fragments: reading it selects them and writing it replaces
 * them, a constant shuffle of the lane's vector — a renaming of registers,
 * no data moves. Everything else crosses lanes: a row or column of a tile as
 * a vector, a sub-vector (distributed differently from its vector), a
 * sub-tile off the grid (AMD's 32-row MFMA tiles). Those go through the
 * warp's scratch in shared memory (gpu_exchange.c): the lanes write the
 * source there row-major, meet, read the elements they hold of the result,
 * and meet again before the scratch is reused. A write puts the old value
 * first, then the part, with a meeting between, so the part wins. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_internal.h"

static int64_t elem_bytes(TkTypeKind k) { return k == TK_TY_F32 ? 4 : k == TK_TY_BOOL ? 1 : 2; }

static int64_t count(const TkType *t) { return t->kind == TK_TY_RV ? t->dims[0] : t->dims[0] * t->dims[1]; }

/* the tile or vector a slice reads (SLICE, LINE) or the slot it writes (SET_*) */
static const TkType *whole(const TirInstr *i) { return i->args[0]->type; }

/* the part: the value read, or the value written */
static const TkType *part(const TirInstr *i) { return i->op == TIR_SLICE || i->op == TIR_LINE ? i->type : i->args[1]->type; }

/* (r0, c0): the part's offset in a tile (SLICE/SET_SLICE of an rt) */
static int64_t row0(const TirInstr *i) { return i->aux; }
static int64_t col0(const TirInstr *i) { return i->imm; }

/* Is the sub-tile at (r0, c0) whole fragments of its tile? */
static bool on_grid(GpuLower *g, const TkType *t, const TkType *sub, int64_t r0, int64_t c0)
{
    Frags F, S;
    return gpu_frags_of(g->row, t, &F) && gpu_frags_of(g->row, sub, &S) && r0 % F.bm == 0 && c0 % F.bn == 0;
}

int gpu_slice_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[400];
    const TkType *w = whole(i), *p = part(i);
    Frags F;
    if ((w->kind == TK_TY_RT && (gpu_role_of(w) == ROLE_NONE || !gpu_frags_of(g->row, w, &F))) ||
        (p->kind == TK_TY_RT && !gpu_frags_of(g->row, p, &F))) {
        snprintf(what, sizeof what, "(%s of %s: on %s a register tile is whole base tiles of the kernel's matrix instruction)",
                 gpu_type_str(p, ty, sizeof ty), gpu_type_str(w, ty2, sizeof ty2), g->cpu);
        return gpu_not_supported(g, i, what);
    }
    if ((i->op == TIR_SLICE || i->op == TIR_SET_SLICE) && w->kind == TK_TY_RT && on_grid(g, w, p, row0(i), col0(i))) return 0;
    gpu_scratch_need(g, count(w) * elem_bytes(w->elem));
    return 0;
}

/* ---------------------------------------------------------------- cells of the scratch */

/* where the lane's elements of rt type t lie in a row-major tile of `cols`
 * columns when t sits at (r0, c0) */
static Cells tile_cells(GpuLower *g, const TkType *t, int64_t r0, int64_t c0, int64_t cols)
{
    Frags F;
    gpu_frags_of(g->row, t, &F);
    return gpu_tile_cells(g, &F, c64(g, r0), c64(g, c0), cols, false);
}

/* the cells of whole-or-slot x: a tile row-major, or a vector */
static Cells whole_cells(GpuLower *g, const TirInstr *x)
{
    return x->type->kind == TK_TY_RT ? tile_cells(g, x->type, 0, 0, x->type->dims[1]) : gpu_vector_cells(g, x, 1, c64(g, 0));
}

/* the cells of the part (value v) of slice instruction i: a sub-tile, a
 * sub-vector, or a row / column at run-time index k */
static Cells part_cells(GpuLower *g, const TirInstr *i, const TirInstr *v, LLVMValueRef k)
{
    LLVMBuilderRef B = g->e.b;
    const TkType *w = whole(i);
    if (i->op == TIR_SLICE || i->op == TIR_SET_SLICE)
        return w->kind == TK_TY_RT ? tile_cells(g, v->type, row0(i), col0(i), w->dims[1]) : gpu_vector_cells(g, v, 1, c64(g, i->imm));
    /* a line: element e of row k is (k, off + e), of column k (off + e, k) */
    int64_t off = i->op == TIR_SET_LINE ? i->aux : 0, C = w->dims[1];
    LLVMValueRef K = gpu_i64v(g, k);
    if (i->imm == 0) return gpu_vector_cells(g, v, 1, LLVMBuildAdd(B, LLVMBuildMul(B, K, c64(g, C), ""), c64(g, off), ""));
    return gpu_vector_cells(g, v, C, LLVMBuildAdd(B, K, c64(g, off * C), ""));
}

/* ---------------------------------------------------------------- fragments */

/* for each element of the part's vector, its position in the whole's (on the grid) */
static int *fragment_map(GpuLower *g, const TkType *w, const TkType *p, int64_t r0, int64_t c0, Frags *W, Frags *P)
{
    gpu_frags_of(g->row, w, W);
    gpu_frags_of(g->row, p, P);
    int *map = malloc(sizeof *map * (size_t)P->n);
    if (!map) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return NULL;
    }
    for (int64_t q = 0; q < P->n; q++) {
        int64_t frag = q / P->elems, e = q % P->elems;
        int64_t fr = frag / P->fcols + r0 / W->bm, fc = frag % P->fcols + c0 / W->bn;
        map[q] = (int)((fr * W->fcols + fc) * W->elems + e);
    }
    return map;
}

static LLVMValueRef shuffle(GpuLower *g, LLVMValueRef a, LLVMValueRef b, const int *idx, unsigned n)
{
    LLVMValueRef *mask = malloc(sizeof *mask * n);
    if (!mask) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return a;
    }
    for (unsigned q = 0; q < n; q++) mask[q] = c32(g, idx[q]);
    LLVMValueRef r = LLVMBuildShuffleVector(g->e.b, a, b ? b : LLVMGetPoison(LLVMTypeOf(a)), LLVMConstVector(mask, n), "");
    free(mask);
    return r;
}

/* ---------------------------------------------------------------- emission */

LLVMValueRef gpu_slice(GpuLower *g, const TirInstr *i)
{
    const TirInstr *src = i->args[0];
    const TkType *w = whole(i);
    LLVMValueRef v = gpu_val(g, src);
    if (i->op == TIR_SLICE && w->kind == TK_TY_RT && on_grid(g, w, i->type, row0(i), col0(i))) {
        Frags W, P;
        int *map = fragment_map(g, w, i->type, row0(i), col0(i), &W, &P);
        if (!map) return LLVMGetPoison(gpu_value_type(g, i));
        LLVMValueRef r = shuffle(g, v, NULL, map, (unsigned)P.n);
        free(map);
        return r;
    }
    LLVMTypeRef et = gpu_elem_type(g, w->elem);
    LLVMValueRef base = gpu_scratch(g);
    Cells put = whole_cells(g, src);
    gpu_scratch_put(g, base, et, put, v);
    gpu_cells_free(&put);
    gpu_warp_sync(g);
    Cells get = part_cells(g, i, i, i->op == TIR_LINE ? gpu_val(g, i->args[1]) : NULL);
    LLVMValueRef out = gpu_scratch_get(g, base, et, get);
    gpu_cells_free(&get);
    gpu_warp_sync(g);
    return out;
}

void gpu_set_slice(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *slot = i->args[0], *val = i->args[1];
    const TkType *w = whole(i);
    LLVMTypeRef ty = gpu_value_type(g, slot);
    LLVMValueRef old = LLVMBuildLoad2(B, ty, g->slots[slot->id], ""), v = gpu_val(g, val), out;
    if (i->op == TIR_SET_SLICE && w->kind == TK_TY_RT && on_grid(g, w, val->type, row0(i), col0(i))) {
        Frags W, P;
        int *map = fragment_map(g, w, val->type, row0(i), col0(i), &W, &P);
        /* idx: the whole's elements, the part's (from v) where map puts them; wide: v widened to the
         * whole's length, since a shuffle takes two vectors of one type */
        int *idx = map ? malloc(sizeof *idx * 2 * (size_t)W.n) : NULL, *wide = idx ? idx + W.n : NULL;
        if (!idx) {
            free(map);
            g->status = -1;
            snprintf(g->err, g->errlen, "out of memory");
            return;
        }
        for (int64_t q = 0; q < W.n; q++) {
            idx[q] = (int)q;
            wide[q] = q < P.n ? (int)q : 0;
        }
        for (int64_t q = 0; q < P.n; q++) idx[map[q]] = (int)(W.n + q);
        out = shuffle(g, old, shuffle(g, v, NULL, wide, (unsigned)W.n), idx, (unsigned)W.n);
        free(map);
        free(idx);
    } else {
        LLVMTypeRef et = gpu_elem_type(g, w->elem);
        LLVMValueRef base = gpu_scratch(g);
        Cells cells = whole_cells(g, slot), in = part_cells(g, i, val, i->op == TIR_SET_LINE ? gpu_val(g, i->args[2]) : NULL);
        gpu_scratch_put(g, base, et, cells, old);
        gpu_warp_sync(g);
        gpu_scratch_put(g, base, et, in, v);
        gpu_warp_sync(g);
        out = gpu_scratch_get(g, base, et, cells);
        gpu_warp_sync(g);
        gpu_cells_free(&cells);
        gpu_cells_free(&in);
    }
    LLVMBuildStore(B, out, g->slots[slot->id]);
}
