/* cpu_mma_emit.h — what the CPU micro-kernel emitters share (cpu_mma.c: the
 * x86 and generic register blocks; cpu_mma_mmla.c: AArch64 bfmmla): counted
 * loops, GEPs and intrinsic calls on a TkMmaBuilder. Internal to intrinsics/. */
#ifndef TK_INTRINSICS_CPU_MMA_EMIT_H
#define TK_INTRINSICS_CPU_MMA_EMIT_H

#include <string.h>

#include "cpu_mma.h"

#define MAX_ACC 32   /* accumulator registers one register block may keep */

typedef struct {
    LLVMBasicBlockRef header, body, exit;
    LLVMValueRef idx;
} Loop;

static inline LLVMValueRef c64(TkMmaBuilder *mb, int64_t v) { return LLVMConstInt(LLVMInt64TypeInContext(mb->ctx), (unsigned long long)v, 1); }

/* for (idx = 0; idx < hi; idx++) with a run-time bound */
static inline void loop_begin_n(TkMmaBuilder *mb, Loop *L, LLVMValueRef hi, const char *name)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(mb->ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(mb->b);
    L->header = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, name);
    L->body = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.body");
    L->exit = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.done");
    LLVMBuildBr(mb->b, L->header);
    LLVMPositionBuilderAtEnd(mb->b, L->header);
    L->idx = LLVMBuildPhi(mb->b, i64, "");
    LLVMValueRef start = c64(mb, 0);
    LLVMAddIncoming(L->idx, &start, &pre, 1);
    LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntSLT, L->idx, hi, ""), L->body, L->exit);
    LLVMPositionBuilderAtEnd(mb->b, L->body);
}

/* for (idx = 0; idx < hi; idx++) */
static inline void loop_begin(TkMmaBuilder *mb, Loop *L, int64_t hi, const char *name)
{
    loop_begin_n(mb, L, c64(mb, hi), name);
}

static inline void loop_end(TkMmaBuilder *mb, Loop *L, int64_t step)
{
    LLVMValueRef next = LLVMBuildAdd(mb->b, L->idx, c64(mb, step), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(mb->b);
    LLVMAddIncoming(L->idx, &next, &latch, 1);
    LLVMBuildBr(mb->b, L->header);
    LLVMPositionBuilderAtEnd(mb->b, L->exit);
}

static inline LLVMValueRef gep(TkMmaBuilder *mb, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildGEP2(mb->b, t, base, &idx, 1, "");
}

static inline LLVMValueRef call_intrinsic(TkMmaBuilder *mb, const char *name, LLVMTypeRef *ov, unsigned nov, LLVMValueRef *args,
                                   unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(mb->mod, id, ov, nov);
    return LLVMBuildCall2(mb->b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
}

/* A data prefetch of the line at ptr (llvm.prefetch, cache kind data): for
 * writing or reading, with LLVM's locality 0 (none) … 3 (keep in every level). */
static inline void emit_prefetch(TkMmaBuilder *mb, LLVMValueRef ptr, bool for_write, int locality)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(mb->ctx);
    LLVMValueRef args[4] = { ptr, LLVMConstInt(i32, for_write, 0), LLVMConstInt(i32, (unsigned long long)locality, 0),
                             LLVMConstInt(i32, 1, 0) };
    LLVMTypeRef pt = LLVMTypeOf(ptr);
    call_intrinsic(mb, "llvm.prefetch", &pt, 1, args, 4);
}


/* The operands' default layouts, where the builder gives no stride: */

/* acc's row stride in elements: the builder's, or n (a tile of its own). */
static inline LLVMValueRef acc_stride(TkMmaBuilder *mb, int64_t n) { return mb->acc_stride ? mb->acc_stride : c64(mb, n); }

/* Where results are stored (mb->out, or acc itself), and its row stride. */
static inline LLVMValueRef out_ptr(TkMmaBuilder *mb, LLVMValueRef acc) { return mb->out ? mb->out : acc; }

static inline LLVMValueRef out_stride(TkMmaBuilder *mb, int64_t n) { return mb->out ? mb->out_stride : acc_stride(mb, n); }

/* B's panel stride in elements: the builder's, or a packed tile's 32·Kp
 * (ksteps k steps: f32 elements, or bf16 pairs). */
static inline LLVMValueRef panel_stride(TkMmaBuilder *mb, int64_t ksteps, bool bf16)
{
    return mb->b_panel_stride ? mb->b_panel_stride : c64(mb, TK_MMA_PANEL * ksteps * (bf16 ? 2 : 1));
}


/* The K loop of a register block, its accumulators held as phis:
 * kloop_begin opens it (the builder is left in its header, where the caller
 * may add phis of its own, then calls kloop_test to enter the body);
 * kloop_end closes it with each accumulator's next value and leaves the
 * builder after the loop, where phis[] hold the final values. */
typedef struct {
    LLVMBasicBlockRef pre, header, body, exit;
    LLVMValueRef kk;   /* the k step */
} KLoop;

static inline void kloop_begin(TkMmaBuilder *mb, KLoop *K, LLVMTypeRef vt, const LLVMValueRef *init, LLVMValueRef *phis, int nacc)
{
    K->pre = LLVMGetInsertBlock(mb->b);
    K->header = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.k");
    K->body = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.kbody");
    K->exit = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.kdone");
    LLVMBuildBr(mb->b, K->header);
    LLVMPositionBuilderAtEnd(mb->b, K->header);
    K->kk = LLVMBuildPhi(mb->b, LLVMInt64TypeInContext(mb->ctx), "k");
    LLVMValueRef zero = c64(mb, 0);
    LLVMAddIncoming(K->kk, &zero, &K->pre, 1);
    for (int q = 0; q < nacc; q++) {
        phis[q] = LLVMBuildPhi(mb->b, vt, "acc");
        LLVMAddIncoming(phis[q], (LLVMValueRef *)&init[q], &K->pre, 1);
    }
}

/* while (kk < kend) */
static inline void kloop_test(TkMmaBuilder *mb, KLoop *K, int64_t kend)
{
    LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntSLT, K->kk, c64(mb, kend), ""), K->body, K->exit);
    LLVMPositionBuilderAtEnd(mb->b, K->body);
}

static inline void kloop_end(TkMmaBuilder *mb, KLoop *K, int64_t step, LLVMValueRef *next, LLVMValueRef *phis, int nacc)
{
    LLVMValueRef knext = LLVMBuildAdd(mb->b, K->kk, c64(mb, step), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(mb->b);
    LLVMAddIncoming(K->kk, &knext, &latch, 1);
    for (int q = 0; q < nacc; q++) LLVMAddIncoming(phis[q], &next[q], &latch, 1);
    LLVMBuildBr(mb->b, K->header);
    LLVMPositionBuilderAtEnd(mb->b, K->exit);
}

/* The AArch64 bfmmla emitter (cpu_mma_mmla.c), a row of cpu_mma.c's table. */
void tk_mma_bfmmla(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m, int64_t n,
                   int64_t kdim);

/* The AMX emitter (cpu_mma_amx.c); it runs the vdpbf16ps row where the
 * shape does not fit its tiles. */
void tk_mma_amx(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m, int64_t n,
                int64_t kdim);

#endif
