/* cpu_mma_mmla.c — the AArch64 bfmmla micro-kernel (a row of cpu_mma.c's
 * table): 2×2 blocks of C per instruction, operands in TK_MMA_PACK_MMLA order. */
#include "cpu_mma_emit.h"

/* One register block of rp row pairs × cp column pairs of C at rows [i0, i0+2rp),
 * columns [j0, j0+2cp), operands in TK_MMA_PACK_MMLA order (cpu_mma.h). Each
 * accumulator is a 2×2 block of C as <4 x float> {c00, c01, c10, c11}; it is
 * gathered from / scattered to the two rows of acc around the K loop. Every
 * 4-deep k step loads rp 2×4 blocks of A and cp of Bᵀ and issues rp·cp bfmmla. */
static void mmla_block(TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, LLVMValueRef i0, LLVMValueRef j0,
                       int rp, int cp, int64_t n, int64_t kq)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(mb->ctx), i32 = LLVMInt32TypeInContext(mb->ctx);
    LLVMTypeRef bf = LLVMBFloatTypeInContext(mb->ctx);
    LLVMTypeRef v2f = LLVMVectorType(f32, 2), v4f = LLVMVectorType(f32, 4), v8b = LLVMVectorType(bf, 8);
    LLVMValueRef lane[4];
    for (int q = 0; q < 4; q++) lane[q] = LLVMConstInt(i32, (unsigned long long)q, 0);
    LLVMValueRef lo = LLVMConstVector(lane, 2), hi = LLVMConstVector(lane + 2, 2), all = LLVMConstVector(lane, 4);
    LLVMValueRef init[MAX_ACC], ptr[MAX_ACC][2];
    int nacc = rp * cp;
    for (int p = 0; p < rp; p++)
        for (int c = 0; c < cp; c++) {
            LLVMValueRef half[2];
            for (int h = 0; h < 2; h++) {
                LLVMValueRef row = LLVMBuildAdd(mb->b, i0, c64(mb, 2 * p + h), "");
                LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, c64(mb, n), ""),
                                                LLVMBuildAdd(mb->b, j0, c64(mb, 2 * c), ""), "");
                ptr[p * cp + c][h] = gep(mb, f32, acc, off);
                half[h] = LLVMBuildLoad2(mb->b, v2f, ptr[p * cp + c][h], "");
                LLVMSetAlignment(half[h], 4);
            }
            init[p * cp + c] = LLVMBuildShuffleVector(mb->b, half[0], half[1], all, "");
        }
    KLoop K;
    LLVMValueRef phis[MAX_ACC];
    kloop_begin(mb, &K, v4f, init, phis, nacc);
    kloop_test(mb, &K, kq);
    LLVMValueRef kk = K.kk;
    /* pair index = i0/2 + p (i0, j0 are even); block (pair, kk) starts at (pair·kq + kk)·8 */
    LLVMValueRef ip = LLVMBuildLShr(mb->b, i0, c64(mb, 1), ""), jp = LLVMBuildLShr(mb->b, j0, c64(mb, 1), "");
    LLVMValueRef av[MAX_ACC], bv[MAX_ACC];
    for (int p = 0; p < rp; p++) {
        LLVMValueRef blk = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildAdd(mb->b, ip, c64(mb, p), ""), c64(mb, kq), ""), kk, "");
        av[p] = LLVMBuildLoad2(mb->b, v8b, gep(mb, bf, a, LLVMBuildMul(mb->b, blk, c64(mb, 8), "")), "");
        LLVMSetAlignment(av[p], 2);
    }
    for (int c = 0; c < cp; c++) {
        LLVMValueRef blk = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildAdd(mb->b, jp, c64(mb, c), ""), c64(mb, kq), ""), kk, "");
        bv[c] = LLVMBuildLoad2(mb->b, v8b, gep(mb, bf, b, LLVMBuildMul(mb->b, blk, c64(mb, 8), "")), "");
        LLVMSetAlignment(bv[c], 2);
    }
    LLVMValueRef next[MAX_ACC];
    for (int p = 0; p < rp; p++)
        for (int c = 0; c < cp; c++) {
            LLVMValueRef args[3] = { phis[p * cp + c], av[p], bv[c] };
            next[p * cp + c] = call_intrinsic(mb, "llvm.aarch64.neon.bfmmla", NULL, 0, args, 3);
        }
    kloop_end(mb, &K, 1, next, phis, nacc);
    for (int q = 0; q < nacc; q++)
        for (int h = 0; h < 2; h++) {
            LLVMValueRef half = LLVMBuildShuffleVector(mb->b, phis[q], LLVMGetPoison(v4f), h ? hi : lo, "");
            LLVMValueRef s = LLVMBuildStore(mb->b, half, ptr[q][h]);
            LLVMSetAlignment(s, 4);
        }
}

/* Rows [i0, i0+2rp) across all columns: full register blocks of nr columns,
 * then the leftover column pairs one at a time. */
static void mmla_band(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, LLVMValueRef i0,
                      int rp, int64_t n, int64_t kq)
{
    int64_t n_full = n / k->nr * k->nr;
    if (n_full > 0) {
        Loop Lj;
        loop_begin(mb, &Lj, n_full, "mk.j");
        mmla_block(mb, acc, a, b, i0, Lj.idx, rp, k->nr / 2, n, kq);
        loop_end(mb, &Lj, k->nr);
    }
    for (int64_t j = n_full; j + 1 < n; j += 2) mmla_block(mb, acc, a, b, i0, c64(mb, j), rp, 1, n, kq);
}

/* acc (M×N) += A·B over 2×2 blocks: bands of mr rows, then one band of the
 * leftover row pairs. M and N must be even; they are multiples of 16 in
 * practice, so with an 8×8 register block nothing is left over. */
void tk_mma_bfmmla(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m, int64_t n,
                   int64_t kdim)
{
    int64_t kq = (kdim + 3) / 4;
    int64_t m_full = m / k->mr * k->mr;
    if (m_full > 0) {
        Loop Li;
        loop_begin(mb, &Li, m_full, "mk.i");
        mmla_band(k, mb, acc, a, b, Li.idx, k->mr / 2, n, kq);
        loop_end(mb, &Li, k->mr);
    }
    if (m - m_full >= 2) mmla_band(k, mb, acc, a, b, c64(mb, m_full), (int)((m - m_full) / 2), n, kq);
}
