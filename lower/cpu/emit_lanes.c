/* emit_lanes.c — fused element loops over small values, a vector at a time.
 *
 * A fused element-wise DAG (emit_fuse.c) is normally one loop over its
 * elements that LLVM vectorises. For a small value — a pixel's rv<f32, 32>,
 * a few rows of a narrow tile — that loop is short, and whatever LLVM makes
 * of it keeps the value in memory: a loop-vectorised one stores its result
 * to the stack and the next statement loads it back (a depthwise conv's
 * accumulator went through memory at every tap, 9 store-to-load waits per
 * pixel), and an unrolled one is left to the SLP vectoriser, which kept bf16
 * conversions scalar. So these values are computed straight-line, one vector
 * of up to 16 consecutive elements of a row per step, at constant offsets:
 * SROA then keeps every such buffer in registers.
 *
 * The helpers here are emit_ld / emit_st / a broadcast for `n` elements at
 * once; emit_fuse.c's fused_node builds the same DAG on vectors when
 * E->fuse_lanes is set. */
#include "emit.h"
#include "emit_gl.h"

/* Elements a value may have to be computed in lanes: 16 zmm registers of f32. */
#define LANES_MAX_ELEMS 256
/* Elements per vector: one zmm of f32 (a row's last vector may be shorter). */
#define LANES_WIDTH 16

unsigned emit_lanes_for(const TkType *t)
{
    if (t->kind != TK_TY_RV && t->kind != TK_TY_RT) return 0;
    if (t->rank == 2 && t->layout != TK_ROW) return 0;
    int64_t cols = t->rank == 2 ? t->dims[1] : t->dims[0], rows = t->rank == 2 ? t->dims[0] : 1;
    if (cols < 4 || rows * cols > LANES_MAX_ELEMS) return 0;
    switch (t->elem) {
    case TK_TY_F32:
    case TK_TY_BF16:
    case TK_TY_F16:
    case TK_TY_BOOL: break;
    default: return 0;
    }
    return cols < LANES_WIDTH ? (unsigned)cols : LANES_WIDTH;
}

LLVMValueRef emit_splat(Emit *E, LLVMValueRef scalar, unsigned n)
{
    if (n <= 1) return scalar;
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(scalar), n);
    LLVMValueRef one = LLVMBuildInsertElement(E->b, LLVMGetPoison(vt), scalar, LLVMConstInt(E->i32, 0, 0), "");
    return LLVMBuildShuffleVector(E->b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(E->i32, n)), "");
}

/* <first, first + 1, ..., first + n − 1> as i64 lanes. */
LLVMValueRef emit_lane_index(Emit *E, LLVMValueRef first, unsigned n)
{
    LLVMValueRef steps[LANES_WIDTH];
    for (unsigned k = 0; k < n && k < LANES_WIDTH; k++) steps[k] = LLVMConstInt(E->i64, k, 0);
    return LLVMBuildAdd(E->b, emit_splat(E, first, n), LLVMConstVector(steps, n), "");
}

/* The alignment a row's element guarantees: a vector may start at any element. */
static unsigned elem_bytes(const TkType *t) { return t->elem == TK_TY_F32 ? 4 : t->elem == TK_TY_BOOL ? 1 : 2; }

/* Elements idx .. idx + n − 1 of a buffer or row of type t's elements, widened to f32 (masks: i1). */
LLVMValueRef emit_ld_lanes(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, unsigned n)
{
    LLVMTypeRef et = emit_elem_type(E, t);
    LLVMValueRef v = LLVMBuildLoad2(E->b, LLVMVectorType(et, n), elem_ptr(E, t, base, idx), "");
    LLVMSetAlignment(v, elem_bytes(t));
    if (t->elem == TK_TY_BOOL) return LLVMBuildICmp(E->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    return emit_to_f32(E, v, t->elem);
}

/* Stores vector v (f32, or i1 for a mask) as elements idx .. of type t's elements, rounded to them. */
void emit_st_lanes(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v)
{
    LLVMTypeRef et = emit_elem_type(E, t);
    if (t->elem == TK_TY_BOOL) v = LLVMBuildZExt(E->b, v, emit_type_like(v, E->i8), "");
    else if (t->elem != TK_TY_F32) v = emit_fptrunc(E, v, et);
    LLVMValueRef st = LLVMBuildStore(E->b, v, elem_ptr(E, t, base, idx));
    LLVMSetAlignment(st, elem_bytes(t));
}
