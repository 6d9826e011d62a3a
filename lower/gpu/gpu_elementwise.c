/* gpu_elementwise.c — element-wise maps and conversions of register tiles in
 * the GPU lowering.
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
 * A operand, say). When every element a lane needs is already in that lane —
 * NVIDIA's m16n8k16 accumulator and A fragments, for instance — it is a fixed
 * permutation of the lane's vector, found here by comparing the base tile's
 * lane maps for all lanes. Otherwise elements must cross lanes (shared memory
 * or shuffles), which is not done yet and is refused with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

static bool is_tile(const TirInstr *x) { return x->type->kind == TK_TY_RT; }

static bool float_elem(TkTypeKind k) { return k == TK_TY_F32 || k == TK_TY_BF16; }

/* ---------------------------------------------------------------- maps */

int gpu_map_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[400];
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
    Frags F;
    gpu_frags_of(g->row, i->type, &F);
    unsigned n = (unsigned)F.n;
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
            if (ak == TK_TY_BF16) v = LLVMBuildBitCast(E->b, v, E->i16, "");
            v = gpu_splat(g, v, n);
        }
        /* bf16 computes in f32 (a select only moves elements) */
        x[a] = ak == TK_TY_BF16 && fn != TIR_FN_SELECT ? emit_to_f32(E, v, TK_TY_BF16) : v;
    }
    LLVMValueRef v;
    if (fn == TIR_FN_SELECT) return LLVMBuildSelect(E->b, x[0], x[1], x[2], "");
    if (i->op == TIR_MAP3) v = emit_fma(E, x[0], x[1], x[2]);
    else v = emit_fn(E, fn, x[0], x[1], false);
    return i->type->elem == TK_TY_BF16 ? emit_fptrunc(E, v, E->i16) : v;
}

/* ---------------------------------------------------------------- conversions */

/* perm[p]: the element of a `from` tile that lane l holds where it must hold
 * element p of the `to` tile, the same for every lane; false if there is none
 * (the element lives in another lane). */
static bool lane_local(GpuLower *g, const TkType *from, const TkType *to, int *perm)
{
    Frags S, D;
    gpu_frags_of(g->row, from, &S);
    gpu_frags_of(g->row, to, &D);
    int64_t cells = to->dims[0] * to->dims[1];
    int *at = malloc(sizeof *at * (size_t)cells);
    if (!at) return false;
    for (int64_t c = 0; c < cells; c++) at[c] = -1;
    bool ok = true;
    for (int lane = 0; lane < g->wave && ok; lane++) {
        /* where this lane holds each cell of `from` */
        for (int64_t q = 0; q < S.n; q++) {
            int64_t frag = q / S.elems, e = q % S.elems;
            int r, c;
            tk_lane_map_at(S.lay, lane, (int)e, &r, &c);
            at[(frag / S.fcols * S.bm + r) * to->dims[1] + frag % S.fcols * S.bn + c] = (int)q;
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

int gpu_convert_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[400];
    const TkType *from = i->args[0]->type, *to = i->type;
    if (from->kind != TK_TY_RT || to->kind != TK_TY_RT || gpu_role_of(from) == ROLE_NONE || gpu_role_of(to) == ROLE_NONE ||
        !float_elem(from->elem) || !float_elem(to->elem)) {
        snprintf(what, sizeof what, "of %s into %s", gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2));
        return gpu_not_supported(g, i, what);
    }
    return 0;
}

/* lane_local needs the base tile, which is chosen after checking */
LLVMValueRef gpu_tile_convert(GpuLower *g, const TirInstr *i)
{
    Emit *E = &g->e;
    const TkType *from = i->args[0]->type, *to = i->type;
    LLVMValueRef v = gpu_val(g, i->args[0]);
    if (gpu_role_of(from) != gpu_role_of(to)) {
        Frags D;
        gpu_frags_of(g->row, to, &D);
        int *perm = malloc(sizeof *perm * (size_t)D.n);
        LLVMValueRef *mask = malloc(sizeof *mask * (size_t)D.n);
        if (!perm || !mask || !lane_local(g, from, to, perm)) {
            char ty[128], ty2[128], what[400];
            if (perm && mask)
                snprintf(what, sizeof what,
                         "of %s into %s (on %s this moves elements between lanes, through shared memory: not done yet)",
                         gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2), g->cpu);
            else
                snprintf(what, sizeof what, "(out of memory)");
            free(perm);
            free(mask);
            gpu_not_supported(g, i, what);
            return LLVMGetPoison(gpu_tile_type(g, to));
        }
        for (int64_t p = 0; p < D.n; p++) mask[p] = c32(g, perm[p]);
        v = LLVMBuildShuffleVector(E->b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, (unsigned)D.n), "relayout");
        free(perm);
        free(mask);
    }
    if (from->elem == to->elem) return v;
    if (from->elem == TK_TY_BF16) v = emit_to_f32(E, v, TK_TY_BF16);
    return to->elem == TK_TY_BF16 ? emit_fptrunc(E, v, E->i16) : v;
}
