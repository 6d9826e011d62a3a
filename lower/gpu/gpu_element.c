/* gpu_element.c — single elements of register tiles and vectors on GPUs:
 * x = t[i, j] (ELEM) and t[i, j] = x (SET_ELEM), with i and j any scalars.
 *
 * The lane that holds element (i, j), and where in its vector, depends on
 * the indices, which are known only at run time. So every lane compares the
 * coordinates of all its elements with (i, j) (the lane maps give them as
 * vectors, gpu_tile_rc and gpu_vector_elements). A write is then one vector
 * select in every lane: the lanes that hold the element (one, or several for
 * a vector held in copies) replace it. A read keeps the matching element's
 * bits, 0 elsewhere, ORs them over the lane's vector and then over the warp
 * (a butterfly of shuffles), so that every lane ends with the element, as a
 * scalar must be. An index outside the tile matches nothing: the write does
 * nothing and the read gives 0 (the checker keeps constant indices in range;
 * nothing is read or written out of bounds either way). */
#include <stdio.h>

#include "gpu_internal.h"

static bool elem_ok(TkTypeKind k) { return k == TK_TY_F32 || gpu_half(k) || k == TK_TY_BOOL; }

int gpu_element_check(GpuLower *g, const TirInstr *i)
{
    const TkType *t = i->args[0]->type;
    char ty[128], what[300];
    bool ok = (t->kind == TK_TY_RT && gpu_role_of(t) != ROLE_NONE) || t->kind == TK_TY_RV;
    if (ok && elem_ok(t->elem)) return 0;
    snprintf(what, sizeof what, "of %s (single elements of register tiles and vectors of f32, bf16 or bool)",
             gpu_type_str(t, ty, sizeof ty));
    return gpu_not_supported(g, i, what);
}

/* <n x i1>: which of the lane's elements of tile or vector x (a value or a
 * slot) are element (r[, c]) */
static LLVMValueRef match(GpuLower *g, const TirInstr *x, const TirInstr *r, const TirInstr *c, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef rs = gpu_splat(g, gpu_i64v(g, gpu_val(g, r)), n);
    if (x->type->kind == TK_TY_RV) return LLVMBuildICmp(B, LLVMIntEQ, gpu_vector_elements(g, x), rs, "");
    LLVMValueRef rows, cols;
    gpu_tile_rc(g, x->type, &rows, &cols);
    LLVMValueRef cs = gpu_splat(g, gpu_i64v(g, gpu_val(g, c)), n);
    return LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, rows, rs, ""), LLVMBuildICmp(B, LLVMIntEQ, cols, cs, ""), "");
}

LLVMValueRef gpu_element(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *x = i->args[0];
    LLVMValueRef v = gpu_val(g, x);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    LLVMValueRef hit = match(g, x, i->args[1], i->nargs > 2 ? i->args[2] : NULL, n);
    /* the element's bits as i32: f32 as is, bf16 (i16) and bool (i1) zero-extended */
    LLVMTypeRef v32 = LLVMVectorType(g->e.i32, n);
    LLVMValueRef bits = x->type->elem == TK_TY_F32 ? LLVMBuildBitCast(B, v, v32, "") : LLVMBuildZExt(B, v, v32, "");
    bits = LLVMBuildSelect(B, hit, bits, LLVMConstNull(v32), "");
    LLVMValueRef one = c32(g, 0);
    for (unsigned p = 0; p < n; p++) one = LLVMBuildOr(B, one, LLVMBuildExtractElement(B, bits, c32(g, p), ""), "");
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, B, g->env };
    for (int d = 1; d < g->wave; d <<= 1)
        one = LLVMBuildOr(B, one, g->v->shuffle(&gb, one, LLVMBuildXor(B, g->lane, c32(g, d), "")), "");
    switch (x->type->elem) {
    case TK_TY_F32: return LLVMBuildBitCast(B, one, g->e.f32, "elem");
    case TK_TY_BOOL: return LLVMBuildICmp(B, LLVMIntNE, one, c32(g, 0), "elem");
    default: return LLVMBuildBitCast(B, LLVMBuildTrunc(B, one, g->e.i16, ""), emit_scalar_type(&g->e, x->type->elem), "elem");
    }
}

void gpu_set_element(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *slot = i->args[0];
    LLVMValueRef at = g->slots[slot->id];
    LLVMTypeRef t = gpu_value_type(g, slot);
    LLVMValueRef v = LLVMBuildLoad2(B, t, at, "");
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef hit = match(g, slot, i->args[2], i->nargs > 3 ? i->args[3] : NULL, n);
    LLVMValueRef x = gpu_splat(g, gpu_elem_value(g, i->args[1], slot->type->elem), n);
    LLVMBuildStore(B, LLVMBuildSelect(B, hit, x, v, ""), at);
}
