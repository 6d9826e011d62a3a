/* emit_mma.c — mma on the CPU: copies the operands into the canonical layouts
 * of a micro-kernel row of intrinsics/cpu_mma.c (or uses them in place: an A
 * already row-major, a B loaded in the micro-kernel's packing or viewed in a
 * packed tensor) and lets the row emit its register-blocked loops; without a
 * row, a portable dot-product loop. Also the two callbacks the TIR passes use
 * to ask which row an mma gets (legalise) and which packing a B wants (layout). */
#include <stdio.h>

#include "cpu_mma.h"
#include "emit.h"
#include "emit_gl.h"
#include "llvm_emit.h"
#include "tir_layout.h"

/* Operand `which` of an mma. The accumulator is updated block by block while
 * the operands are still being read, so an operand that is the accumulator
 * itself (acc += acc·B) is copied first. */
static LLVMValueRef mma_operand(Emit *E, const TirInstr *i, int which)
{
    const TirInstr *op = i->args[which];
    LLVMValueRef v = emit_value(E, op);
    if (op->op == TIR_GET && op->args[0] == i->args[0]) {
        LLVMValueRef copy = emit_alloca(E, emit_elem_type(E, op->type), emit_tile_elems(op->type), "mma.alias");
        emit_tile_copy(E, copy, v, op->type);
        return copy;
    }
    return v;
}

/* mma_micro for a TK_MMA_PACK_MMLA row (cpu_mma.h): A as 2×4 blocks
 * [M/2][Kq/4][2][4], B as 2×4 blocks of Bᵀ [N/2][Kq/4][2][4], bf16, with K
 * zero-padded to Kq, a multiple of 4. */
static void mma_micro_mmla(Emit *E, const TirInstr *i, const TkMmaKernel *k)
{
    const TirInstr *acc = i->args[0];
    const TkType *ta = acc->type, *tA = i->args[1]->type, *tB = i->args[2]->type;
    bool at = i->aux == 2 || i->aux == 3, bt = i->aux == 1 || i->aux == 3;
    int64_t M = ta->dims[0], N = ta->dims[1], K = at ? tA->dims[0] : tA->dims[1];
    int64_t Kq = (K + 3) / 4 * 4;
    LLVMValueRef A = mma_operand(E, i, 1), B = mma_operand(E, i, 2);
    TkType ca = { .kind = TK_TY_RT, .elem = TK_TY_BF16, .rank = 2, .dims = { M, Kq }, .layout = TK_ROW };
    TkType cb = { .kind = TK_TY_RT, .elem = TK_TY_BF16, .rank = 2, .dims = { N, Kq }, .layout = TK_ROW };
    LLVMValueRef Ab = emit_alloca(E, emit_elem_type(E, &ca), M * Kq, "mma.a");
    LLVMValueRef Bb = emit_alloca(E, emit_elem_type(E, &cb), N * Kq, "mma.b");
    if (Kq != K) {
        emit_tile_zero(E, Ab, &ca);
        emit_tile_zero(E, Bb, &cb);
    }
    /* X(r, kk) → buf[((r/2)·(Kq/4) + kk/4)·8 + (r%2)·4 + kk%4], r a row of A or a column of B */
    for (int which = 0; which < 2; which++) {
        const TkType *t = which ? tB : tA;
        LLVMValueRef src_base = which ? B : A, dst_base = which ? Bb : Ab;
        EmitLoop Lr, Lk;
        emit_loop_begin(E, &Lr, emit_const_i64(E, which ? N : M), "pack.r");
        emit_loop_begin(E, &Lk, emit_const_i64(E, K), "pack.k");
        LLVMValueRef r = Lr.idx, kk = Lk.idx, src;
        if (which) src = bt ? emit_tile_index(E, t, r, kk) : emit_tile_index(E, t, kk, r);
        else src = at ? emit_tile_index(E, t, kk, r) : emit_tile_index(E, t, r, kk);
        LLVMValueRef one = emit_const_i64(E, 1), two = emit_const_i64(E, 2), three = emit_const_i64(E, 3);
        LLVMValueRef blk = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildLShr(E->b, r, one, ""), emit_const_i64(E, Kq / 4), ""),
                                        LLVMBuildLShr(E->b, kk, two, ""), "");
        LLVMValueRef dst = LLVMBuildAdd(E->b, LLVMBuildShl(E->b, blk, emit_const_i64(E, 3), ""),
                                        LLVMBuildAdd(E->b, LLVMBuildShl(E->b, LLVMBuildAnd(E->b, r, one, ""), two, ""),
                                                     LLVMBuildAnd(E->b, kk, three, ""), ""), "");
        if (t->elem == TK_TY_BF16) emit_copy_elem(E, &ca, dst_base, dst, src_base, src);
        else emit_st(E, &ca, dst_base, dst, emit_ld(E, t, src_base, src));
        emit_loop_end(E, &Lk);
        emit_loop_end(E, &Lr);
    }
    TkMmaBuilder mb = { .ctx = E->ctx, .mod = E->mod, .b = E->b, .fn = E->fn };
    k->emit(k, &mb, emit_slot_ptr(E, acc), Ab, Bb, M, N, K);
}

/* Copies A and B into the canonical operands of micro-kernel k (cpu_mma.h),
 * converting element types, then lets k emit the register-blocked loops. */
static void mma_micro(Emit *E, const TirInstr *i, const TkMmaKernel *k)
{
    if (k->pack == TK_MMA_PACK_MMLA) {
        mma_micro_mmla(E, i, k);
        return;
    }
    const TirInstr *acc = i->args[0];
    const TkType *ta = acc->type, *tA = i->args[1]->type, *tB = i->args[2]->type;
    bool at = i->aux == 2 || i->aux == 3, bt = i->aux == 1 || i->aux == 3;
    int64_t M = ta->dims[0], N = ta->dims[1], K = at ? tA->dims[0] : tA->dims[1];
    bool bf16 = k->operand == TK_TY_BF16;
    int64_t Kp = bf16 ? (K + 1) / 2 * 2 : K;
    LLVMValueRef A = mma_operand(E, i, 1), B = mma_operand(E, i, 2);
    TkMmaBuilder mb = { .ctx = E->ctx, .mod = E->mod, .b = E->b, .fn = E->fn };
    /* an output view (emit_outview.c) may live in C */
    LLVMValueRef C = emit_is_outview(E, acc) ? emit_outview_mma_begin(E, acc, &mb) : emit_slot_ptr(E, acc);
    LLVMValueRef zero = emit_mma_acc_zero(E, i);   /* its zero fill was left to it (emit_lazyzero.c) */
    if (zero) mb.acc_zero = zero;
    TkType ca = { .kind = TK_TY_RT, .elem = bf16 ? TK_TY_BF16 : TK_TY_F32, .rank = 2, .dims = { M, Kp }, .layout = TK_ROW };
    LLVMValueRef Ab = NULL;
    LLVMValueRef Bb = emit_alloca(E, emit_elem_type(E, &ca), Kp * N, "mma.b");
    if (!(!at && tA->layout == TK_ROW && tA->elem == ca.elem && Kp == K)) Ab = emit_alloca(E, emit_elem_type(E, &ca), M * Kp, "mma.a");
    if (Kp != K) {
        TkType cb = ca;
        cb.dims[0] = Kp;
        cb.dims[1] = N;
        emit_tile_zero(E, Ab, &ca);   /* the padding k of each pair must be zero */
        emit_tile_zero(E, Bb, &cb);
    }
    /* A(r, kk) → Ab[r][kk]; a row-layout A of the kernel's element type with
     * no padding already is that buffer */
    bool a_canonical = !at && tA->layout == TK_ROW && tA->elem == ca.elem && Kp == K;
    if (a_canonical) {
        Ab = A;
        const TirInstr *ai = i->args[1];   /* a row view: A in place, rows its tensor's width apart */
        if (ai->op == TIR_GET && emit_view_kind(E, ai->args[0]) == EMIT_VIEW_ROWS) mb.a_stride = emit_view_stride(E, ai->args[0]);
    } else {
        EmitLoop Lr, Lk;
        emit_loop_begin(E, &Lr, emit_const_i64(E, M), "pack.a");
        emit_loop_begin(E, &Lk, emit_const_i64(E, K), "pack.ak");
        LLVMValueRef src = at ? emit_tile_index(E, tA, Lk.idx, Lr.idx) : emit_tile_index(E, tA, Lr.idx, Lk.idx);
        LLVMValueRef dst = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, Lr.idx, emit_const_i64(E, Kp), ""), Lk.idx, "");
        if (tA->elem == ca.elem) emit_copy_elem(E, &ca, Ab, dst, A, src);
        else emit_st(E, &ca, Ab, dst, emit_ld(E, tA, A, src));
        emit_loop_end(E, &Lk);
        emit_loop_end(E, &Lr);
    }
    LLVMValueRef src, dst;
    /* B(kk, c) → Bb in the panels of cpu_mma.h — unless the load already
     * wrote it that way (tir_layout.c), or B is a view into a packed tensor */
    const TirInstr *bi = i->args[2];
    TirPack have = bi->op == TIR_LOAD ? (TirPack)bi->pack : bi->op == TIR_GET ? (TirPack)bi->args[0]->pack : TIR_PACK_NONE;
    TirPack want = bf16 ? (bt ? TIR_PACK_VNNI_NK : TIR_PACK_VNNI_KN) : (bt ? TIR_PACK_ROWS_NK : TIR_PACK_ROWS_KN);
    if (have != TIR_PACK_NONE && have == want && Kp == K && tB->elem == ca.elem) {
        int kind = bi->op == TIR_GET ? emit_view_kind(E, bi->args[0]) : 0;
        if (kind == EMIT_VIEW_PACKED) mb.b_panel_stride = emit_view_stride(E, bi->args[0]);
        if (kind == EMIT_VIEW_ROWS_B) {   /* row-major B in place (or its own row-major tile): panels 32 apart */
            mb.b_panel_stride = emit_const_i64(E, TK_MMA_PANEL);
            mb.b_row_stride = emit_view_stride(E, bi->args[0]);
        }
        k->emit(k, &mb, C, Ab, B, M, N, K);
        if (emit_is_outview(E, acc)) emit_outview_mma_end(E, acc, &mb);
        emit_mma_acc_written(E, i);
        return;
    }
    /* B(kk, c) at c·K + kk (a col tile, or the row tile of mma_abt): its
     * columns are runs of K elements, transposed into the panels 16×16 words
     * at a time (element by element this was a gather and a scatter per 16) */
    bool b_by_col = bt ? tB->layout == TK_ROW : tB->layout == TK_COL;
    /* bf16: a column's k pairs are its consecutive 32-bit words, and the
     * VNNI panels hold those words the way f32 panels hold elements */
    int64_t kw = bf16 ? K / 2 : K;   /* 32-bit words per column */
    if (b_by_col && tB->kind == TK_TY_RT && tB->elem == ca.elem && Kp == K && kw % 16 == 0 && N % 16 == 0 &&
        (bf16 ? tB->elem == TK_TY_BF16 : tB->elem == TK_TY_F32)) {
        EmitPanelRuns pr = { N, kw };
        emit_transpose_words(E, 32, B, emit_const_i64(E, 0), emit_const_i64(E, kw), Bb, emit_panel_run, &pr, N, kw);
        k->emit(k, &mb, C, Ab, Bb, M, N, K);
        if (emit_is_outview(E, acc)) emit_outview_mma_end(E, acc, &mb);
        emit_mma_acc_written(E, i);
        return;
    }
    EmitLoop Lb, Lc;
    emit_loop_begin(E, &Lb, emit_const_i64(E, K), "pack.b");
    emit_loop_begin(E, &Lc, emit_const_i64(E, N), "pack.bn");
    src = bt ? emit_tile_index(E, tB, Lc.idx, Lb.idx) : emit_tile_index(E, tB, Lb.idx, Lc.idx);
    dst = tk_mma_b_offset(E->b, Lb.idx, Lc.idx, N, emit_const_i64(E, TK_MMA_PANEL * Kp), bf16);
    if (tB->elem == ca.elem) emit_copy_elem(E, &ca, Bb, dst, B, src);
    else emit_st(E, &ca, Bb, dst, emit_ld(E, tB, B, src));
    emit_loop_end(E, &Lc);
    emit_loop_end(E, &Lb);
    k->emit(k, &mb, C, Ab, Bb, M, N, K);
    if (emit_is_outview(E, acc)) emit_outview_mma_end(E, acc, &mb);
    emit_mma_acc_written(E, i);
}

int emit_select_mma(void *features, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const TkType *acc = mma->args[0]->type, *tA = mma->args[1]->type, *tB = mma->args[2]->type;
    TkTypeKind op = tA->elem == TK_TY_BF16 && tB->elem == TK_TY_BF16 ? TK_TY_BF16 : TK_TY_F32;
    const TkMmaKernel *k = tk_cpu_mma_select(features, op);
    /* the register block must tile the accumulator (M by rows, N by vectors) */
    if (k && (acc->layout != TK_ROW || acc->elem != TK_TY_F32 || acc->dims[0] % k->mr != 0 || acc->dims[1] % k->vec != 0)) k = NULL;
    *row = k;
    *name = k ? k->name : "portable";
    return 0;   /* the CPU always has the portable loop */
}

TirPack emit_choose_pack(void *features, TkTypeKind elem)
{
    const TkMmaKernel *k = tk_cpu_mma_select(features, elem == TK_TY_BF16 ? TK_TY_BF16 : TK_TY_F32);
    if (!k || k->pack != TK_MMA_PACK_ROWS) return TIR_PACK_NONE;
    if (k->operand == TK_TY_BF16 && elem == TK_TY_BF16) return TIR_PACK_VNNI_KN;
    if (k->operand == TK_TY_F32 && elem == TK_TY_F32) return TIR_PACK_ROWS_KN;
    return TIR_PACK_NONE;
}

/* acc[i][j] += Σ_k A(i,k)·B(k,j). With a micro-kernel for the target this is
 * register-blocked; otherwise one dot product per element in k order (the
 * portable path). */
const TkMmaKernel *emit_mma_kernel(const Emit *E, const TirInstr *mma)
{
    /* legalise chose the base operation; without it (no passes run) choose here */
    if (mma->base_name) return mma->base_op;
    const void *row = NULL;
    const char *name;
    emit_select_mma((void *)E->features, mma, &row, &name, NULL, 0);
    return row;
}

void emit_tile_mma(Emit *E, const TirInstr *i)
{
    const TkMmaKernel *k = emit_mma_kernel(E, i);
    if (k) {
        mma_micro(E, i, k);
        return;
    }
    const TirInstr *acc = i->args[0];
    const TkType *ta = acc->type, *tA = i->args[1]->type, *tB = i->args[2]->type;
    bool at = i->aux == 2 || i->aux == 3, bt = i->aux == 1 || i->aux == 3;
    int64_t M = ta->dims[0], N = ta->dims[1], K = at ? tA->dims[0] : tA->dims[1];
    LLVMValueRef A = mma_operand(E, i, 1), B = mma_operand(E, i, 2);
    LLVMValueRef C = emit_slot_ptr(E, acc);
    EmitLoop Li, Lj, Lk;
    emit_loop_begin(E, &Li, emit_const_i64(E, M), "mma.i");
    emit_loop_begin(E, &Lj, emit_const_i64(E, N), "mma.j");
    LLVMValueRef ci = emit_tile_index(E, ta, Li.idx, Lj.idx);
    LLVMValueRef sum_slot = emit_alloca(E, E->f32, 1, "sum");
    LLVMBuildStore(E->b, emit_ld(E, ta, C, ci), sum_slot);
    emit_loop_begin(E, &Lk, emit_const_i64(E, K), "mma.k");
    LLVMValueRef ai = at ? emit_tile_index(E, tA, Lk.idx, Li.idx) : emit_tile_index(E, tA, Li.idx, Lk.idx);
    LLVMValueRef bi = bt ? emit_tile_index(E, tB, Lj.idx, Lk.idx) : emit_tile_index(E, tB, Lk.idx, Lj.idx);
    LLVMValueRef args[3] = { emit_ld(E, tA, A, ai), emit_ld(E, tB, B, bi), LLVMBuildLoad2(E->b, E->f32, sum_slot, "") };
    LLVMBuildStore(E->b, emit_intrinsic(E, "llvm.fmuladd", &E->f32, 1, args, 3), sum_slot);
    emit_loop_end(E, &Lk);
    emit_st(E, ta, C, ci, LLVMBuildLoad2(E->b, E->f32, sum_slot, ""));
    emit_loop_end(E, &Lj);
    emit_loop_end(E, &Li);
}
