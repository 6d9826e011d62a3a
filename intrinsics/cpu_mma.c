/* cpu_mma.c — see cpu_mma.h. */
#include "cpu_mma.h"
#include "cpu_mma_emit.h"

#include <stdio.h>
#include <string.h>

static void mma_fma(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                    int64_t n, int64_t kdim);
static void mma_dpbf16(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                       int64_t n, int64_t kdim);

static void mma_generic(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                        int64_t n, int64_t kdim);

static const TkMmaKernel table[] = {
    /* name                  features        operand      mr nr vec  meaning / emitter */
    /* mr/nr/vec: the register block of the vdpbf16ps kernel it falls back to (K not a multiple of 32) */
    { "x86.amx.tdpbf16ps", "+amx-bf16,+amx-tile,+avx512bf16,+avx512f", TK_TY_BF16, 8, 32, 16,
      "AMX tdpbf16ps: 16×16 f32 += 16×32 · 32×16 bf16 per instruction; 2×2 tiles of C (cpu_mma_amx.c)", tk_mma_amx,
      TK_MMA_PACK_ROWS },
    { "x86.avx512bf16.dpbf16ps", "+avx512bf16,+avx512f", TK_TY_BF16, 8, 32, 16,
      "vdpbf16ps zmm: 16 lanes × 2 bf16 products per k pair, f32 accumulate; 16 accumulators", mma_dpbf16,
      TK_MMA_PACK_ROWS },
    { "x86.avx512f.fma",     "+avx512f",     TK_TY_F32,   8, 32, 16,
      "vfmadd231ps zmm with a broadcast of A; 16 accumulators", mma_fma, TK_MMA_PACK_ROWS },
    { "x86.avx2.fma",        "+avx2,+fma",   TK_TY_F32,   4, 16,  8,
      "vfmadd231ps ymm with a broadcast of A; 8 accumulators", mma_fma, TK_MMA_PACK_ROWS },
    { "aarch64.neon.bfmmla", "+neon,+bf16",  TK_TY_BF16,  8,  8,  4,
      "bfmmla v.4s: a 2×2 f32 block += 2×4 · (4×2) bf16 per instruction; 16 accumulators (8×8 of C)", tk_mma_bfmmla,
      TK_MMA_PACK_MMLA },
    { "aarch64.neon.fmla",   "+neon",        TK_TY_F32,   4, 16,  4,
      "fmla v.4s by element broadcast; 16 accumulators", mma_fma, TK_MMA_PACK_ROWS },
    /* any target: LLVM's generic <4 x float> vectors with fmuladd (a fused FMA
     * where the target has one, multiply + add where it does not) */
    { "generic.vector",      "",             TK_TY_F32,   4, 16,  4,
      "<4 x float> fmuladd with a broadcast of A: the generic vector fallback", mma_generic, TK_MMA_PACK_ROWS },
};

const TkMmaKernel *tk_cpu_mma_table(unsigned *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

const TkMmaKernel *tk_cpu_mma_find(const char *name)
{
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

bool tk_features_include(const char *have, const char *need)
{
    for (const char *p = need; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 1 && p[0] == '+') {   /* a whole item of `have` must match */
            bool found = false;
            for (const char *h = have; h && *h && !found;) {
                const char *he = strchr(h, ',');
                size_t hl = he ? (size_t)(he - h) : strlen(h);
                found = hl == len && strncmp(h, p, len) == 0;
                h = he ? he + 1 : NULL;
            }
            if (!found) return false;
        }
        p = e ? e + 1 : NULL;
    }
    return true;
}

const TkMmaKernel *tk_cpu_mma_select(const char *target_features, TkTypeKind operand)
{
    if (!target_features) return NULL;
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
        const TkMmaKernel *k = &table[i];
        if (k->operand == TK_TY_BF16 && operand != TK_TY_BF16) continue;
        if (tk_features_include(target_features, k->features)) return k;
    }
    return NULL;
}

#define SKINNY_ROWS 16   /* accumulators of at most this many rows use 2-row blocks */

/* <n x T> with every lane x (insertelement + a zero shuffle mask: one vpbroadcast). */
static LLVMValueRef splat(TkMmaBuilder *mb, unsigned n, LLVMValueRef x)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), n);
    LLVMValueRef v = LLVMBuildInsertElement(mb->b, LLVMGetPoison(vt), x, LLVMConstInt(LLVMInt32TypeInContext(mb->ctx), 0, 0), "");
    LLVMValueRef mask = LLVMConstNull(LLVMVectorType(LLVMInt32TypeInContext(mb->ctx), n));
    return LLVMBuildShuffleVector(mb->b, v, LLVMGetPoison(vt), mask, "");
}

LLVMValueRef tk_mma_b_offset(LLVMBuilderRef b, LLVMValueRef k, LLVMValueRef col, int64_t n, LLVMValueRef stride, bool pairs)
{
    LLVMTypeRef i64 = LLVMTypeOf(col);
    LLVMValueRef panel = LLVMBuildUDiv(b, col, LLVMConstInt(i64, TK_MMA_PANEL, 0), "");
    LLVMValueRef within = LLVMBuildURem(b, col, LLVMConstInt(i64, TK_MMA_PANEL, 0), "");
    LLVMValueRef first = LLVMBuildMul(b, panel, LLVMConstInt(i64, TK_MMA_PANEL, 0), "");
    LLVMValueRef left = LLVMBuildSub(b, LLVMConstInt(i64, (unsigned long long)n, 0), first, "");
    LLVMValueRef w = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, left, LLVMConstInt(i64, TK_MMA_PANEL, 0), ""), left,
                                     LLVMConstInt(i64, TK_MMA_PANEL, 0), "");
    LLVMValueRef base = LLVMBuildMul(b, panel, stride, "");
    if (!pairs) return LLVMBuildAdd(b, base, LLVMBuildAdd(b, LLVMBuildMul(b, k, w, ""), within, ""), "");
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef row = LLVMBuildMul(b, LLVMBuildLShr(b, k, one, ""), LLVMBuildShl(b, w, one, ""), "");
    return LLVMBuildAdd(b, base, LLVMBuildAdd(b, row, LLVMBuildAdd(b, LLVMBuildShl(b, within, one, ""), LLVMBuildAnd(b, k, one, ""), ""), ""), "");
}

/* Word kk of A's row `row` (an f32 element, or the bf16 pair 2kk, 2kk+1):
 * rows ksteps words apart in a tile of its own, a_stride elements apart when
 * A is read in place (then a bf16 row may start at an odd element). */
static LLVMValueRef a_word(TkMmaBuilder *mb, LLVMValueRef a, LLVMValueRef row, LLVMValueRef kk, int64_t ksteps, bool bf16)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(mb->ctx);
    if (!mb->a_stride) {
        LLVMTypeRef word = bf16 ? LLVMInt32TypeInContext(mb->ctx) : f32;
        return gep(mb, word, a, LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, c64(mb, ksteps), ""), kk, ""));
    }
    LLVMTypeRef et = bf16 ? LLVMBFloatTypeInContext(mb->ctx) : f32;
    LLVMValueRef col = bf16 ? LLVMBuildShl(mb->b, kk, c64(mb, 1), "") : kk;
    return gep(mb, et, a, LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, mb->a_stride, ""), col, ""));
}

/* Element offset of B(krow, col): tk_mma_b_offset, or with the builder's
 * b_row_stride, panel·S + krow·b_row_stride + col%32 (f32 rows in place). */
static LLVMValueRef b_offset(TkMmaBuilder *mb, LLVMValueRef krow, LLVMValueRef col, int64_t n, LLVMValueRef stride, bool bf16)
{
    if (!mb->b_row_stride || bf16) return tk_mma_b_offset(mb->b, krow, col, n, stride, bf16);
    LLVMValueRef panel = LLVMBuildUDiv(mb->b, col, c64(mb, TK_MMA_PANEL), "");
    LLVMValueRef within = LLVMBuildURem(mb->b, col, c64(mb, TK_MMA_PANEL), "");
    return LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, panel, stride, ""),
                        LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, krow, mb->b_row_stride, ""), within, ""), "");
}

/* Watching B for inf/NaN as it streams: each element's exponent bits are
 * kept in a running unsigned max, lane by lane (16-bit lanes for bf16, 32-bit
 * for f32), and an element was inf or NaN if the max equals the exponent mask
 * (all ones) at the end. Two vector ops per vector of B; comparing each
 * vector into mask registers instead (two compares and an OR per half) was 15
 * mask-register ops per iteration of a decode block, which then ran at ~18
 * cycles per 256 bytes even from L2. */
static LLVMTypeRef exponent_lanes_type(TkMmaBuilder *mb, int vec, bool bf16)
{
    return bf16 ? LLVMVectorType(LLVMInt16TypeInContext(mb->ctx), (unsigned)(2 * vec))
                : LLVMVectorType(LLVMInt32TypeInContext(mb->ctx), (unsigned)vec);
}

static LLVMValueRef exponent_mask(TkMmaBuilder *mb, int vec, bool bf16)
{
    LLVMTypeRef et = bf16 ? LLVMInt16TypeInContext(mb->ctx) : LLVMInt32TypeInContext(mb->ctx);
    return splat(mb, (unsigned)(bf16 ? 2 * vec : vec), LLVMConstInt(et, bf16 ? 0x7f80u : 0x7f800000u, 0));
}

/* seen = umax(seen, exponent bits of the vector w) */
static LLVMValueRef note_exponents(TkMmaBuilder *mb, LLVMValueRef seen, LLVMValueRef w, int vec, bool bf16)
{
    LLVMTypeRef vt = exponent_lanes_type(mb, vec, bf16);
    LLVMValueRef bits = LLVMBuildAnd(mb->b, LLVMBuildBitCast(mb->b, w, vt, ""), exponent_mask(mb, vec, bf16), "");
    LLVMValueRef args[2] = { seen, bits };
    return call_intrinsic(mb, "llvm.umax", &vt, 1, args, 2);
}

/* Software prefetch of the next column strip of B during the k loop. Each k
 * step of a 32-column panel is 128 bytes (32 f32, or 32 bf16 pairs): two
 * lines. In a full-height block (8 rows × one panel) row block i0/mr fetches
 * its half (by parity) of the same k step one panel to the right, so the next
 * strip is in cache before its first row block runs. Weights streamed from
 * DRAM stalled the first row block of every strip: 32×4096×4096 bf16 on one
 * thread went from 6.2 to 5.2 ms, FFN T512 D1024 from 45.7 to 44.0 ms; 1024³
 * is unchanged (the full-height f32 blocks too: 32×11008×4096 27–29 against
 * 30–31 ms). All of a row block's share up front, before its k loop,
 * measured 5% slower at M = 32: it crowds the block's own loads. Past B's
 * end a prefetch is harmless (it never faults).
 * Not for the 2-row blocks of a decode step: one panel wide, two k steps per
 * iteration, they stream their panel sequentially and fetch their own
 * stream ahead (prefetch_ahead). Their earlier form, two panels wide, gained
 * from fetching the next two panels (bf16 1×11008×4096: 4.3–4.6 ms with,
 * 4.7–5.4 without) but lost with f32 (1×8192×8192: 11.3–11.8 ms without,
 * 13.6–14.8 with).
 * Nor for a B read in place from a row-major tensor (b_row_stride), whose
 * next strip is the other half of the same rows: 64³ f32 5.12 → 4.85 µs,
 * a 1024³ gemm_f32 24.0 → 22.0 ms without. */
#define PREFETCH_MIN_KSTEPS 64

static void prefetch_next_strip(TkMmaBuilder *mb, LLVMValueRef b, LLVMValueRef i0, LLVMValueRef j0, LLVMValueRef kk, int mr, int64_t nr,
                                int64_t n, int64_t ksteps, bool bf16)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx);
    LLVMTypeRef et = bf16 ? LLVMBFloatTypeInContext(mb->ctx) : LLVMFloatTypeInContext(mb->ctx);
    LLVMValueRef krow = bf16 ? LLVMBuildShl(mb->b, kk, c64(mb, 1), "") : kk;
    LLVMValueRef parity = LLVMBuildAnd(mb->b, LLVMBuildSDiv(mb->b, i0, c64(mb, mr), ""), c64(mb, 1), "");
    LLVMValueRef col = LLVMBuildAdd(mb->b, j0, c64(mb, nr), "");
    /* n + nr: the panel to the right is a whole one even past B's last column */
    LLVMValueRef row = gep(mb, et, b, b_offset(mb, krow, col, n + nr, panel_stride(mb, ksteps, bf16), bf16));
    LLVMValueRef half = LLVMBuildMul(mb->b, parity, c64(mb, 64), "");
    emit_prefetch(mb, gep(mb, i8, row, half), false, 2);
}

/* Software prefetch for the 2-row blocks of a decode step (ku = 2). Each
 * iteration reads 256 bytes of its panel (two k steps of 128), and the
 * stream runs on through the next panel and the next K step's plane, which
 * lie right after it in packed weights: fetch the 4 lines this far ahead.
 * On the 2-core Zen 5 VM of 2026-12-02 (weights on huge pages) the stream
 * alone read ~27 GB/s (a prefetching read loop: 41–46); with the prefetch, cold
 * 1×11008×4096 steps on one thread went from 3.16 to 2.52 ms (bf16) and
 * 5.3 to 5.0 ms (f32), bf16 1×8192×8192 from 4.9 to 3.8 ms, and on two
 * threads bf16 1×11008×4096 from 2.4 to 2.0 ms. 4–8 KiB ahead were within
 * noise of each other; bf16 did best at 6 KiB, f32 at 4 KiB. (A C model on
 * an earlier VM had found the opposite, 10–15% lost to a prefetch 1–8 KiB
 * ahead; the 4 KiB pages it ran on may be why: a hardware prefetcher stops at
 * each page's end, which a huge page moves 2 MiB away.) */
#define DECODE_PREFETCH_BF16 6144
#define DECODE_PREFETCH_F32 4096

static void prefetch_ahead(TkMmaBuilder *mb, LLVMValueRef b, LLVMValueRef j0, LLVMValueRef kk, int64_t n, LLVMValueRef stride,
                           bool bf16, int bytes)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx);
    LLVMTypeRef et = bf16 ? LLVMBFloatTypeInContext(mb->ctx) : LLVMFloatTypeInContext(mb->ctx);
    LLVMValueRef krow = bf16 ? LLVMBuildShl(mb->b, kk, c64(mb, 1), "") : kk;
    LLVMValueRef here = gep(mb, et, b, b_offset(mb, krow, j0, n, stride, bf16));
    for (int line = 0; line < 4; line++) emit_prefetch(mb, gep(mb, i8, here, c64(mb, bytes + 64 * line)), false, 3);
}

/* One k step (kk) of a register block into accumulator set u: load nv
 * vectors of B (noting inf/NaN lanes in *seen when it is given), broadcast
 * each row's A word, and update acc[r * nc + u * nv + c] in place. */
static void steps(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef i0, LLVMValueRef j0, int mr,
                  int nv, int nc, int u, LLVMValueRef kk, int64_t n, int64_t ksteps, LLVMValueRef stride, bool bf16,
                  LLVMValueRef *acc, LLVMValueRef *seen)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(mb->ctx), i32 = LLVMInt32TypeInContext(mb->ctx);
    LLVMTypeRef vf = LLVMVectorType(f32, (unsigned)k->vec);
    LLVMTypeRef bf = LLVMBFloatTypeInContext(mb->ctx);
    LLVMTypeRef vb = LLVMVectorType(bf, (unsigned)(2 * k->vec));
    LLVMValueRef bv[8];
    for (int c = 0; c < nv; c++) {
        /* f32: B(k, j0 + c·vec ..); bf16: the pairs B(2kk, ..), B(2kk+1, ..) */
        LLVMValueRef col = LLVMBuildAdd(mb->b, j0, c64(mb, (int64_t)c * k->vec), "");
        LLVMValueRef krow = bf16 ? LLVMBuildShl(mb->b, kk, c64(mb, 1), "") : kk;
        LLVMValueRef off = b_offset(mb, krow, col, n, stride, bf16);
        bv[c] = LLVMBuildLoad2(mb->b, bf16 ? vb : vf, gep(mb, bf16 ? bf : f32, b, off), "");
        LLVMSetAlignment(bv[c], 4);
        if (seen) *seen = note_exponents(mb, *seen, bv[c], k->vec, bf16);
    }
    for (int r = 0; r < mr; r++) {
        LLVMValueRef row = LLVMBuildAdd(mb->b, i0, c64(mb, r), "");
        LLVMValueRef av;
        if (bf16) {
            /* A[i][2k], A[i][2k+1] as one 32-bit lane, broadcast */
            LLVMValueRef pair = LLVMBuildLoad2(mb->b, i32, a_word(mb, a, row, kk, ksteps, true), "");
            LLVMSetAlignment(pair, mb->a_stride ? 2 : 4);
            LLVMValueRef wide = splat(mb, (unsigned)k->vec, pair);
            av = LLVMBuildBitCast(mb->b, wide, vb, "");
        } else {
            LLVMValueRef x = LLVMBuildLoad2(mb->b, f32, a_word(mb, a, row, kk, ksteps, false), "");
            LLVMSetAlignment(x, 4);
            av = splat(mb, (unsigned)k->vec, x);
        }
        for (int c = 0; c < nv; c++) {
            LLVMValueRef *cur = &acc[r * nc + u * nv + c];
            if (bf16) {
                /* the broadcast A pair last: that operand can be memory, so
                 * it folds into vdpbf16ps as an embedded {1to16} broadcast */
                LLVMValueRef args[3] = { *cur, bv[c], av };
                *cur = call_intrinsic(mb, "llvm.x86.avx512bf16.dpbf16ps.512", NULL, 0, args, 3);
            } else {
                LLVMValueRef args[3] = { av, bv[c], *cur };
                *cur = call_intrinsic(mb, k->emit == mma_generic ? "llvm.fmuladd" : "llvm.fma", &vf, 1, args, 3);
            }
        }
    }
}

/* One register block at rows [i0, i0+mr), columns [j0, j0+nv·vec): load the
 * accumulators, run the whole K loop keeping them in registers (phis), store.
 * `step` is one k (f32) or one k pair (bf16). With ku = 2 each row keeps two
 * sets of nv accumulators, for even and odd steps, and the loop takes two
 * steps at a time: a block one panel wide then reads its panel as one
 * sequential stream (2·128 bytes per iteration) with as many independent
 * accumulators as a block two panels wide, whose two streams 16 KiB apart
 * (plus a prefetch of the next two) held a decode step to ~70% of the read
 * bandwidth. The sets are added before the store. */
static void block(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, LLVMValueRef i0,
                  LLVMValueRef j0, int mr, int nv, int ku, int64_t n, int64_t ksteps, bool bf16, LLVMValueRef bad)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(mb->ctx);
    LLVMTypeRef vf = LLVMVectorType(f32, (unsigned)k->vec);
    LLVMValueRef init[MAX_ACC];
    int nc = nv * ku;   /* accumulators per row: set u's vector c is [r * nc + u * nv + c] */
    int nacc = mr * nc;
    LLVMValueRef astride = acc_stride(mb, n);
    if (mb->out) {   /* the result goes to C, maybe not in cache: ask for its lines for writing now */
        LLVMValueRef ostride = out_stride(mb, n), out = out_ptr(mb, acc);
        LLVMBasicBlockRef pf = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.outpf");
        LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.outready");
        LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntNE, out, acc, ""), pf, go);
        LLVMPositionBuilderAtEnd(mb->b, pf);
        for (int r = 0; r < mr; r++)
            for (int c = 0; c < nv; c++) {
                LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildAdd(mb->b, i0, c64(mb, r), ""), ostride, ""),
                                                LLVMBuildAdd(mb->b, j0, c64(mb, (int64_t)c * k->vec), ""), "");
                emit_prefetch(mb, gep(mb, f32, out, off), true, 3);
            }
        LLVMBuildBr(mb->b, go);
        LLVMPositionBuilderAtEnd(mb->b, go);
    }
    LLVMBasicBlockRef zeroed = NULL, loaded = NULL, start = NULL;
    if (mb->acc_zero) {   /* a zero accumulator starts from zero registers: no load */
        zeroed = LLVMGetInsertBlock(mb->b);
        loaded = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.accload");
        start = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.accready");
        LLVMBuildCondBr(mb->b, mb->acc_zero, start, loaded);
        LLVMPositionBuilderAtEnd(mb->b, loaded);
    }
    for (int r = 0; r < mr; r++)
        for (int q = 0; q < nc; q++) {
            if (q >= nv) {   /* the odd steps' set starts from zero */
                init[r * nc + q] = LLVMConstNull(vf);
                continue;
            }
            LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildAdd(mb->b, i0, c64(mb, r), ""), astride, ""),
                                            LLVMBuildAdd(mb->b, j0, c64(mb, (int64_t)q * k->vec), ""), "");
            LLVMValueRef p = gep(mb, f32, acc, off);
            init[r * nc + q] = LLVMBuildLoad2(mb->b, vf, p, "");
            LLVMSetAlignment(init[r * nc + q], 4);
        }
    if (mb->acc_zero) {
        LLVMBuildBr(mb->b, start);
        LLVMPositionBuilderAtEnd(mb->b, start);
        LLVMBasicBlockRef from[2] = { zeroed, loaded };
        for (int q = 0; q < nacc; q++) {
            LLVMValueRef v = LLVMBuildPhi(mb->b, vf, "acc0");
            LLVMValueRef in[2] = { LLVMConstNull(vf), init[q] };
            LLVMAddIncoming(v, in, from, 2);
            init[q] = v;
        }
    }
    /* k loop with the accumulators as phis; ku steps per iteration (ku divides ksteps) */
    KLoop K;
    LLVMValueRef phis[MAX_ACC];
    kloop_begin(mb, &K, vf, init, phis, nacc);
    LLVMValueRef kk = K.kk;
    /* with `bad`: the largest exponent bits seen in B, lane by lane, kept across the loop */
    LLVMTypeRef vseen = exponent_lanes_type(mb, k->vec, bf16);
    LLVMValueRef seen_phi = NULL, seen = NULL;
    if (bad) {
        seen_phi = seen = LLVMBuildPhi(mb->b, vseen, "exponents");
        LLVMValueRef none = LLVMConstNull(vseen);
        LLVMAddIncoming(seen_phi, &none, &K.pre, 1);
    }
    kloop_test(mb, &K, ksteps);
    LLVMValueRef stride = panel_stride(mb, ksteps, bf16);
    int64_t nr = (int64_t)nv * k->vec;
    if (ku == 1 && ksteps >= PREFETCH_MIN_KSTEPS && !mb->b_row_stride && nr == TK_MMA_PANEL)
        prefetch_next_strip(mb, b, i0, j0, kk, mr, nr, n, ksteps, bf16);
    if (ku == 2) prefetch_ahead(mb, b, j0, kk, n, stride, bf16, bf16 ? DECODE_PREFETCH_BF16 : DECODE_PREFETCH_F32);
    LLVMValueRef next[MAX_ACC];
    for (int q = 0; q < nacc; q++) next[q] = phis[q];
    for (int u = 0; u < ku; u++)
        steps(k, mb, a, b, i0, j0, mr, nv, nc, u, u ? LLVMBuildAdd(mb->b, kk, c64(mb, u), "") : kk, n, ksteps, stride, bf16, next, bad ? &seen : NULL);
    if (bad) {
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(mb->b);
        LLVMAddIncoming(seen_phi, &seen, &latch, 1);
    }
    kloop_end(mb, &K, ku, next, phis, nacc);
    LLVMValueRef *fin = phis;
    if (bad) {   /* an exponent of all ones seen (inf or NaN): note it for the caller */
        LLVMValueRef top = call_intrinsic(mb, "llvm.vector.reduce.umax", &vseen, 1, &seen_phi, 1);
        LLVMValueRef full = LLVMConstInt(LLVMGetElementType(vseen), bf16 ? 0x7f80u : 0x7f800000u, 0);
        LLVMValueRef any = LLVMBuildICmp(mb->b, LLVMIntEQ, top, full, "");
        LLVMTypeRef i32t = LLVMInt32TypeInContext(mb->ctx);
        LLVMValueRef was = LLVMBuildLoad2(mb->b, i32t, bad, "");
        LLVMBuildStore(mb->b, LLVMBuildOr(mb->b, was, LLVMBuildZExt(mb->b, any, i32t, ""), ""), bad);
    }
    LLVMValueRef ostride = out_stride(mb, n), out = out_ptr(mb, acc);
    for (int r = 0; r < mr; r++)
        for (int c = 0; c < nv; c++) {
            LLVMValueRef v = fin[r * nc + c];
            for (int u = 1; u < ku; u++) v = LLVMBuildFAdd(mb->b, v, fin[r * nc + u * nv + c], "");
            LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildAdd(mb->b, i0, c64(mb, r), ""), ostride, ""),
                                            LLVMBuildAdd(mb->b, j0, c64(mb, (int64_t)c * k->vec), ""), "");
            LLVMValueRef st = LLVMBuildStore(mb->b, v, gep(mb, f32, out, off));
            LLVMSetAlignment(st, 4);
        }
}

/* A stack slot in the function's entry block (not in the loop being built). */
static LLVMValueRef entry_alloca(TkMmaBuilder *mb, LLVMTypeRef t, int64_t count, const char *name)
{
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(mb->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(mb->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first) LLVMPositionBuilderBefore(eb, first);
    else LLVMPositionBuilderAtEnd(eb, entry);
    LLVMValueRef p = LLVMBuildArrayAlloca(eb, t, c64(mb, count), name);
    LLVMDisposeBuilder(eb);
    return p;
}

/* slot |= OR of the `count` 32-bit words from `words`, each & mask (the slot
 * is one SROA promotes). align: 4, or 2 for a bf16 row read in place. */
static void or_words(TkMmaBuilder *mb, LLVMValueRef words, int64_t count, uint32_t mask, LLVMValueRef slot, unsigned align)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(mb->ctx);
    Loop L;
    loop_begin(mb, &L, count, "mk.or");
    LLVMValueRef w = LLVMBuildLoad2(mb->b, i32, gep(mb, i32, words, L.idx), "");
    LLVMSetAlignment(w, align);
    LLVMValueRef bits = LLVMBuildAnd(mb->b, w, LLVMConstInt(i32, mask, 0), "");
    LLVMBuildStore(mb->b, LLVMBuildOr(mb->b, LLVMBuildLoad2(mb->b, i32, slot, ""), bits, ""), slot);
    loop_end(mb, &L, 1);
}

/* or_words over `count` words in chunks of SCAN_CHUNK, branching to `found`
 * as soon as the slot is non-zero: a dense A is decided by its first chunk
 * (the whole scan was 8% of a 32³ f32 product), while an all-zero block (edge
 * padding, a decode step's empty rows) still reads every word, vectorised. */
enum { SCAN_CHUNK = 64 };

static void or_words_until(TkMmaBuilder *mb, LLVMValueRef words, int64_t count, uint32_t mask, LLVMValueRef slot,
                           unsigned align, LLVMBasicBlockRef found)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(mb->ctx);
    int64_t chunks = count / SCAN_CHUNK, tail = count % SCAN_CHUNK;
    for (int part = 0; part < 2; part++) {
        Loop L;
        int64_t n = part == 0 ? chunks : (tail > 0);
        if (n == 0) continue;
        loop_begin(mb, &L, n, "mk.scan");
        LLVMValueRef at = part == 0 ? LLVMBuildMul(mb->b, L.idx, c64(mb, SCAN_CHUNK), "") : c64(mb, chunks * SCAN_CHUNK);
        or_words(mb, gep(mb, i32, words, at), part == 0 ? SCAN_CHUNK : tail, mask, slot, align);
        LLVMValueRef nz = LLVMBuildICmp(mb->b, LLVMIntNE, LLVMBuildLoad2(mb->b, i32, slot, ""), LLVMConstInt(i32, 0, 0), "");
        LLVMBasicBlockRef more = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.scanmore");
        LLVMBuildCondBr(mb->b, nz, found, more);
        LLVMPositionBuilderAtEnd(mb->b, more);
        loop_end(mb, &L, 1);
    }
}

/* Which register-row blocks of A are all zero, and may be skipped: rows past
 * a tensor's edge are loaded as zeros, and a decode step's 16-row tile holds
 * one real row. Sets skip[r] (i8) per row block, and returns whether any /
 * all blocks are zero and the first row of the first block that is not
 * (m if none). Skipping is exact only if B is finite (0·inf is NaN): the
 * caller checks that as it goes (emit_blocks). */
typedef struct {
    LLVMValueRef skip;    /* i8[m / mr] */
    LLVMValueRef any, all;/* i1 */
    LLVMValueRef first;   /* i64 */
} ZeroRows;

static ZeroRows zero_row_blocks(int mr, TkMmaBuilder *mb, LLVMValueRef a, int64_t m, int64_t ksteps, bool bf16)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx), i32 = LLVMInt32TypeInContext(mb->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(mb->ctx);
    int64_t nblocks = m / mr;
    ZeroRows Z;
    Z.skip = entry_alloca(mb, i8, nblocks, "mk.skip");
    LLVMValueRef orslot = entry_alloca(mb, i32, 1, "mk.orv");
    LLVMValueRef anyslot = entry_alloca(mb, i32, 1, "mk.any");
    LLVMValueRef allslot = entry_alloca(mb, i32, 1, "mk.all");
    LLVMValueRef firstslot = entry_alloca(mb, i64, 1, "mk.first");
    LLVMBuildStore(mb->b, LLVMConstInt(i32, 0, 0), anyslot);
    LLVMBuildStore(mb->b, LLVMConstInt(i32, 1, 0), allslot);
    LLVMBuildStore(mb->b, c64(mb, m), firstslot);
    /* A is m rows of ksteps words (f32 elements or bf16 pairs); blocks are
     * visited last to first, so the first live one is stored last */
    Loop L;
    loop_begin(mb, &L, nblocks, "mk.zrows");
    LLVMValueRef blk = LLVMBuildSub(mb->b, c64(mb, nblocks - 1), L.idx, "");
    uint32_t mask = bf16 ? 0x7fff7fffu : 0x7fffffffu;   /* ±0 both count as zero */
    LLVMValueRef row0 = LLVMBuildMul(mb->b, blk, c64(mb, mr), "");
    LLVMBuildStore(mb->b, LLVMConstInt(i32, 0, 0), orslot);
    LLVMBasicBlockRef scanned = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.scanned");
    if (!mb->a_stride) {   /* a tile of its own: the block's rows are one run */
        or_words_until(mb, a_word(mb, a, row0, c64(mb, 0), ksteps, bf16), mr * ksteps, mask, orslot, 4, scanned);
    } else {
        for (int r = 0; r < mr; r++)
            or_words_until(mb, a_word(mb, a, LLVMBuildAdd(mb->b, row0, c64(mb, r), ""), c64(mb, 0), ksteps, bf16), ksteps,
                           mask, orslot, 2, scanned);
    }
    LLVMBuildBr(mb->b, scanned);
    LLVMPositionBuilderAtEnd(mb->b, scanned);
    LLVMValueRef v = LLVMBuildLoad2(mb->b, i32, orslot, "");
    LLVMValueRef is_zero = LLVMBuildICmp(mb->b, LLVMIntEQ, v, LLVMConstInt(i32, 0, 0), "");
    LLVMValueRef zero = LLVMBuildZExt(mb->b, is_zero, i32, "");
    LLVMBuildStore(mb->b, LLVMBuildTrunc(mb->b, zero, i8, ""), gep(mb, i8, Z.skip, blk));
    LLVMBuildStore(mb->b, LLVMBuildOr(mb->b, LLVMBuildLoad2(mb->b, i32, anyslot, ""), zero, ""), anyslot);
    LLVMBuildStore(mb->b, LLVMBuildAnd(mb->b, LLVMBuildLoad2(mb->b, i32, allslot, ""), zero, ""), allslot);
    LLVMValueRef was = LLVMBuildLoad2(mb->b, i64, firstslot, "");
    LLVMBuildStore(mb->b, LLVMBuildSelect(mb->b, is_zero, was, LLVMBuildMul(mb->b, blk, c64(mb, mr), ""), ""), firstslot);
    loop_end(mb, &L, 1);
    Z.any = LLVMBuildICmp(mb->b, LLVMIntNE, LLVMBuildLoad2(mb->b, i32, anyslot, ""), LLVMConstInt(i32, 0, 0), "");
    Z.all = LLVMBuildICmp(mb->b, LLVMIntNE, LLVMBuildLoad2(mb->b, i32, allslot, ""), LLVMConstInt(i32, 0, 0), "");
    Z.first = LLVMBuildLoad2(mb->b, i64, firstslot, "");
    return Z;
}

/* block(...) if row block i0/mr's skip flag equals `want` (i8).
 * With `bad`, the block at row `check_row` notes inf/NaN in the B it loads. */
static void block_where(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef skip, LLVMValueRef want, LLVMValueRef acc, LLVMValueRef a,
                        LLVMValueRef b, LLVMValueRef i0, LLVMValueRef j0, int mr, int nv, int ku, int64_t n, int64_t ksteps,
                        bool bf16, LLVMValueRef check_row, LLVMValueRef bad)
{
    LLVMBasicBlockRef next = NULL;
    if (skip) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx);
        LLVMValueRef flag = LLVMBuildLoad2(mb->b, i8, gep(mb, i8, skip, LLVMBuildSDiv(mb->b, i0, c64(mb, mr), "")), "");
        LLVMBasicBlockRef work = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.work");
        next = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.next");
        LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntEQ, flag, want, ""), work, next);
        LLVMPositionBuilderAtEnd(mb->b, work);
    }
    if (bad) {
        LLVMBasicBlockRef checking = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.checking");
        LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.plain");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.blockdone");
        LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntEQ, i0, check_row, ""), checking, plain);
        LLVMPositionBuilderAtEnd(mb->b, checking);
        block(k, mb, acc, a, b, i0, j0, mr, nv, ku, n, ksteps, bf16, bad);
        LLVMBuildBr(mb->b, done);
        LLVMPositionBuilderAtEnd(mb->b, plain);
        block(k, mb, acc, a, b, i0, j0, mr, nv, ku, n, ksteps, bf16, NULL);
        LLVMBuildBr(mb->b, done);
        LLVMPositionBuilderAtEnd(mb->b, done);
    } else {
        block(k, mb, acc, a, b, i0, j0, mr, nv, ku, n, ksteps, bf16, NULL);
    }
    if (next) {
        LLVMBuildBr(mb->b, next);
        LLVMPositionBuilderAtEnd(mb->b, next);
    }
}

/* Every register block whose skip flag is `want`. Columns outside, rows
 * inside: one strip of B (ksteps × nr, 8–16 KiB, contiguous in its panel) is
 * reused from L1 by every row block, while A is read by broadcasts of a few
 * bytes per row; rows outside would stream the whole B from L2 once per row
 * block. */
static void blocks_where(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef skip, LLVMValueRef want, LLVMValueRef acc, LLVMValueRef a,
                         LLVMValueRef b, int64_t m, int64_t n, int64_t ksteps, bool bf16, int mr, int nv_full, int ku,
                         LLVMValueRef check_row, LLVMValueRef bad)
{
    int64_t nr = (int64_t)nv_full * k->vec;
    int64_t n_full = n / nr * nr;   /* columns covered by full register blocks */
    if (n_full > 0) {
        Loop Lj, Li;
        loop_begin(mb, &Lj, n_full, "mk.j");
        loop_begin(mb, &Li, m, "mk.i");
        block_where(k, mb, skip, want, acc, a, b, Li.idx, Lj.idx, mr, nv_full, ku, n, ksteps, bf16, check_row, bad);
        loop_end(mb, &Li, mr);
        loop_end(mb, &Lj, nr);
    }
    /* the remaining columns, one vector at a time */
    for (int64_t j = n_full; j < n; j += k->vec) {
        Loop Li;
        loop_begin(mb, &Li, m, "mk.i");
        block_where(k, mb, skip, want, acc, a, b, Li.idx, c64(mb, j), mr, 1, ku, n, ksteps, bf16, check_row, bad);
        loop_end(mb, &Li, mr);
    }
}

/* Row blocks skipped as zero still owe their rows of the result: with a
 * zero accumulator (mb->acc_zero) zeros, and with an out that is not acc,
 * acc's rows copied (a row block that does run writes every element of its
 * own; one run again in the second pass reads acc, which is left as it was). */
static void settle_skipped_rows(const TkMmaKernel *k, TkMmaBuilder *mb, const ZeroRows *Z, LLVMValueRef acc, int64_t m,
                                int64_t n, int mr)
{
    if (!mb->acc_zero && !mb->out) return;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(mb->ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx), f32 = LLVMFloatTypeInContext(mb->ctx);
    LLVMTypeRef vf = LLVMVectorType(f32, (unsigned)k->vec);
    LLVMValueRef zero = mb->acc_zero ? mb->acc_zero : LLVMConstInt(i1, 0, 0);
    LLVMValueRef owed = zero;   /* zeros owed, or acc's rows owed to an out elsewhere */
    if (mb->out) owed = LLVMBuildOr(mb->b, zero, LLVMBuildICmp(mb->b, LLVMIntNE, mb->out, acc, ""), "");
    LLVMBasicBlockRef work = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.zskip");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.zskipdone");
    LLVMBuildCondBr(mb->b, LLVMBuildAnd(mb->b, owed, Z->any, ""), work, done);
    LLVMPositionBuilderAtEnd(mb->b, work);
    LLVMValueRef astride = acc_stride(mb, n), ostride = out_stride(mb, n), out = out_ptr(mb, acc);
    Loop Lb, Lr, Lc;
    loop_begin(mb, &Lb, m / mr, "mk.zblk");
    LLVMValueRef flag = LLVMBuildLoad2(mb->b, i8, gep(mb, i8, Z->skip, Lb.idx), "");
    LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.zfill");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.znext");
    LLVMBuildCondBr(mb->b, LLVMBuildICmp(mb->b, LLVMIntNE, flag, LLVMConstInt(i8, 0, 0), ""), fill, next);
    LLVMPositionBuilderAtEnd(mb->b, fill);
    loop_begin(mb, &Lr, mr, "mk.zrow");
    LLVMValueRef row = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, Lb.idx, c64(mb, mr), ""), Lr.idx, "");
    LLVMValueRef obase = LLVMBuildMul(mb->b, row, ostride, "");
    LLVMValueRef abase = mb->out ? LLVMBuildMul(mb->b, row, astride, "") : NULL;
    loop_begin(mb, &Lc, n, "mk.zcol");
    LLVMValueRef v = LLVMConstNull(vf);
    if (mb->out) {   /* acc's values unless acc holds zeros (then it may never have been written) */
        LLVMBasicBlockRef from = LLVMGetInsertBlock(mb->b);
        LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.zcopy");
        LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.zput");
        LLVMBuildCondBr(mb->b, zero, put, copy);
        LLVMPositionBuilderAtEnd(mb->b, copy);
        LLVMValueRef ld = LLVMBuildLoad2(mb->b, vf, gep(mb, f32, acc, LLVMBuildAdd(mb->b, abase, Lc.idx, "")), "");
        LLVMSetAlignment(ld, 4);
        LLVMBuildBr(mb->b, put);
        LLVMPositionBuilderAtEnd(mb->b, put);
        LLVMValueRef phi = LLVMBuildPhi(mb->b, vf, "");
        LLVMValueRef in[2] = { v, ld };
        LLVMBasicBlockRef bb[2] = { from, copy };
        LLVMAddIncoming(phi, in, bb, 2);
        v = phi;
    }
    LLVMValueRef st = LLVMBuildStore(mb->b, v, gep(mb, f32, out, LLVMBuildAdd(mb->b, obase, Lc.idx, "")));
    LLVMSetAlignment(st, 4);
    loop_end(mb, &Lc, k->vec);
    loop_end(mb, &Lr, 1);
    LLVMBuildBr(mb->b, next);
    LLVMPositionBuilderAtEnd(mb->b, next);
    loop_end(mb, &Lb, 1);
    LLVMBuildBr(mb->b, done);
    LLVMPositionBuilderAtEnd(mb->b, done);
}

/* The register blocks of one mma. Row blocks of A that are all zero are
 * skipped — exactly, because B is checked for inf/NaN as it is used: the
 * first row block that runs notes any in the B it loads (it loads every
 * column), and if there was one, or no block ran, a second pass runs the
 * skipped blocks (0·inf must be NaN). A separate scan of B first would read
 * it twice; for a decode step, whose B comes from DRAM, that measured 14–16
 * GB/s on one thread against 19–21 checked in passing. Both passes are one
 * loop, so each register block is emitted twice (checking or not), not once
 * per path: attention's four mmas per step ran ~20% slower with four copies. */
static void emit_blocks(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                        int64_t n, int64_t ksteps, bool bf16)
{
    /* A matrix-vector shape (decode: one real row in a 16-row tile) gets
     * blocks of 2 rows × 4 accumulators instead: zero rows are skipped two at
     * a time, not mr at a time, and 8 accumulators still hide the latency.
     * From a B in panels they are one panel (2 vectors) wide, even and odd k
     * steps apart (ku = 2), so B streams sequentially; from a B read in place
     * (rows n apart, f32) two vectors of one row instead. */
    bool skinny = m <= SKINNY_ROWS && m % 2 == 0 && k->mr > 2 && k->nr / k->vec <= 4;
    int mr = skinny ? 2 : k->mr;
    int ku = skinny && !mb->b_row_stride && TK_MMA_PANEL == 2 * k->vec && ksteps % 2 == 0 ? 2 : 1;
    int nv_full = skinny ? 4 / ku : k->nr / k->vec;
    ZeroRows Z = zero_row_blocks(mr, mb, a, m, ksteps, bf16);
    settle_skipped_rows(k, mb, &Z, acc, m, n, mr);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(mb->ctx), i32 = LLVMInt32TypeInContext(mb->ctx);
    LLVMValueRef bad = entry_alloca(mb, i32, 1, "mk.bbad");
    LLVMBuildStore(mb->b, LLVMConstInt(i32, 0, 0), bad);
    /* no zero row: no block checks (row -1), every flag is 0, one pass */
    LLVMValueRef check_row = LLVMBuildSelect(mb->b, Z.any, Z.first, c64(mb, -1), "");
    Loop Lp;
    loop_begin(mb, &Lp, 2, "mk.pass");
    LLVMValueRef pass = LLVMBuildTrunc(mb->b, Lp.idx, i8, "");
    LLVMValueRef redo = LLVMBuildAnd(mb->b, Z.any, LLVMBuildOr(mb->b, Z.all, LLVMBuildICmp(mb->b, LLVMIntNE,
                                     LLVMBuildLoad2(mb->b, i32, bad, ""), LLVMConstInt(i32, 0, 0), ""), ""), "");
    LLVMValueRef go = LLVMBuildOr(mb->b, LLVMBuildICmp(mb->b, LLVMIntEQ, Lp.idx, c64(mb, 0), ""), redo, "");
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.passrun");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "mk.passdone");
    LLVMBuildCondBr(mb->b, go, run, after);
    LLVMPositionBuilderAtEnd(mb->b, run);
    /* pass 1 runs only the skipped blocks, and checks nothing */
    LLVMValueRef row = LLVMBuildSelect(mb->b, LLVMBuildICmp(mb->b, LLVMIntEQ, Lp.idx, c64(mb, 0), ""), check_row, c64(mb, -1), "");
    blocks_where(k, mb, Z.skip, pass, acc, a, b, m, n, ksteps, bf16, mr, nv_full, ku, row, bad);
    LLVMBuildBr(mb->b, after);
    LLVMPositionBuilderAtEnd(mb->b, after);
    loop_end(mb, &Lp, 1);
}

static void mma_fma(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                    int64_t n, int64_t kdim)
{
    emit_blocks(k, mb, acc, a, b, m, n, kdim, false);
}

static void mma_dpbf16(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                       int64_t n, int64_t kdim)
{
    emit_blocks(k, mb, acc, a, b, m, n, (kdim + 1) / 2, true);
}

static void mma_generic(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                        int64_t n, int64_t kdim)
{
    emit_blocks(k, mb, acc, a, b, m, n, kdim, false);
}
