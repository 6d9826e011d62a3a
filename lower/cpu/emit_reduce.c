/* emit_reduce.c — reductions on the CPU: row and column reductions of a tile
 * and whole-vector reductions, each fused with the element-wise DAG it ends
 * (`row_sum(exp(x - m))` is one loop), accumulated in vectors and folded in
 * a tree (emit_fuse.h for the fused DAGs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "emit_fuse.h"

/* One step of a reduction, marked reassociable: the language leaves the
 * order of a reduction unspecified, and without the flag LLVM keeps one
 * scalar chain (a 64-wide row sum then costs 64 dependent adds). */
static LLVMValueRef reduce_step(Emit *E, TirFn fn, LLVMValueRef acc, LLVMValueRef x)
{
    LLVMValueRef v = emit_fn(E, fn, acc, x, false);
    if (LLVMIsAInstruction(v)) LLVMSetFastMathFlags(v, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
    return v;
}

typedef struct {
    const TirInstr *red, *in;   /* the reduction and its input */
    LLVMValueRef src, out;      /* the input's tile (NULL when fused) and the result */
} ReduceLoop;

static void reduce_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ReduceLoop *c = ctx;
    const TirInstr *i = c->red, *in = c->in;
    const TkType *t = in->type, *vt = i->type;
    bool rows = i->imm == 0;
    int64_t n = rows ? t->dims[0] : t->dims[1], m = rows ? t->dims[1] : t->dims[0];
    double init = i->aux == TIR_FN_MAX ? -INFINITY : i->aux == TIR_FN_MIN ? INFINITY : 0.0;
    if (!rows) {
        /* column reductions walk the tile by rows with one running value per
         * column in an f32 buffer: the inner loop is then over contiguous
         * columns (row layout) and vectorises without reassociation */
        LLVMValueRef accs = emit_alloca(E, E->f32, n, "colacc");
        EmitLoop L0, Lr, Lc, L1;
        emit_loop_begin(E, &L0, emit_const_i64(E, n), "red.init");
        LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), LLVMBuildGEP2(E->b, E->f32, accs, &L0.idx, 1, ""));
        emit_loop_end(E, &L0);
        emit_loop_begin(E, &Lr, emit_const_i64(E, m), "red.row");
        emit_loop_begin(E, &Lc, emit_const_i64(E, n), "red.col");
        LLVMValueRef p = LLVMBuildGEP2(E->b, E->f32, accs, &Lc.idx, 1, "");
        LLVMValueRef x = !c->src ? fuse_node(E, in, Lr.idx, Lc.idx) : emit_ld(E, t, c->src, emit_tile_index(E, t, Lr.idx, Lc.idx));
        LLVMBuildStore(E->b, emit_fn(E, (TirFn)i->aux, LLVMBuildLoad2(E->b, E->f32, p, ""), x, false), p);
        emit_loop_end(E, &Lc);
        emit_loop_end(E, &Lr);
        emit_loop_begin(E, &L1, emit_const_i64(E, n), "red.out");
        emit_st(E, vt, c->out, L1.idx, LLVMBuildLoad2(E->b, E->f32, LLVMBuildGEP2(E->b, E->f32, accs, &L1.idx, 1, ""), ""));
        emit_loop_end(E, &L1);
        return;
    }
    EmitLoop Lo, Li;
    emit_loop_begin(E, &Lo, emit_const_i64(E, n), "red");
    LLVMValueRef acc_slot = emit_alloca(E, E->f32, 1, "acc");
    LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), acc_slot);
    emit_loop_begin(E, &Li, emit_const_i64(E, m), "red.in");
    LLVMValueRef x = !c->src ? fuse_node(E, in, Lo.idx, Li.idx) : emit_ld(E, t, c->src, emit_tile_index(E, t, Lo.idx, Li.idx));
    LLVMValueRef acc = LLVMBuildLoad2(E->b, E->f32, acc_slot, "");
    LLVMBuildStore(E->b, reduce_step(E, (TirFn)i->aux, acc, x), acc_slot);
    emit_loop_end(E, &Li);
    emit_st(E, vt, c->out, Lo.idx, LLVMBuildLoad2(E->b, E->f32, acc_slot, ""));
    emit_loop_end(E, &Lo);
}

/* Lanes 0 .. w−1 of vector v folded by fn into one scalar: halves combined
 * until one lane is left, an odd lane folded in at the end. */
static LLVMValueRef fold_lanes(Emit *E, TirFn fn, LLVMValueRef v, unsigned w)
{
    LLVMValueRef odd = NULL;
    while (w > 1) {
        unsigned h = w / 2;
        if (w % 2) {
            LLVMValueRef last = LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, w - 1, 0), "");
            odd = odd ? reduce_step(E, fn, odd, last) : last;
        }
        if (h == 1) {
            v = reduce_step(E, fn, LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 0, 0), ""),
                            LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 1, 0), ""));
            w = 0;
            break;
        }
        LLVMValueRef lo[32], hi[32];
        for (unsigned k = 0; k < h; k++) {
            lo[k] = LLVMConstInt(E->i32, k, 0);
            hi[k] = LLVMConstInt(E->i32, h + k, 0);
        }
        LLVMValueRef undef = LLVMGetUndef(LLVMTypeOf(v));
        v = reduce_step(E, fn, LLVMBuildShuffleVector(E->b, v, undef, LLVMConstVector(lo, h), ""),
                        LLVMBuildShuffleVector(E->b, v, undef, LLVMConstVector(hi, h), ""));
        w = h;
    }
    if (w == 1) v = LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 0, 0), "");
    return odd ? reduce_step(E, fn, v, odd) : v;
}

/* row_sum/row_max/row_min of a vector (imm 2): its elements folded into one
 * f32, stored at c->out. In lanes: up to four vector accumulators (separate
 * dependency chains), joined, then folded across the lanes once. */
static void reduce_all_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ReduceLoop *c = ctx;
    const TirInstr *i = c->red, *in = c->in;
    TirFn fn = (TirFn)i->aux;
    int64_t m = in->type->dims[0];
    unsigned n = c->src ? emit_lanes_for(in->type) : fuse_root_lanes(E, in, in->type);
    if (n > 32 || (c->src && in->pack != TIR_PACK_NONE)) n = 0;
    if (n > 1) {
        LLVMValueRef acc[4] = { NULL }, tail = NULL;
        int64_t full = m / n * n;
        for (int64_t j = 0, k = 0; j < full; j += n, k++) {
            E->fuse_lanes = n;
            LLVMValueRef v = fuse_elem(E, in, emit_const_i64(E, 0), emit_const_i64(E, j));
            acc[k % 4] = acc[k % 4] ? reduce_step(E, fn, acc[k % 4], v) : v;
        }
        for (int64_t j = full; j < m; j++) {   /* a ragged end: element by element */
            E->fuse_lanes = 0;
            LLVMValueRef v = fuse_elem(E, in, emit_const_i64(E, 0), emit_const_i64(E, j));
            tail = tail ? reduce_step(E, fn, tail, v) : v;
        }
        E->fuse_lanes = 0;
        LLVMValueRef r = NULL;
        if (acc[0]) {
            LLVMValueRef v = acc[0];
            if (acc[1]) v = reduce_step(E, fn, v, acc[1]);
            if (acc[2]) v = reduce_step(E, fn, v, acc[3] ? reduce_step(E, fn, acc[2], acc[3]) : acc[2]);
            r = fold_lanes(E, fn, v, n);
        }
        r = r && tail ? reduce_step(E, fn, r, tail) : r ? r : tail;
        LLVMBuildStore(E->b, r, c->out);
        return;
    }
    double init = fn == TIR_FN_MAX ? -INFINITY : fn == TIR_FN_MIN ? INFINITY : 0.0;
    LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), c->out);
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, m), "red.all");
    LLVMValueRef x = fuse_elem(E, in, emit_const_i64(E, 0), L.idx);
    LLVMBuildStore(E->b, reduce_step(E, fn, LLVMBuildLoad2(E->b, E->f32, c->out, ""), x), c->out);
    emit_loop_end(E, &L);
}

LLVMValueRef emit_reduce(Emit *E, const TirInstr *i)
{
    const TirInstr *in = i->args[0];
    bool fused = emit_fused_into_user(E, in);
    if (i->imm == 2) {   /* a vector → one value of the vector's element type, rounded once */
        if (fused) fuse_prepare(E, in);
        ReduceLoop c = { i, in, fused ? NULL : emit_value(E, in), emit_alloca(E, E->f32, 1, "red.all") };
        if (fused) fuse_run(E, NULL, reduce_all_loop, &c);
        else reduce_all_loop(E, &c, false);
        LLVMValueRef r = LLVMBuildLoad2(E->b, E->f32, c.out, "");
        return i->type->kind == TK_TY_F32 ? r : emit_convert_scalar(E, r, TK_TY_F32, i->type->kind);
    }
    if (fused) fuse_prepare(E, in);
    ReduceLoop c = { i, in, fused ? NULL : emit_value(E, in), emit_temp_buffer(E, i) };
    if (fused) fuse_run(E, NULL, reduce_loop, &c);
    else reduce_loop(E, &c, false);
    return c.out;
}

