/* emit_tiles.c — tile and vector operations as loops over stack buffers:
 * element access, shared ↔ register copies, transposes, loads and stores
 * (element-wise work and reductions: emit_fuse.c).
 *
 * A tile value is a pointer to its elements in the order its type says (rt
 * row: row-major, rt col: column-major, st: row-major, vectors: dense).
 * Arithmetic on f16/bf16 elements is done in f32 and rounded to nearest even
 * on the way back. These loops are the generic path: simple, counted loops
 * over contiguous memory that LLVM's vectoriser handles. mma is lowered in
 * emit_mma.c; packed tensors in emit_packed.c; transfers to and from global
 * tensors in emit_gl.c. */
#include <stdio.h>

#include "cpu_mma.h"
#include "emit.h"
#include "emit_gl.h"
#include "llvm_emit.h"
#include "tir_layout.h"

int64_t emit_tile_elems(const TkType *t)
{
    return t->rank == 2 ? t->dims[0] * t->dims[1] : t->dims[0];
}

LLVMValueRef emit_tile_index(Emit *E, const TkType *t, LLVMValueRef i, LLVMValueRef j)
{
    if (t->rank == 1) return i;
    if (t->kind == TK_TY_RT && t->layout == TK_COL)
        return LLVMBuildAdd(E->b, LLVMBuildMul(E->b, j, emit_const_i64(E, t->dims[0]), ""), i, "");
    return LLVMBuildAdd(E->b, LLVMBuildMul(E->b, i, emit_const_i64(E, t->dims[1]), ""), j, "");
}

/* Mask elements are bytes in memory (0 or 1): a vector of i1 would be
 * bit-packed, and element addresses would no longer be byte offsets. */
LLVMTypeRef emit_elem_type(Emit *E, const TkType *t) { return t->elem == TK_TY_BOOL ? E->i8 : emit_scalar_type(E, t->elem); }

/* Offset of element (i, j) of a tile stored with physical packing `pack`
 * (tir_layout.h); TIR_PACK_NONE means the layout its type says. */
LLVMValueRef emit_packed_index(Emit *E, const TkType *t, TirPack pack, LLVMValueRef i, LLVMValueRef j)
{
    if (t->rank != 2 || pack == TIR_PACK_NONE) return t->rank == 2 ? emit_tile_index(E, t, i, j) : j;
    bool nk = pack == TIR_PACK_VNNI_NK || pack == TIR_PACK_ROWS_NK;
    LLVMValueRef k = nk ? j : i, n = nk ? i : j;
    int64_t N = nk ? t->dims[0] : t->dims[1], K = nk ? t->dims[1] : t->dims[0];
    bool pairs = pack == TIR_PACK_VNNI_KN || pack == TIR_PACK_VNNI_NK;
    return tk_mma_b_offset(E->b, k, n, N, emit_const_i64(E, TK_MMA_PANEL * K), pairs);
}


/* Load element idx widened to f32 (a mask's element: as i1). */
LLVMValueRef emit_ld(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx)
{
    LLVMValueRef v = LLVMBuildLoad2(E->b, emit_elem_type(E, t), elem_ptr(E, t, base, idx), "");
    if (t->elem == TK_TY_BOOL) return LLVMBuildICmp(E->b, LLVMIntNE, v, LLVMConstInt(E->i8, 0, 0), "");
    return emit_to_f32(E, v, t->elem);
}

/* Store an f32 value as element idx (rounded to the element type; a mask's i1 as a byte). */
void emit_st(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v)
{
    if (t->elem == TK_TY_BOOL) v = LLVMBuildZExt(E->b, v, E->i8, "");
    else if (t->elem != TK_TY_F32) v = emit_fptrunc(E, v, emit_elem_type(E, t));
    LLVMBuildStore(E->b, v, elem_ptr(E, t, base, idx));
}

/* Raw element copy (same element type, no conversion). */
void emit_copy_elem(Emit *E, const TkType *t, LLVMValueRef dst, LLVMValueRef di, LLVMValueRef src, LLVMValueRef si)
{
    LLVMValueRef v = LLVMBuildLoad2(E->b, emit_elem_type(E, t), elem_ptr(E, t, src, si), "");
    LLVMBuildStore(E->b, v, elem_ptr(E, t, dst, di));
}

LLVMValueRef emit_temp_buffer(Emit *E, const TirInstr *i)
{
    if (!E->slots[i->id]) E->slots[i->id] = emit_alloca(E, emit_elem_type(E, i->type), emit_tile_elems(i->type), "tile");
    return E->slots[i->id];
}

static LLVMValueRef bytes_of(Emit *E, const TkType *t)
{
    int64_t w = t->elem == TK_TY_F32 ? 4 : t->elem == TK_TY_BOOL ? 1 : 2;
    return emit_const_i64(E, emit_tile_elems(t) * w);
}

void emit_tile_copy(Emit *E, LLVMValueRef dst, LLVMValueRef src, const TkType *t)
{
    LLVMBuildMemCpy(E->b, dst, 64, src, 64, bytes_of(E, t));
}

void emit_tile_zero(Emit *E, LLVMValueRef dst, const TkType *t)
{
    LLVMBuildMemSet(E->b, dst, LLVMConstInt(E->i8, 0, 0), bytes_of(E, t), 64);
}

/* ---------------------------------------------------------------- shared ↔ register */

static void shared_transfer(Emit *E, const TkType *sh, LLVMValueRef shbuf, const TirInstr *const *coords, unsigned ncoords,
                            const TkType *reg, LLVMValueRef regbuf, bool to_reg, TirPack pack)
{
    int64_t r = reg->rank == 2 ? reg->dims[0] : 1, c = reg->rank == 2 ? reg->dims[1] : reg->dims[0];
    int64_t sh_cols = sh->rank == 2 ? sh->dims[1] : sh->dims[0];
    LLVMValueRef r0 = emit_const_i64(E, 0), c0 = emit_const_i64(E, 0);
    if (ncoords == 2) {
        r0 = LLVMBuildMul(E->b, i64v(E, emit_value(E, coords[0])), emit_const_i64(E, r), "");
        c0 = LLVMBuildMul(E->b, i64v(E, emit_value(E, coords[1])), emit_const_i64(E, c), "");
    } else if (ncoords == 1) {
        c0 = LLVMBuildMul(E->b, i64v(E, emit_value(E, coords[0])), emit_const_i64(E, c), "");
    }
    if (to_reg && pack == TIR_PACK_VNNI_KN && reg->rank == 2 && r % 2 == 0) {
        /* rows k, k+1 of the sub-tile interleave into pairs (cpu_mma.h panels) */
        EmitLoop Lp, Lc;
        emit_loop_begin(E, &Lp, emit_const_i64(E, r / 2), "sh.pair");
        emit_loop_begin(E, &Lc, emit_const_i64(E, c), "sh.pcol");
        LLVMValueRef row0 = LLVMBuildAdd(E->b, r0, LLVMBuildShl(E->b, Lp.idx, emit_const_i64(E, 1), ""), "");
        LLVMValueRef col = LLVMBuildAdd(E->b, c0, Lc.idx, "");
        LLVMValueRef s0 = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, row0, emit_const_i64(E, sh_cols), ""), col, "");
        LLVMValueRef s1 = LLVMBuildAdd(E->b, s0, emit_const_i64(E, sh_cols), "");
        LLVMValueRef d = emit_packed_index(E, reg, TIR_PACK_VNNI_KN, LLVMBuildShl(E->b, Lp.idx, emit_const_i64(E, 1), ""), Lc.idx);
        emit_copy_elem(E, reg, regbuf, d, shbuf, s0);
        emit_copy_elem(E, reg, regbuf, LLVMBuildAdd(E->b, d, emit_const_i64(E, 1), ""), shbuf, s1);
        emit_loop_end(E, &Lc);
        emit_loop_end(E, &Lp);
        return;
    }
    EmitLoop Li, Lj;
    emit_loop_begin(E, &Li, emit_const_i64(E, r), "sh.row");
    emit_loop_begin(E, &Lj, emit_const_i64(E, c), "sh.col");
    LLVMValueRef si = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, r0, Li.idx, ""), emit_const_i64(E, sh_cols), ""),
                                   LLVMBuildAdd(E->b, c0, Lj.idx, ""), "");
    LLVMValueRef ri = reg->rank == 2 ? emit_packed_index(E, reg, pack, Li.idx, Lj.idx) : Lj.idx;
    if (to_reg) emit_copy_elem(E, reg, regbuf, ri, shbuf, si);
    else emit_copy_elem(E, reg, shbuf, si, regbuf, ri);
    emit_loop_end(E, &Lj);
    emit_loop_end(E, &Li);
}

/* out = srcᵀ for row-major tiles (src R×C, out C×R) in 16×16 blocks: 16 row
 * loads of <16 x T>, transpose16, 16 row stores. The element loop moved one
 * 2-byte element at a time (a 128×128 bf16 transpose was 60% of a K/V pack
 * kernel). */
static void transpose_rows16(Emit *E, LLVMValueRef out, LLVMValueRef src, const TkType *s)
{
    int64_t R = s->dims[0], C = s->dims[1];
    LLVMTypeRef et = emit_elem_type(E, s), v16 = LLVMVectorType(et, 16);
    EmitLoop Lr, Lc;
    emit_loop_begin(E, &Lr, emit_const_i64(E, R / 16), "tr.r");
    emit_loop_begin(E, &Lc, emit_const_i64(E, C / 16), "tr.c");
    LLVMValueRef r0 = LLVMBuildShl(E->b, Lr.idx, emit_const_i64(E, 4), ""), c0 = LLVMBuildShl(E->b, Lc.idx, emit_const_i64(E, 4), "");
    LLVMValueRef rows[16];
    for (int r = 0; r < 16; r++) {
        LLVMValueRef el = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, r0, emit_const_i64(E, r), ""), emit_const_i64(E, C), ""), c0, "");
        rows[r] = LLVMBuildLoad2(E->b, v16, LLVMBuildGEP2(E->b, et, src, &el, 1, ""), "");
        LLVMSetAlignment(rows[r], 2);
    }
    emit_transpose16(E, rows);
    for (int c = 0; c < 16; c++) {
        LLVMValueRef el = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, c0, emit_const_i64(E, c), ""), emit_const_i64(E, R), ""), r0, "");
        LLVMSetAlignment(LLVMBuildStore(E->b, rows[c], LLVMBuildGEP2(E->b, et, out, &el, 1, "")), 2);
    }
    emit_loop_end(E, &Lc);
    emit_loop_end(E, &Lr);
}

static LLVMValueRef emit_transpose(Emit *E, const TirInstr *i)
{
    const TkType *t = i->type, *s = i->args[0]->type;
    LLVMValueRef src = emit_value(E, i->args[0]), out = emit_temp_buffer(E, i);
    if (t->rank == 2 && t->layout == TK_ROW && s->layout == TK_ROW && t->elem == s->elem && s->dims[0] % 16 == 0 &&
        s->dims[1] % 16 == 0 && (uintptr_t)i->pack == TIR_PACK_NONE) {
        transpose_rows16(E, out, src, s);
        return out;
    }
    /* element by element, in out's storage order (rows outer for a row tile) */
    bool by_col = t->layout == TK_COL;
    EmitLoop Lo, Li;
    emit_loop_begin(E, &Lo, emit_const_i64(E, by_col ? t->dims[1] : t->dims[0]), "tr.outer");
    emit_loop_begin(E, &Li, emit_const_i64(E, by_col ? t->dims[0] : t->dims[1]), "tr.inner");
    LLVMValueRef r = by_col ? Li.idx : Lo.idx, c = by_col ? Lo.idx : Li.idx;
    emit_copy_elem(E, t, out, emit_tile_index(E, t, r, c), src, emit_tile_index(E, s, c, r));
    emit_loop_end(E, &Li);
    emit_loop_end_rows(E, &Lo);
    return out;
}

static LLVMValueRef emit_load(Emit *E, const TirInstr *i)
{
    const TirInstr *src = i->args[0];
    LLVMValueRef out = emit_temp_buffer(E, i);
    if (src->op == TIR_PARAM) {
        emit_gl_transfer(E, src->type, emit_value(E, src), (const TirInstr *const *)&i->args[1], i->type, out, true, (TirPack)i->pack);
    } else {
        LLVMValueRef sh = emit_slot_ptr(E, src);
        shared_transfer(E, src->type, sh, (const TirInstr *const *)&i->args[1], i->nargs - 1u, i->type, out, true, (TirPack)i->pack);
    }
    return out;
}

LLVMValueRef emit_tile_value(Emit *E, const TirInstr *i)
{
    switch (i->op) {
    case TIR_FILL: return emit_fill(E, i);
    case TIR_LOAD: return emit_load(E, i);
    case TIR_MAP1:
    case TIR_MAP2:
    case TIR_MAP3:
    case TIR_BROADCAST:
    case TIR_CONVERT:
    case TIR_TRI:
    case TIR_SLICE:
    case TIR_LINE:
    case TIR_MASK: return emit_elementwise(E, i);
    case TIR_REDUCE: return emit_reduce(E, i);
    case TIR_TRANSPOSE: return emit_transpose(E, i);
    default:
        E->failed = true;
        snprintf(E->err, sizeof E->err, "no code generation for TIR op %s", tir_op_name(i->op));
        return LLVMConstNull(E->ptr);
    }
}

void emit_tile_store(Emit *E, const TirInstr *i)
{
    const TirInstr *dst = i->args[0];
    if (emit_fused_into_user(E, i->args[1])) {
        emit_fused_store(E, i);
        return;
    }
    const TkType *t = i->args[1]->type;
    LLVMValueRef buf = emit_value(E, i->args[1]);
    LLVMValueRef in_c = dst->op == TIR_PARAM ? emit_outview_before_store(E, i) : NULL;
    if (in_c) {   /* an accumulator that lived in C (emit_outview.c) is already there */
        LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "acc.copy");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "acc.stored");
        LLVMBuildCondBr(E->b, in_c, done, copy);
        LLVMPositionBuilderAtEnd(E->b, copy);
        emit_gl_transfer(E, dst->type, emit_value(E, dst), (const TirInstr *const *)&i->args[2], t, buf, false, TIR_PACK_NONE);
        LLVMBuildBr(E->b, done);
        LLVMPositionBuilderAtEnd(E->b, done);
    } else if (dst->op == TIR_PARAM) {
        LLVMBasicBlockRef streamed = emit_store_stream_begin(E, i, buf);
        emit_gl_transfer(E, dst->type, emit_value(E, dst), (const TirInstr *const *)&i->args[2], t, buf, false, TIR_PACK_NONE);
        if (streamed) {
            LLVMBuildBr(E->b, streamed);
            LLVMPositionBuilderAtEnd(E->b, streamed);
        }
    } else {
        shared_transfer(E, dst->type, emit_slot_ptr(E, dst), (const TirInstr *const *)&i->args[2], i->nargs - 2u, t, buf, false,
                        TIR_PACK_NONE);
    }
}

LLVMValueRef emit_tile_elem(Emit *E, const TirInstr *i)
{
    const TkType *t = i->args[0]->type;
    LLVMValueRef base = emit_value(E, i->args[0]);
    LLVMValueRef a = i64v(E, emit_value(E, i->args[1]));
    LLVMValueRef idx = t->rank == 2 ? emit_tile_index(E, t, a, i64v(E, emit_value(E, i->args[2]))) : a;
    LLVMValueRef v = LLVMBuildLoad2(E->b, emit_elem_type(E, t), elem_ptr(E, t, base, idx), "");
    return t->elem == TK_TY_BOOL ? LLVMBuildICmp(E->b, LLVMIntNE, v, LLVMConstInt(E->i8, 0, 0), "") : v;
}

void emit_tile_set_elem(Emit *E, const TirInstr *i)
{
    const TirInstr *slot = i->args[0];
    const TkType *t = slot->type;
    LLVMValueRef v = emit_value(E, i->args[1]);
    LLVMValueRef a = i64v(E, emit_value(E, i->args[2]));
    LLVMValueRef idx = t->rank == 2 ? emit_tile_index(E, t, a, i64v(E, emit_value(E, i->args[3]))) : a;
    if (t->elem == TK_TY_BOOL) v = LLVMBuildZExt(E->b, v, E->i8, "");
    LLVMBuildStore(E->b, v, elem_ptr(E, t, emit_slot_ptr(E, slot), idx));
}
