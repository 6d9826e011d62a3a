/* gpu_elementwise.c — element-wise maps and conversions of register tiles
 * (and of register vectors, which are vectors of the lane's elements too:
 * gpu_vector.c) in the GPU lowering.
 *
 * A register tile is, per lane, one vector of that lane's fragment elements
 * (gpu_lower.c), so a map whose tile operands share the result's fragment
 * layout is the same vector operation in every lane: the CPU emitter's scalar
 * functions (emit_fn, emit_fma, emit_to_f32, emit_fptrunc) applied to whole
 * vectors, so exp, tanh, erf and friends mean the same on every target. A
 * scalar operand is splatted. bf16 elements are computed in f32 and rounded
 * once, as on the CPU.
 *
 * convert<T>(t) may also change the fragment layout (an accumulator into an
 * A operand, say), and the transposed mma forms take an operand in another
 * layout than the instruction's (mma_abt's B is a row tile of B's
 * transpose). When every element a lane needs is already in that lane —
 * NVIDIA's m16n8k16 accumulator and A fragments, or A fragments of Kᵀ and B
 * fragments of K — it is a fixed permutation of the lane's vector, found here
 * by comparing the base tile's lane maps for all lanes, before anything is
 * emitted. Otherwise elements must cross lanes: gpu_exchange.c moves them
 * through shared memory (transpose(t) of a row tile always does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

/* a register tile or vector operand (the rest are scalars, splatted) */
static bool is_tile(const TirInstr *x) { return x->type->kind == TK_TY_RT || x->type->kind == TK_TY_RV; }

static bool float_elem(TkTypeKind k) { return k == TK_TY_F32 || gpu_half(k); }

/* ---------------------------------------------------------------- maps */

int gpu_map_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[400];
    if (i->type->kind == TK_TY_RV) return gpu_vector_check(g, i);   /* rv maps: every operand an rv or a scalar */
    Role want = gpu_role_of(i->type);
    if (want == ROLE_NONE) {
        snprintf(what, sizeof what, ".%s giving %s", tir_fn_name((TirFn)i->aux), gpu_type_str(i->type, ty, sizeof ty));
        return gpu_not_supported(g, i, what);
    }
    for (unsigned a = 0; a < i->nargs; a++) {
        const TirInstr *x = i->args[a];
        if (!is_tile(x)) continue;
        if (gpu_role_of(x->type) != want) {
            snprintf(what, sizeof what, ".%s of %s giving %s (a map whose operand and result have different fragment layouts)",
                     tir_fn_name((TirFn)i->aux), gpu_type_str(x->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
            return gpu_not_supported(g, i, what);
        }
    }
    return 0;
}

LLVMValueRef gpu_tile_map(GpuLower *g, const TirInstr *i)
{
    Emit *E = &g->e;
    unsigned n = gpu_width(g, i);
    TirFn fn = (TirFn)i->aux;
    /* the operands' element type: a tile operand's (comparisons give bool) */
    TkTypeKind k = i->type->elem;
    for (unsigned a = 0; a < i->nargs; a++)
        if (is_tile(i->args[a]) && !(fn == TIR_FN_SELECT && a == 0)) {
            k = i->args[a]->type->elem;
            break;
        }
    LLVMValueRef x[3] = { NULL, NULL, NULL };
    for (unsigned a = 0; a < i->nargs && a < 3; a++) {
        const TirInstr *arg = i->args[a];
        TkTypeKind ak = fn == TIR_FN_SELECT && a == 0 ? TK_TY_BOOL : k;
        LLVMValueRef v = gpu_val(g, arg);
        if (!is_tile(arg)) {
            v = emit_convert_scalar(E, v, arg->type->kind, ak);
            if (gpu_half(ak)) v = LLVMBuildBitCast(E->b, v, E->i16, "");
            v = gpu_splat(g, v, n);
        }
        /* bf16 and f16 compute in f32 (a select only moves elements) */
        x[a] = fn != TIR_FN_SELECT ? gpu_widen(g, v, ak) : v;
    }
    LLVMValueRef v;
    if (fn == TIR_FN_SELECT) return LLVMBuildSelect(E->b, x[0], x[1], x[2], "");
    if (i->op == TIR_MAP3) v = emit_fma(E, x[0], x[1], x[2]);
    else v = emit_fn(E, fn, x[0], x[1], false);
    return gpu_narrow(g, v, i->type->elem);
}

/* ---------------------------------------------------------------- conversions */

/* perm[p]: the element of a `from` tile that lane l holds where it must hold
 * element p of the `to` tile, the same for every lane; false if there is none
 * (the element lives in another lane). Element (r, c) of `to` is (r, c) of
 * `from`, or (c, r) when transposed. */
static bool lane_local(GpuLower *g, const TkType *from, const TkType *to, Role role, bool transpose, int *perm)
{
    Frags S, D;
    if (!gpu_frags_of(g->row, from, &S) || !gpu_frags_as(g->row, to, role, &D)) return false;
    int64_t cells = to->dims[0] * to->dims[1];
    int *at = malloc(sizeof *at * (size_t)cells);
    if (!at) return false;
    for (int64_t c = 0; c < cells; c++) at[c] = -1;
    bool ok = true;
    for (int lane = 0; lane < g->wave && ok; lane++) {
        /* where this lane holds each cell of `from`, by its place in `to` */
        for (int64_t q = 0; q < S.n; q++) {
            int64_t frag = q / S.elems, e = q % S.elems;
            int r, c;
            tk_lane_map_at(S.lay, lane, (int)e, &r, &c);
            int64_t fr = frag / S.fcols * S.bm + r, fc = frag % S.fcols * S.bn + c;
            at[transpose ? fc * to->dims[1] + fr : fr * to->dims[1] + fc] = (int)q;
        }
        for (int64_t p = 0; p < D.n && ok; p++) {
            int64_t frag = p / D.elems, e = p % D.elems;
            int r, c;
            tk_lane_map_at(D.lay, lane, (int)e, &r, &c);
            int q = at[(frag / D.fcols * D.bm + r) * to->dims[1] + frag % D.fcols * D.bn + c];
            if (q < 0 || (lane > 0 && q != perm[p])) ok = false;
            perm[p] = q;
        }
        for (int64_t c = 0; c < cells; c++) at[c] = -1;
    }
    free(at);
    return ok;
}

/* The refusal of a layout the base tile does not divide. */
static int not_split(GpuLower *g, const TirInstr *i, const TkType *from, const TkType *to, Role role)
{
    char ty[128], ty2[128], what[400];
    snprintf(what, sizeof what, "%s %s into %s (which does not split into %s's base tiles as %s)",
             i->op == TIR_MMA ? "with an operand" : "of", gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2),
             g->cpu, role == ROLE_A ? "an A operand" : role == ROLE_B ? "a B operand" : "an accumulator");
    return gpu_not_supported(g, i, what);
}

/* The standard operand types of an mma: A as rt<T, M, K, row>, B as
 * rt<T, K, N, col>, in the layouts of the A and B roles (an f32 A operand is
 * not laid out as an f32 row tile, an accumulator, is); ta, tb: whether the
 * given operand is transposed. */
static void mma_operands(const TirInstr *i, TkType *A, TkType *B, bool *ta, bool *tb)
{
    const TkType *acc = i->args[0]->type, *a = i->args[1]->type;
    *ta = (i->aux & 2) != 0;
    *tb = (i->aux & 1) != 0;
    int64_t K = *ta ? a->dims[0] : a->dims[1];
    *A = *a;
    A->dims[0] = acc->dims[0];
    A->dims[1] = K;
    A->layout = TK_ROW;
    *B = *i->args[2]->type;
    B->dims[0] = K;
    B->dims[1] = acc->dims[1];
    B->layout = TK_COL;
}

static bool needs_relayout(const TkType *from, Role role, bool transpose)
{
    return transpose || gpu_role_of(from) != role;
}

static int check_one(GpuLower *g, const TirInstr *i, const TkType *from, const TkType *to, Role role, bool transpose)
{
    if (!needs_relayout(from, role, transpose)) return 0;
    Frags D;
    if (!gpu_frags_as(g->row, to, role, &D)) return not_split(g, i, from, to, role);
    int *perm = malloc(sizeof *perm * (size_t)D.n);
    if (!perm) return gpu_not_supported(g, i, "(out of memory)");
    bool ok = lane_local(g, from, to, role, transpose, perm);
    free(perm);
    return ok ? 0 : gpu_exchange_need(g, i, from, to);
}

int gpu_relayout_check(GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if ((i->op == TIR_CONVERT || i->op == TIR_TRANSPOSE) && i->type->kind == TK_TY_RT &&
            check_one(g, i, i->args[0]->type, i->type, gpu_role_of(i->type), i->op == TIR_TRANSPOSE))
            return 1;
        if (i->op == TIR_MMA) {
            TkType A, B;
            bool ta, tb;
            mma_operands(i, &A, &B, &ta, &tb);
            if (check_one(g, i, i->args[1]->type, &A, ROLE_A, ta) || check_one(g, i, i->args[2]->type, &B, ROLE_B, tb)) return 1;
        }
        if ((i->op == TIR_SLICE || i->op == TIR_LINE || i->op == TIR_SET_SLICE || i->op == TIR_SET_LINE) && gpu_slice_check(g, i))
            return 1;
        if ((i->op == TIR_FOR || i->op == TIR_IF) && (gpu_relayout_check(g, &i->body[0]) || gpu_relayout_check(g, &i->body[1])))
            return 1;
    }
    return 0;
}

/* v, a tile of type from, as a tile of type to (transposed or not): a fixed
 * permutation of the lane's vector (gpu_relayout_check proved there is one). */
static LLVMValueRef relayout(GpuLower *g, const TirInstr *i, LLVMValueRef v, const TkType *from, const TkType *to, Role role,
                             bool transpose)
{
    if (!needs_relayout(from, role, transpose)) return v;
    Frags D;
    gpu_frags_as(g->row, to, role, &D);
    int *perm = malloc(sizeof *perm * (size_t)D.n);
    LLVMValueRef *mask = malloc(sizeof *mask * (size_t)D.n);
    if (!perm || !mask) {
        gpu_not_supported(g, i, "(out of memory)");
        free(perm);
        free(mask);
        return LLVMGetPoison(gpu_tile_type(g, to));
    }
    if (!lane_local(g, from, to, role, transpose, perm)) {   /* sized at check time */
        free(perm);
        free(mask);
        return gpu_exchange(g, v, from, to, role, transpose);
    }
    for (int64_t p = 0; p < D.n; p++) mask[p] = c32(g, perm[p]);
    v = LLVMBuildShuffleVector(g->e.b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, (unsigned)D.n), "relayout");
    free(perm);
    free(mask);
    return v;
}

void gpu_mma_operands(GpuLower *g, const TirInstr *i, LLVMValueRef *a, LLVMValueRef *b)
{
    TkType A, B;
    bool ta, tb;
    mma_operands(i, &A, &B, &ta, &tb);
    *a = relayout(g, i, gpu_val(g, i->args[1]), i->args[1]->type, &A, ROLE_A, ta);
    *b = relayout(g, i, gpu_val(g, i->args[2]), i->args[2]->type, &B, ROLE_B, tb);
}

int gpu_convert_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[400];
    const TkType *from = i->args[0]->type, *to = i->type;
    if (from->kind == TK_TY_RV && to->kind == TK_TY_RV && float_elem(from->elem) && float_elem(to->elem)) return 0;
    if (from->kind != TK_TY_RT || to->kind != TK_TY_RT || gpu_role_of(from) == ROLE_NONE || gpu_role_of(to) == ROLE_NONE ||
        !float_elem(from->elem) || !float_elem(to->elem)) {
        snprintf(what, sizeof what, "of %s into %s", gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2));
        return gpu_not_supported(g, i, what);
    }
    return 0;
}

LLVMValueRef gpu_tile_convert(GpuLower *g, const TirInstr *i)
{
    const TkType *from = i->args[0]->type, *to = i->type;
    LLVMValueRef v = gpu_val(g, i->args[0]);
    /* an rv keeps its distribution (gpu_vector.c puts both in one class) */
    if (to->kind == TK_TY_RT) v = relayout(g, i, v, from, to, gpu_role_of(to), false);
    if (from->elem == to->elem) return v;
    return gpu_narrow(g, gpu_widen(g, v, from->elem), to->elem);
}

LLVMValueRef gpu_tile_transpose(GpuLower *g, const TirInstr *i)
{
    return relayout(g, i, gpu_val(g, i->args[0]), i->args[0]->type, i->type, gpu_role_of(i->type), true);
}
