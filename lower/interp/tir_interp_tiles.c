/* tir_interp_tiles.c — the tile and vector ops of the reference interpreter
 * of TIR (see tir_interp.h): loads and stores between tensors, shared slots
 * and tiles (masked at the tensor edges), fills, element maps, reductions,
 * broadcasts, mma, convert, transpose, tri/mask and element reads. The
 * compile, schedule, slots and scalar ops are in tir_interp.c. */
#include "tir_interp_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "checker.h"

/* ------------------------------------------------------------------ operands */

static const Val *tile_opnd(Interp *I, const Node *x, unsigned k, int64_t w)
{
    const Val *v = ti_opnd(I, x, k, w);
    if (v && ti_arg_node(I, x, k)->vk != VK_TILE) {
        ti_fail(I, x, "operand %u must be a tile or vector", k);
        return NULL;
    }
    return v;
}

/* ------------------------------------------------------------------ element functions */

static double fn1(TirFn fn, double x)
{
    switch (fn) {
    case TIR_FN_NEG: return -x;
    case TIR_FN_ABS: return fabs(x);
    case TIR_FN_EXP: return exp(x);
    case TIR_FN_EXP2: return exp2(x);
    case TIR_FN_LOG: return log(x);
    case TIR_FN_SQRT: return sqrt(x);
    case TIR_FN_RSQRT: return 1.0 / sqrt(x);
    case TIR_FN_TANH: return tanh(x);
    case TIR_FN_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case TIR_FN_RELU: return x > 0 ? x : 0.0;
    case TIR_FN_GELU: return 0.5 * x * (1.0 + tanh(0.79788456080286535588 /* sqrt(2/pi) */ * (x + 0.044715 * x * x * x)));
    case TIR_FN_SILU: return x / (1.0 + exp(-x));
    case TIR_FN_ERF: return erf(x);
    case TIR_FN_GELU_ERF:
        /* x/2·erfc(-x/√2) = x/2·(1 + erf(x/√2)), accurate where it is tiny; the
         * limits at ±inf (inf·0 is NaN) are inf and -0 */
        if (isinf(x)) return x > 0 ? x : -0.0;
        return 0.5 * x * erfc(-x * 0.70710678118654752440);
    case TIR_FN_NOT: return x == 0 ? 1.0 : 0.0;   /* bool elements are 0 and 1 */
    default: return NAN;
    }
}

static bool fn1_ok(int fn) { return tir_fn_arity(fn) == 1; }
static bool fn2_ok(int fn) { return tir_fn_arity(fn) == 2; }

static double fn2(TirFn fn, double a, double b)
{
    switch (fn) {
    case TIR_FN_ADD: return a + b;
    case TIR_FN_SUB: return a - b;
    case TIR_FN_MUL: return a * b;
    case TIR_FN_DIV: return a / b;
    case TIR_FN_MAX: return fmax(a, b);
    case TIR_FN_MIN: return fmin(a, b);
    /* comparisons follow IEEE (NaN unordered: only != holds), as C's do */
    case TIR_FN_LT: return a < b;
    case TIR_FN_LE: return a <= b;
    case TIR_FN_GT: return a > b;
    case TIR_FN_GE: return a >= b;
    case TIR_FN_EQ: return a == b;
    case TIR_FN_NE: return a != b;
    case TIR_FN_AND: return a != 0 && b != 0;
    case TIR_FN_OR: return a != 0 || b != 0;
    default: return NAN;
    }
}

static int64_t fn2i(TkTypeKind k, TirFn fn, int64_t a, int64_t b)
{
    switch (fn) {
    case TIR_FN_ADD: return ti_wrap_to(k, ti_u2i((uint64_t)a + (uint64_t)b));
    case TIR_FN_SUB: return ti_wrap_to(k, ti_u2i((uint64_t)a - (uint64_t)b));
    case TIR_FN_MUL: return ti_wrap_to(k, ti_u2i((uint64_t)a * (uint64_t)b));
    case TIR_FN_DIV: return ti_wrap_to(k, ti_int_div(a, b));
    case TIR_FN_MAX: return a > b ? a : b;
    case TIR_FN_MIN: return a < b ? a : b;
    default: return 0;
    }
}

/* ------------------------------------------------------------------ memory ops */

/* Row-major offset of the leading element indices c[0..lead) of tensor p;
 * false when one is out of range. */
static bool lead_offset(const Interp *I, unsigned p, const int64_t *c, unsigned lead, int64_t *off)
{
    int64_t o = 0;
    for (unsigned k = 0; k < lead; k++) {
        int64_t d = I->tdims[p][k];
        if (c[k] < 0 || c[k] >= d) return false;
        o = o * d + c[k];
    }
    *off = o;
    return true;
}

/* Reads (load) or writes (store) tile `t` (node tn) at tensor p, coords c. */
static void gl_access(Interp *I, const Node *x, const Node *tn, double *t, unsigned p, const int64_t *c, unsigned nc,
                      bool store)
{
    /* with bounds, the tile's errors follow its values and the tensor's are in bounds->err */
    double *te = ti_err(I, t, tn), *de = I->bounds ? I->bounds->err[p] : NULL;
    const TkType *gt = I->f->params[p].type;
    unsigned rank = gt->rank;
    if (nc != rank) {
        ti_fail(I, x, "%u coordinates for a tensor of rank %u", nc, rank);
        return;
    }
    double *data = I->tensors[p];
    unsigned tile_dims = tn->vec ? 1 : 2;
    if (rank < tile_dims) {
        ti_fail(I, x, "a 2-D tile needs a tensor of rank 2 or more");
        return;
    }
    int64_t lead = 0;
    bool in = data != NULL && lead_offset(I, p, c, rank - tile_dims, &lead);
    if (tn->vec) {
        int64_t d = I->tdims[p][rank - 1], base = 0;
        if (__builtin_mul_overflow(c[rank - 1], tn->rows, &base)) in = false;
        for (int64_t i = 0; i < tn->rows; i++) {
            bool ok = in && !(base > INT64_MAX - i) && base + i >= 0 && base + i < d;
            int64_t idx = ok ? base + i : 0;
            if (store) {
                if (ok) data[lead * d + idx] = t[i];
                if (ok && te) de[lead * d + idx] = te[i];
            } else {
                t[i] = ok ? ti_round_to(tn->elem, data[lead * d + idx]) : 0.0;
                if (te) te[i] = ok ? de[lead * d + idx] : 0.0;
            }
        }
        return;
    }
    int64_t dr = I->tdims[p][rank - 2], dc = I->tdims[p][rank - 1], r0 = 0, c0 = 0;
    if (__builtin_mul_overflow(c[rank - 2], tn->rows, &r0) || __builtin_mul_overflow(c[rank - 1], tn->cols, &c0)) in = false;
    /* a packed tensor's planes interleave row pairs (tk_packed_offset) */
    unsigned packed_esize = gt->layout == TK_PACKED ? (gt->elem == TK_TY_F32 ? 4u : 2u) : 0u;
    for (int64_t i = 0; i < tn->rows; i++) {
        bool rin = in && !(r0 > INT64_MAX - i) && r0 + i >= 0 && r0 + i < dr;
        int64_t plane = lead * dr * dc;
        for (int64_t j = 0; j < tn->cols; j++) {
            bool ok = rin && !(c0 > INT64_MAX - j) && c0 + j >= 0 && c0 + j < dc;
            int64_t at = !ok ? 0
                         : packed_esize ? plane + tk_packed_offset(r0 + i, c0 + j, dr, dc, packed_esize)
                                        : plane + (r0 + i) * dc + c0 + j;
            int64_t k = i * tn->cols + j;
            double *e = &t[k];
            if (store) {
                if (ok) data[at] = *e;
                if (ok && te) de[at] = te[k];
            } else {
                *e = ok ? ti_round_to(tn->elem, data[at]) : 0.0;
                if (te) te[k] = ok ? de[at] : 0.0;
            }
        }
    }
}

/* Sub-tile (a·r, b·c) of shared slot s (node sn) ↔ tile t (node tn). */
static void shared_access(Interp *I, const Node *x, const Node *sn, double *s, const Node *tn, double *t,
                          const int64_t *c, unsigned nc, bool store)
{
    int64_t r0 = 0, c0 = 0;
    if (nc == 0) {
        if (tn->rows != sn->rows || tn->cols != sn->cols) {
            ti_fail(I, x, "whole-tile access with different shapes");
            return;
        }
    } else if (nc == (sn->vec ? 1u : 2u) && tn->vec == sn->vec) {
        if (sn->rows % tn->rows || sn->cols % tn->cols) {
            ti_fail(I, x, "sub-tile shape does not divide the shared tile");
            return;
        }
        int64_t nr = sn->rows / tn->rows, ncl = sn->cols / tn->cols;
        if (c[0] < 0 || c[0] >= nr || (!sn->vec && (c[1] < 0 || c[1] >= ncl))) {
            ti_fail(I, x, "sub-tile coordinate out of bounds");
            return;
        }
        r0 = c[0] * tn->rows;
        c0 = sn->vec ? 0 : c[1] * tn->cols;
    } else {
        ti_fail(I, x, "wrong number of sub-tile coordinates (%u)", nc);
        return;
    }
    double *s_err = ti_err(I, s, sn), *t_err = ti_err(I, t, tn);
    for (int64_t i = 0; i < tn->rows; i++)
        for (int64_t j = 0; j < tn->cols; j++) {
            int64_t sk = (r0 + i) * sn->cols + c0 + j, tk = i * tn->cols + j;
            if (store) s[sk] = t[tk];
            else t[tk] = s[sk];
            if (s_err && store) s_err[sk] = t_err[tk];
            else if (s_err) t_err[tk] = s_err[sk];
        }
}

static bool coords(Interp *I, const Node *x, unsigned first, int64_t w, int64_t *c, unsigned *nc)
{
    *nc = 0;
    for (unsigned k = first; k < x->nargs; k++)
        if (!ti_int_opnd(I, x, k, w, &c[(*nc)++])) return false;
    return true;
}

static void do_load(Interp *I, const Node *x, int64_t w)
{
    const Node *src = ti_arg_node(I, x, 0);
    int64_t c[TIR_MAX_ARGS];
    unsigned nc;
    if (x->vk != VK_TILE) {
        ti_fail(I, x, "LOAD must produce a tile or vector");
        return;
    }
    if (!coords(I, x, 1, w, c, &nc)) return;
    if (src->op == TIR_VAR) {
        Val *s = ti_slot_of(I, x, 0, w);
        if (!s) return;
        if (src->vk != VK_TILE || !src->shared_type) {
            ti_fail(I, x, "LOAD from a slot that is not an st/sv");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (o) shared_access(I, x, src, s->d, x, o->d, c, nc, false);
        return;
    }
    const Val *t = ti_opnd(I, x, 0, w);
    if (!t) return;
    if (src->vk != VK_TENSOR || t->i < 0 || (uint64_t)t->i >= I->f->nparams) {
        ti_fail(I, x, "LOAD source is not a tensor parameter or shared slot");
        return;
    }
    Val *o = ti_out_val(I, x, w);
    if (o) gl_access(I, x, x, o->d, (unsigned)t->i, c, nc, false);
}

static void do_store(Interp *I, const Node *x, int64_t w)
{
    if (x->nargs < 2) {
        ti_fail(I, x, "STORE needs a destination and a value");
        return;
    }
    const Node *dst = ti_arg_node(I, x, 0), *vn = ti_arg_node(I, x, 1);
    const Val *v = tile_opnd(I, x, 1, w);
    int64_t c[TIR_MAX_ARGS];
    unsigned nc;
    if (!v || !coords(I, x, 2, w, c, &nc)) return;
    if (dst->op == TIR_VAR) {
        Val *s = ti_slot_of(I, x, 0, w);
        if (!s) return;
        if (dst->vk != VK_TILE || !dst->shared_type) {
            ti_fail(I, x, "STORE into a slot that is not an st/sv");
            return;
        }
        shared_access(I, x, dst, s->d, vn, v->d, c, nc, true);
        return;
    }
    const Val *t = ti_opnd(I, x, 0, w);
    if (!t) return;
    if (dst->vk != VK_TENSOR || t->i < 0 || (uint64_t)t->i >= I->f->nparams) {
        ti_fail(I, x, "STORE destination is not a tensor parameter or shared slot");
        return;
    }
    gl_access(I, x, vn, v->d, (unsigned)t->i, c, nc, true);
}

static void do_mma(Interp *I, const Node *x, int64_t w)
{
    Val *acc = ti_slot_of(I, x, 0, w);
    const Val *A = tile_opnd(I, x, 1, w), *B = A ? tile_opnd(I, x, 2, w) : NULL;
    if (!acc || !A || !B) return;
    const Node *cn = ti_arg_node(I, x, 0), *an = ti_arg_node(I, x, 1), *bn = ti_arg_node(I, x, 2);
    if (cn->vk != VK_TILE || cn->vec || an->vec || bn->vec) {
        ti_fail(I, x, "MMA operands must be 2-D tiles");
        return;
    }
    int64_t M = cn->rows, N = cn->cols, K;
    int64_t ai, ak, bk, bj;   /* strides of A along i and k, of B along k and j */
    bool at = x->ti->aux == TK_MMA_ATB || x->ti->aux == TK_MMA_ATBT;
    bool bt = x->ti->aux == TK_MMA_ABT || x->ti->aux == TK_MMA_ATBT;
    if (x->ti->aux < 0 || x->ti->aux > 3) {
        ti_fail(I, x, "unknown MMA form %d", x->ti->aux);
        return;
    }
    if (!at) { K = an->cols; ai = an->cols; ak = 1; if (an->rows != M) K = -1; }
    else { K = an->rows; ai = 1; ak = an->cols; if (an->cols != M) K = -1; }
    if (K >= 0) {
        if (!bt) { bk = bn->cols; bj = 1; if (bn->rows != K || bn->cols != N) K = -1; }
        else { bk = 1; bj = bn->cols; if (bn->cols != K || bn->rows != N) K = -1; }
    } else {
        bk = bj = 0;
    }
    if (K < 0) {
        ti_fail(I, x, "MMA shapes do not agree");
        return;
    }
    const double *ea = ti_err(I, A->d, an), *eb = ti_err(I, B->d, bn);
    double *ec = ti_err(I, acc->d, cn);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0, sum_abs = 0, sum_prop = 0;
            for (int64_t k = 0; k < K; k++) s += A->d[i * ai + k * ak] * B->d[k * bk + j * bj];
            if (ec)
                for (int64_t k = 0; k < K; k++) {
                    double a = fabs(A->d[i * ai + k * ak]), b = fabs(B->d[k * bk + j * bj]);
                    double xa = ea[i * ai + k * ak], xb = eb[k * bk + j * bj];
                    sum_abs += a * b;
                    sum_prop += a * xb + b * xa + xa * xb;
                }
            if (ec) {
                ec[i * N + j] = tb_mma(acc->d[i * N + j], ec[i * N + j], K, sum_abs, sum_prop);
                if (!isfinite(ec[i * N + j]) && !I->failed) ti_unreliable(I, x, "no error bound for an mma element");
            }
            acc->d[i * N + j] += s;
        }
}

/* ------------------------------------------------------------------ execution */

/* MAP3 (fma): each operand a tile of the result's shape or a float scalar;
 * a·b + c in double (a·b is exact for f32 operands), rounded once to the
 * element type. */
/* MAP3 SELECT (where): a(0) a mask of the result's shape or a bool; a(1),
 * a(2) tiles of the result's shape or scalars. The chosen value is exact
 * where it came from, so its error bound travels with it. */
static void exec_select(Interp *I, const Node *x, int64_t w)
{
    const Val *v[3];
    const Node *n[3];
    bool tile[3];
    for (unsigned k = 0; k < 3; k++) {
        if (!(v[k] = ti_opnd(I, x, k, w))) return;
        n[k] = ti_arg_node(I, x, k);
        tile[k] = n[k]->vk == VK_TILE;
        if ((tile[k] && (x->vk != VK_TILE || n[k]->n != x->n)) || (k == 0 && !tile[k] && n[k]->vk != VK_BOOL) ||
            (k == 0 && tile[k] && n[k]->elem != TK_TY_BOOL)) {
            ti_fail(I, x, "SELECT operands do not match the result");
            return;
        }
    }
    Val *o = ti_out_val(I, x, w);
    if (!o) return;
    if (x->vk != VK_TILE) {
        const Val *src = v[0]->i ? v[1] : v[2];
        o->f = src->f;
        o->fe = src->fe;
        o->i = src->i;
        return;
    }
    const double *e[3];
    for (unsigned k = 0; k < 3; k++) e[k] = tile[k] ? ti_err(I, v[k]->d, n[k]) : NULL;
    double *oe = ti_err(I, o->d, x);
    double s1 = tile[1] ? 0 : ti_as_f(n[1], v[1]), s2 = tile[2] ? 0 : ti_as_f(n[2], v[2]);
    for (int64_t j = 0; j < x->n; j++) {
        bool c = tile[0] ? v[0]->d[j] != 0 : v[0]->i != 0;
        unsigned k = c ? 1 : 2;
        o->d[j] = ti_round_to(x->elem, tile[k] ? v[k]->d[j] : k == 1 ? s1 : s2);
        if (oe) oe[j] = tile[k] ? e[k][j] : v[k]->fe;
    }
}

static void exec_map3(Interp *I, const Node *x, int64_t w)
{
    const TirInstr *ti = x->ti;
    if (ti->aux == TIR_FN_SELECT) {
        exec_select(I, x, w);
        return;
    }
    if (ti->aux != TIR_FN_FMA) {
        ti_fail(I, x, "unknown MAP3 function %d", ti->aux);
        return;
    }
    const Val *v[3];
    const Node *n[3];
    bool tile[3];
    for (unsigned k = 0; k < 3; k++) {
        if (!(v[k] = ti_opnd(I, x, k, w))) return;
        n[k] = ti_arg_node(I, x, k);
        tile[k] = n[k]->vk == VK_TILE;
        if ((tile[k] && (x->vk != VK_TILE || n[k]->n != x->n)) || (!tile[k] && n[k]->vk != VK_FLOAT)) {
            ti_fail(I, x, "MAP3 operands do not match the result");
            return;
        }
    }
    Val *o = ti_out_val(I, x, w);
    if (!o) return;
    bool bad = false;
    if (x->vk != VK_TILE) {
        o->f = ti_round_to(x->elem, fma(v[0]->f, v[1]->f, v[2]->f));
        if (I->bounds) o->fe = tb_fma(x->elem, v[0]->f, v[0]->fe, v[1]->f, v[1]->fe, v[2]->fe, o->f, &bad);
    } else {
        const double *e[3];
        for (unsigned k = 0; k < 3; k++) e[k] = tile[k] ? ti_err(I, v[k]->d, n[k]) : NULL;
        double *oe = ti_err(I, o->d, x);
        for (int64_t j = 0; j < x->n; j++) {
            double a = tile[0] ? v[0]->d[j] : v[0]->f, b = tile[1] ? v[1]->d[j] : v[1]->f, c = tile[2] ? v[2]->d[j] : v[2]->f;
            o->d[j] = ti_round_to(x->elem, fma(a, b, c));
            if (oe) {
                double ea = tile[0] ? e[0][j] : v[0]->fe, eb = tile[1] ? e[1][j] : v[1]->fe, ec = tile[2] ? e[2][j] : v[2]->fe;
                oe[j] = tb_fma(x->elem, a, ea, b, eb, ec, o->d[j], &bad);
            }
        }
    }
    if (bad) ti_unreliable(I, x, "no error bound for fma of inexact values");
}

/* One reduction by fn of n elements of d, `step` apart from `first`: the
 * result rounded to elem, and (de: the elements' error bounds, or NULL) its
 * error bound in *err — the sum's (tb_sum), or the largest of the operands'
 * for max/min, which only select. */
static double fold(TirFn fn, TkTypeKind elem, const double *d, const double *de, int64_t first, int64_t step, int64_t n,
                   double *err)
{
    double acc = 0, sum_abs = 0, sum_err = 0, max_err = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t at = first + j * step;
        if (j == 0 && fn != TIR_FN_ADD) acc = d[at];
        else acc = fn2(fn, acc, d[at]);
        if (de) {
            sum_abs += fabs(d[at]);
            sum_err += de[at];
            max_err = fmax(max_err, de[at]);
        }
    }
    double r = ti_round_to(elem, acc);
    if (de) *err = fn == TIR_FN_ADD ? tb_sum(elem, r, n, sum_abs, sum_err) : max_err;
    return r;
}

/* row_sum/row_max/row_min of a vector: its elements folded into one scalar
 * of its element type (rounded once), with the error bound of the same
 * reduction over one row. */
static void reduce_vector(Interp *I, const Node *x, const Val *a, const Node *an, int64_t w)
{
    const TirInstr *ti = x->ti;
    if (x->vk != VK_FLOAT || !an->vec || (ti->aux != TIR_FN_ADD && ti->aux != TIR_FN_MAX && ti->aux != TIR_FN_MIN)) {
        ti_fail(I, x, "bad REDUCE of a vector");
        return;
    }
    Val *o = ti_out_val(I, x, w);
    if (!o) return;
    o->f = fold((TirFn)ti->aux, x->elem, a->d, ti_err(I, a->d, an), 0, 1, an->n, &o->fe);
    if (I->bounds && !isfinite(o->fe)) ti_unreliable(I, x, "no error bound for the sum of a vector");
}

void ti_exec_tile_op(Interp *I, const Node *x, int64_t w)
{
    const TirInstr *ti = x->ti;
    switch (x->op) {
    case TIR_FILL: {
        const Val *v = ti_opnd(I, x, 0, w);
        if (!v) return;
        if (x->vk != VK_TILE) {
            ti_fail(I, x, "FILL must produce a tile or vector");
            return;
        }
        const Node *vn = ti_arg_node(I, x, 0);
        double e = ti_round_to(x->elem, ti_as_f(vn, v));
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        for (int64_t k = 0; k < x->n; k++) o->d[k] = e;
        double *oe = ti_err(I, o->d, x);
        if (oe) {
            double b = tb_convert(x->elem, e, vn->vk == VK_FLOAT ? v->fe : 0);
            for (int64_t k = 0; k < x->n; k++) oe[k] = b;
        }
        return;
    }
    case TIR_LOAD: do_load(I, x, w); return;
    case TIR_STORE: do_store(I, x, w); return;
    case TIR_MMA: do_mma(I, x, w); return;
    case TIR_MAP1: {
        const Val *a = ti_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (!fn1_ok(ti->aux)) {
            ti_fail(I, x, "unknown MAP1 function %d", ti->aux);
            return;
        }
        if (an->vk != x->vk || (x->vk == VK_TILE && an->n != x->n)) {
            ti_fail(I, x, "MAP1 operand and result differ in shape");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        bool bad = false;
        if (x->vk == VK_TILE) {
            for (int64_t k = 0; k < x->n; k++) o->d[k] = ti_round_to(x->elem, fn1((TirFn)ti->aux, a->d[k]));
            const double *ae = ti_err(I, a->d, an);
            double *oe = ti_err(I, o->d, x);
            if (oe && ti->aux == TIR_FN_NOT)
                for (int64_t k = 0; k < x->n; k++) oe[k] = 0;
            else if (oe)
                for (int64_t k = 0; k < x->n; k++) oe[k] = tb_map1((TirFn)ti->aux, x->elem, a->d[k], ae[k], o->d[k], &bad);
        } else if (x->vk == VK_FLOAT) {
            o->f = ti_round_to(x->elem, fn1((TirFn)ti->aux, a->f));
            if (I->bounds) o->fe = tb_map1((TirFn)ti->aux, x->elem, a->f, a->fe, o->f, &bad);
        } else if (x->vk == VK_INT && (ti->aux == TIR_FN_NEG || ti->aux == TIR_FN_ABS)) {
            int64_t v = a->i;
            if (ti->aux == TIR_FN_NEG || v < 0) v = ti_u2i(0 - (uint64_t)v);
            o->i = ti_wrap_to(x->elem, v);
        } else {
            ti_fail(I, x, "MAP1 %s of a non-float", tir_fn_name((TirFn)ti->aux));
        }
        if (bad) ti_unreliable(I, x, "no error bound for %s of an inexact value", tir_fn_name((TirFn)ti->aux));
        return;
    }
    case TIR_MAP2: {
        const Val *a = ti_opnd(I, x, 0, w), *b = a ? ti_opnd(I, x, 1, w) : NULL;
        if (!b) return;
        const Node *an = ti_arg_node(I, x, 0), *bn = ti_arg_node(I, x, 1);
        TirFn fn = (TirFn)ti->aux;
        if (!fn2_ok(ti->aux)) {
            ti_fail(I, x, "unknown MAP2 function %d", ti->aux);
            return;
        }
        if (x->vk == VK_TILE) {
            bool at = an->vk == VK_TILE, bt = bn->vk == VK_TILE;
            int scalar_vk = tir_fn_is_logic(fn) ? VK_BOOL : VK_FLOAT;
            if ((at && an->n != x->n) || (bt && bn->n != x->n) || (!at && an->vk != scalar_vk) || (!bt && bn->vk != scalar_vk) ||
                (x->elem == TK_TY_BOOL) != (tir_fn_is_compare(fn) || tir_fn_is_logic(fn))) {
                ti_fail(I, x, "MAP2 operands do not match the result");
                return;
            }
            Val *o = ti_out_val(I, x, w);
            if (!o) return;
            double sa = at ? 0 : ti_as_f(an, a), sb = bt ? 0 : ti_as_f(bn, b);
            for (int64_t k = 0; k < x->n; k++)
                o->d[k] = ti_round_to(x->elem, fn2(fn, at ? a->d[k] : sa, bt ? b->d[k] : sb));
            double *oe = ti_err(I, o->d, x);
            if (oe && x->elem == TK_TY_BOOL) {
                /* a mask is exact, unless an inexact comparison could flip */
                const double *ae = at ? ti_err(I, a->d, an) : NULL, *be = bt ? ti_err(I, b->d, bn) : NULL;
                for (int64_t k = 0; k < x->n; k++) {
                    oe[k] = 0;
                    if (!tir_fn_is_compare(fn)) continue;
                    double p = at ? a->d[k] : sa, q = bt ? b->d[k] : sb;
                    double ep = at ? ae[k] : a->fe, eq = bt ? be[k] : b->fe;
                    if (!tb_compare_decided(0, p, ep, q, eq)) {
                        ti_unreliable(I, x, "comparing %g and %g, each within error %g / %g", p, q, ep, eq);
                        break;
                    }
                }
            } else if (oe) {
                const double *ae = at ? ti_err(I, a->d, an) : NULL, *be = bt ? ti_err(I, b->d, bn) : NULL;
                bool bad = false;
                for (int64_t k = 0; k < x->n; k++)
                    oe[k] = tb_map2(fn, x->elem, at ? a->d[k] : a->f, at ? ae[k] : a->fe, bt ? b->d[k] : b->f, bt ? be[k] : b->fe, o->d[k], &bad);
                if (bad) ti_unreliable(I, x, "no error bound for %s of inexact values", tir_fn_name(fn));
            }
            return;
        }
        if (an->vk == VK_TILE || bn->vk == VK_TILE || an->vk == VK_TENSOR || bn->vk == VK_TENSOR) {
            ti_fail(I, x, "MAP2 of a tile with a scalar result");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        if (x->vk == VK_FLOAT) {
            o->f = ti_round_to(x->elem, fn2(fn, ti_as_f(an, a), ti_as_f(bn, b)));
            bool bad = false;
            if (I->bounds)
                o->fe = tb_map2(fn, x->elem, ti_as_f(an, a), an->vk == VK_FLOAT ? a->fe : 0, ti_as_f(bn, b), bn->vk == VK_FLOAT ? b->fe : 0, o->f, &bad);
            if (bad) ti_unreliable(I, x, "no error bound for %s of inexact values", tir_fn_name(fn));
        } else {
            o->i = fn2i(x->elem, fn, a->i, b->i);
        }
        return;
    }
    case TIR_MAP3: exec_map3(I, x, w); return;
    case TIR_REDUCE: {
        const Val *a = tile_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (ti->imm == 2) {   /* all of a vector → one value */
            reduce_vector(I, x, a, an, w);
            return;
        }
        bool rows = ti->imm == 0;
        int64_t outer = rows ? an->rows : an->cols, inner = rows ? an->cols : an->rows;
        if (x->vk != VK_TILE || !x->vec || an->vec || x->n != outer ||
            (ti->aux != TIR_FN_ADD && ti->aux != TIR_FN_MAX && ti->aux != TIR_FN_MIN)) {
            ti_fail(I, x, "bad REDUCE");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        const double *ae = ti_err(I, a->d, an);
        double *oe = ti_err(I, o->d, x);
        for (int64_t i = 0; i < outer; i++) {
            double e = 0;
            o->d[i] = fold((TirFn)ti->aux, x->elem, a->d, ae, rows ? i * an->cols : i, rows ? 1 : an->cols, inner, &e);
            if (oe) oe[i] = e;
            if (oe && !isfinite(oe[i])) ti_unreliable(I, x, "no error bound for a row or column sum");
        }
        return;
    }
    case TIR_BROADCAST: {
        const Val *a = tile_opnd(I, x, 0, w), *v = a ? tile_opnd(I, x, 1, w) : NULL;
        if (!v) return;
        const Node *an = ti_arg_node(I, x, 0), *vn = ti_arg_node(I, x, 1);
        bool rows = ti->imm == 0;
        if (an->vec || !vn->vec || x->n != an->n || vn->n != (rows ? an->rows : an->cols) || !fn2_ok(ti->aux)) {
            ti_fail(I, x, "bad BROADCAST");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        for (int64_t i = 0; i < an->rows; i++)
            for (int64_t j = 0; j < an->cols; j++)
                o->d[i * an->cols + j] = ti_round_to(x->elem, fn2((TirFn)ti->aux, a->d[i * an->cols + j], v->d[rows ? i : j]));
        double *oe = ti_err(I, o->d, x);
        if (oe) {
            const double *ae = ti_err(I, a->d, an), *ve = ti_err(I, v->d, vn);
            bool bad = false;
            for (int64_t i = 0; i < an->rows; i++)
                for (int64_t j = 0; j < an->cols; j++) {
                    int64_t k = i * an->cols + j, q = rows ? i : j;
                    oe[k] = tb_map2((TirFn)ti->aux, x->elem, a->d[k], ae[k], v->d[q], ve[q], o->d[k], &bad);
                }
            if (bad) ti_unreliable(I, x, "no error bound for a broadcast %s", tir_fn_name((TirFn)ti->aux));
        }
        return;
    }
    case TIR_CONVERT: {
        const Val *a = tile_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (x->vk != VK_TILE || an->rows != x->rows || an->cols != x->cols) {
            ti_fail(I, x, "CONVERT changes the shape");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        for (int64_t k = 0; k < x->n; k++) o->d[k] = ti_round_to(x->elem, a->d[k]);
        const double *ae = ti_err(I, a->d, an);
        double *oe = ti_err(I, o->d, x);
        if (oe)
            for (int64_t k = 0; k < x->n; k++) oe[k] = tb_convert(x->elem, o->d[k], ae[k]);
        return;
    }
    case TIR_TRANSPOSE: {
        const Val *a = tile_opnd(I, x, 0, w);
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (x->vk != VK_TILE || an->vec || x->rows != an->cols || x->cols != an->rows) {
            ti_fail(I, x, "TRANSPOSE shapes do not agree");
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        const double *ae = ti_err(I, a->d, an);
        double *oe = ti_err(I, o->d, x);
        for (int64_t i = 0; i < an->rows; i++)
            for (int64_t j = 0; j < an->cols; j++) {
                o->d[j * x->cols + i] = a->d[i * an->cols + j];
                if (oe) oe[j * x->cols + i] = ae[i * an->cols + j];
            }
        return;
    }
    case TIR_TRI:
    case TIR_MASK: {
        const Val *a = tile_opnd(I, x, 0, w);
        int64_t k;
        if (!a || !ti_int_opnd(I, x, 1, w, &k)) return;
        const Val *v = ti_opnd(I, x, 2, w);
        if (!v) return;
        const Node *an = ti_arg_node(I, x, 0);
        /* a vector (N×1 here) takes mask_cols only: its elements are its columns */
        bool vec_cols = an->vec && x->op == TIR_MASK && ti->imm != 0;
        if (x->vk != VK_TILE || (an->vec && !vec_cols) || x->n != an->n || (x->op == TIR_TRI && ti->aux != 0 && ti->aux != 1)) {
            ti_fail(I, x, "bad %s", tir_op_name(x->op));
            return;
        }
        const Node *vn = ti_arg_node(I, x, 2);
        double fillv = ti_round_to(x->elem, ti_as_f(vn, v));
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        const double *ae = ti_err(I, a->d, an);
        double *oe = ti_err(I, o->d, x);
        double fille = oe ? tb_convert(x->elem, fillv, vn->vk == VK_FLOAT ? v->fe : 0) : 0;
        for (int64_t i = 0; i < an->rows; i++)
            for (int64_t j = 0; j < an->cols; j++) {
                bool keep;
                if (x->op == TIR_TRI) keep = ti->aux == 0 ? (j - i) <= k : (j - i) >= k;
                else keep = (vec_cols || ti->imm == 0 ? i : j) < k;
                o->d[i * an->cols + j] = keep ? ti_round_to(x->elem, a->d[i * an->cols + j]) : fillv;
                if (oe) oe[i * an->cols + j] = keep ? ae[i * an->cols + j] : fille;
            }
        return;
    }
    case TIR_ELEM: {
        const Val *a = tile_opnd(I, x, 0, w);
        int64_t r = 0, c = 0;
        if (!a) return;
        const Node *an = ti_arg_node(I, x, 0);
        if (x->nargs != (an->vec ? 2 : 3) || x->vk != (an->elem == TK_TY_BOOL ? VK_BOOL : VK_FLOAT)) {
            ti_fail(I, x, "ELEM needs %s", an->vec ? "one index" : "two indices");
            return;
        }
        if (!ti_int_opnd(I, x, 1, w, &r) || (!an->vec && !ti_int_opnd(I, x, 2, w, &c))) return;
        if (r < 0 || r >= an->rows || c < 0 || c >= an->cols) {
            ti_fail(I, x, "element index (%lld, %lld) out of bounds", (long long)r, (long long)c);
            return;
        }
        Val *o = ti_out_val(I, x, w);
        if (!o) return;
        if (x->vk == VK_BOOL) {
            o->i = a->d[r * an->cols + c] != 0;
            return;
        }
        o->f = ti_round_to(x->elem, a->d[r * an->cols + c]);
        if (I->bounds) o->fe = ti_err(I, a->d, an)[r * an->cols + c];
        return;
    }
    default:
        ti_fail(I, x, "unexpected op in a region");
        return;
    }
}
