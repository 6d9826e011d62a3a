/* cpu_mma_amx.c — the Intel AMX micro-kernel (Sapphire Rapids and later), a
 * row of cpu_mma.c's table.
 *
 * One tdpbf16ps does C[16×16 f32] += A[16×32 bf16]·B[32×16 bf16] from tile
 * registers (tmm0..7, 16 rows of 64 bytes each) — 8192 multiply-adds, where
 * one vdpbf16ps zmm does 32. The canonical operands (cpu_mma.h) are already
 * what the tile loads want:
 *   A   16 rows of 32 bf16 = 64 bytes, rows a_stride (or Kp) elements apart;
 *   B   a VNNI panel's rows are k pairs of 32 columns (128 bytes), so 16 k
 *       pairs × 16 columns are 16 rows of 64 bytes, 128 bytes apart (64 in a
 *       last panel of 16 columns);
 *   C   16 rows of 16 f32, acc_stride (or out_stride) elements apart.
 * No copies: every operand is loaded straight from where it lies.
 *
 * A register block is 2×2 C tiles (32×32, one panel wide) with two A and two
 * B tiles: all eight tile registers, each loaded tile used twice. The K loop
 * takes 16 k pairs (32 k) per iteration, so it needs Kp a multiple of 32;
 * other products (the small kernels' K = 16 steps) run the vdpbf16ps kernel.
 *
 * The tiles are LLVM `x86_amx` values; like clang's __tile1024i they cross
 * basic blocks (the loop's phis) as <256 x i32> vectors with casts around
 * every intrinsic, which the X86 back end folds away, and it writes the tile
 * configuration (ldtilecfg) itself from the constant shapes.
 *
 * What is left (measured 2026-12-01, one thread): the C tiles' round trip
 * through memory. Tile registers are not renamed, so each register block's
 * load of C waits for the previous block's last tdpbf16ps and store. A single
 * 256³ product (one K step: C starts as zero tiles and is written once)
 * runs at 1.67 TFLOP/s, four K steps of it at 1.52, and 1024³ at 1.26; with
 * no C traffic at all the same loop reaches 2.55 (peak 3.47). The cure is to
 * keep C in tiles across the .tk kernel's K loop (the micro-kernel taking
 * the loop inside), not anything within one mma.
 *
 * Rows are never skipped: the hardware multiplies zero rows as fast as any,
 * and 0·inf is NaN without the inf checks the vector kernels need.
 * AMX flushes denormal inputs and results to zero, as vdpbf16ps does.
 * Linux hands out the tile state only on request (arch_prctl
 * ARCH_REQ_XCOMP_PERM): targets/cpu/amx.h asks before any launch. */
#include "cpu_mma.h"
#include "cpu_mma_emit.h"

#define AMX_ROWS 16       /* rows of every tile */
#define AMX_BYTES 64      /* bytes of every tile row */
#define AMX_KSTEP 16      /* k pairs per tdpbf16ps: 32 bf16 = 64 bytes of an A row */
/* Lines of the next panel of B fetched per k iteration. Without it the first
 * row block of every panel waited for its B from L3: gemm_bf16_packed 1024³
 * on one thread 2.00 → 1.74 ms (medians of 5 interleaved runs; 2 lines: 1.76,
 * 8: 1.80). Prefetching the next row block's A, the next K step's A or the
 * next block's accumulator rows as well measured within the noise (±1%). */
#define PREFETCH_LINES 4

typedef struct {
    LLVMTypeRef amx, v256, i16;
} AmxTypes;

static AmxTypes amx_types(TkMmaBuilder *mb)
{
    AmxTypes t;
    t.amx = LLVMX86AMXTypeInContext(mb->ctx);
    t.v256 = LLVMVectorType(LLVMInt32TypeInContext(mb->ctx), 256);
    t.i16 = LLVMInt16TypeInContext(mb->ctx);
    return t;
}

static LLVMValueRef c16(const AmxTypes *t, int v) { return LLVMConstInt(t->i16, (unsigned long long)v, 0); }

static LLVMValueRef to_vec(TkMmaBuilder *mb, const AmxTypes *t, LLVMValueRef tile)
{
    LLVMTypeRef ov = t->v256;
    return call_intrinsic(mb, "llvm.x86.cast.tile.to.vector", &ov, 1, &tile, 1);
}

static LLVMValueRef to_tile(TkMmaBuilder *mb, const AmxTypes *t, LLVMValueRef vec)
{
    LLVMTypeRef ov = t->v256;
    return call_intrinsic(mb, "llvm.x86.cast.vector.to.tile", &ov, 1, &vec, 1);
}

/* A tile of 16 rows × 64 bytes at p, rows `stride` bytes apart, as a vector. */
static LLVMValueRef tile_load(TkMmaBuilder *mb, const AmxTypes *t, LLVMValueRef p, LLVMValueRef stride)
{
    LLVMValueRef args[4] = { c16(t, AMX_ROWS), c16(t, AMX_BYTES), p, stride };
    return to_vec(mb, t, call_intrinsic(mb, "llvm.x86.tileloadd64.internal", NULL, 0, args, 4));
}

static void tile_store(TkMmaBuilder *mb, const AmxTypes *t, LLVMValueRef p, LLVMValueRef stride, LLVMValueRef vec)
{
    LLVMValueRef args[5] = { c16(t, AMX_ROWS), c16(t, AMX_BYTES), p, stride, to_tile(mb, t, vec) };
    call_intrinsic(mb, "llvm.x86.tilestored64.internal", NULL, 0, args, 5);
}

static LLVMValueRef tile_zero(TkMmaBuilder *mb, const AmxTypes *t)
{
    LLVMValueRef args[2] = { c16(t, AMX_ROWS), c16(t, AMX_BYTES) };
    return to_vec(mb, t, call_intrinsic(mb, "llvm.x86.tilezero.internal", NULL, 0, args, 2));
}

/* c += a·b: one tdpbf16ps (16 × 16 f32 += 16 × 32 bf16 · 32 × 16 bf16). */
static LLVMValueRef tile_dp(TkMmaBuilder *mb, const AmxTypes *t, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[6] = { c16(t, AMX_ROWS), c16(t, AMX_BYTES), c16(t, AMX_BYTES), to_tile(mb, t, c), to_tile(mb, t, a),
                             to_tile(mb, t, b) };
    return to_vec(mb, t, call_intrinsic(mb, "llvm.x86.tdpbf16ps.internal", NULL, 0, args, 6));
}

/* A read prefetch into every cache level (prefetcht0). */
static void prefetch(TkMmaBuilder *mb, LLVMValueRef p) { emit_prefetch(mb, p, false, 3); }

static LLVMValueRef bytes(TkMmaBuilder *mb, LLVMValueRef elems, int size)
{
    return LLVMBuildMul(mb->b, elems, c64(mb, size), "");
}

/* Where the operands are, for one mma. */
typedef struct {
    LLVMValueRef acc, a, b;
    LLVMValueRef acc_stride, a_stride, out, out_stride;   /* strides in elements */
    LLVMValueRef panel_stride;                            /* B's, in elements */
    int64_t ksteps;
} AmxOperands;

/* One register block: C rows [i0, i0 + 16·tr), columns [j0, j0 + 16·tc) of
 * the panel starting at column j0, `w` columns wide (32, or 16 for a last
 * panel). acc is loaded (or starts at zero when mb->acc_zero says so), the
 * K loop keeps its tiles, and the result is stored to out. */
static void amx_block(TkMmaBuilder *mb, const AmxTypes *t, const AmxOperands *o, LLVMValueRef i0, LLVMValueRef j0, int tr,
                      int tc, int w)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(mb->ctx), bf = LLVMBFloatTypeInContext(mb->ctx);
    LLVMValueRef init[4], phis[4], next[4];
    int nacc = tr * tc;
    LLVMValueRef cstride = bytes(mb, o->acc_stride, 4);
    LLVMValueRef cptr[4];
    for (int r = 0; r < tr; r++)
        for (int c = 0; c < tc; c++) {
            LLVMValueRef row = LLVMBuildAdd(mb->b, i0, c64(mb, AMX_ROWS * r), "");
            LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, o->acc_stride, ""),
                                            LLVMBuildAdd(mb->b, j0, c64(mb, AMX_ROWS * c), ""), "");
            cptr[r * tc + c] = gep(mb, f32, o->acc, off);
        }
    if (mb->acc_zero) {   /* a zero accumulator is not loaded: its memory may hold anything */
        LLVMBasicBlockRef zero = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "amx.acczero");
        LLVMBasicBlockRef load = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "amx.accload");
        LLVMBasicBlockRef ready = LLVMAppendBasicBlockInContext(mb->ctx, mb->fn, "amx.accready");
        LLVMBuildCondBr(mb->b, mb->acc_zero, zero, load);
        LLVMPositionBuilderAtEnd(mb->b, zero);
        LLVMValueRef z[4], l[4];
        for (int q = 0; q < nacc; q++) z[q] = tile_zero(mb, t);
        LLVMBuildBr(mb->b, ready);
        LLVMPositionBuilderAtEnd(mb->b, load);
        for (int q = 0; q < nacc; q++) l[q] = tile_load(mb, t, cptr[q], cstride);
        LLVMBuildBr(mb->b, ready);
        LLVMPositionBuilderAtEnd(mb->b, ready);
        for (int q = 0; q < nacc; q++) {
            init[q] = LLVMBuildPhi(mb->b, t->v256, "amx.acc0");
            LLVMValueRef in[2] = { z[q], l[q] };
            LLVMBasicBlockRef bb[2] = { zero, load };
            LLVMAddIncoming(init[q], in, bb, 2);
        }
    } else {
        for (int q = 0; q < nacc; q++) init[q] = tile_load(mb, t, cptr[q], cstride);
    }

    KLoop K;
    kloop_begin(mb, &K, t->v256, init, phis, nacc);
    kloop_test(mb, &K, o->ksteps);
    LLVMValueRef kk = K.kk;
    LLVMValueRef at[2], btl[2], aptr[2], bptr[2];
    LLVMValueRef astride = bytes(mb, o->a_stride, 2), bstride = c64(mb, 4 * w);
    for (int r = 0; r < tr; r++) {
        /* A(i0 + 16r + row, 2kk ..): 16 rows of 32 bf16 */
        LLVMValueRef row = LLVMBuildAdd(mb->b, i0, c64(mb, AMX_ROWS * r), "");
        LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, o->a_stride, ""), LLVMBuildShl(mb->b, kk, c64(mb, 1), ""), "");
        aptr[r] = gep(mb, bf, o->a, off);
    }
    /* B's panel at j0: k pair kk's row at kk·2w elements, its columns 16c .. at 32c */
    LLVMValueRef panel = LLVMBuildMul(mb->b, LLVMBuildUDiv(mb->b, j0, c64(mb, TK_MMA_PANEL), ""), o->panel_stride, "");
    LLVMValueRef brow = LLVMBuildAdd(mb->b, panel, LLVMBuildMul(mb->b, kk, c64(mb, 2 * w), ""), "");
    for (int c = 0; c < tc; c++) bptr[c] = gep(mb, bf, o->b, LLVMBuildAdd(mb->b, brow, c64(mb, 2 * AMX_ROWS * c), ""));
    if (w == TK_MMA_PANEL) {
        /* The next panel's B, PREFETCH_LINES lines per k iteration, row block
         * i0/32 fetching its share: line (i0/32 · iters + kk/16) · 4 of it.
         * Past the last panel of B this fetches whatever follows (a prefetch
         * never faults): in a packed tensor, the next K step's plane. */
        LLVMValueRef iters = c64(mb, o->ksteps / AMX_KSTEP);
        LLVMValueRef seq = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, LLVMBuildUDiv(mb->b, i0, c64(mb, 2 * AMX_ROWS), ""), iters, ""),
                                        LLVMBuildUDiv(mb->b, kk, c64(mb, AMX_KSTEP), ""), "");
        LLVMValueRef line = LLVMBuildMul(mb->b, seq, c64(mb, PREFETCH_LINES), "");
        LLVMValueRef base = LLVMBuildAdd(mb->b, LLVMBuildAdd(mb->b, panel, o->panel_stride, ""), LLVMBuildMul(mb->b, line, c64(mb, 32), ""), "");
        for (int q = 0; q < PREFETCH_LINES; q++) prefetch(mb, gep(mb, bf, o->b, LLVMBuildAdd(mb->b, base, c64(mb, 32 * q), "")));
    }
    /* each tile loaded just before its first use (a0 b0 · b1 · a1 · ·): 2% over all four first */
    for (int r = 0; r < tr; r++) {
        at[r] = tile_load(mb, t, aptr[r], astride);
        for (int c = 0; c < tc; c++) {
            if (r == 0) btl[c] = tile_load(mb, t, bptr[c], bstride);
            next[r * tc + c] = tile_dp(mb, t, phis[r * tc + c], at[r], btl[c]);
        }
    }
    kloop_end(mb, &K, AMX_KSTEP, next, phis, nacc);

    LLVMValueRef ostride = bytes(mb, o->out_stride, 4);
    for (int r = 0; r < tr; r++)
        for (int c = 0; c < tc; c++) {
            LLVMValueRef row = LLVMBuildAdd(mb->b, i0, c64(mb, AMX_ROWS * r), "");
            LLVMValueRef off = LLVMBuildAdd(mb->b, LLVMBuildMul(mb->b, row, o->out_stride, ""),
                                            LLVMBuildAdd(mb->b, j0, c64(mb, AMX_ROWS * c), ""), "");
            tile_store(mb, t, gep(mb, f32, o->out, off), ostride, phis[r * tc + c]);
        }
}

/* The blocks of rows [0, m) of one column range: 32-row blocks in a loop,
 * then a 16-row one if m is an odd multiple of 16. */
static void amx_rows(TkMmaBuilder *mb, const AmxTypes *t, const AmxOperands *o, LLVMValueRef j0, int64_t m, int tc, int w)
{
    int64_t full = m / (2 * AMX_ROWS);
    if (full > 0) {
        Loop Li;
        loop_begin(mb, &Li, full, "amx.rows");
        amx_block(mb, t, o, LLVMBuildMul(mb->b, Li.idx, c64(mb, 2 * AMX_ROWS), ""), j0, 2, tc, w);
        loop_end(mb, &Li, 1);
    }
    if (m % (2 * AMX_ROWS)) amx_block(mb, t, o, c64(mb, full * 2 * AMX_ROWS), j0, 1, tc, w);
}

/* Whole 16×16 C tiles, and K in whole tile steps (32 bf16). */
static bool amx_fits(int64_t m, int64_t n, int64_t kdim)
{
    return m % AMX_ROWS == 0 && n % AMX_ROWS == 0 && ((kdim + 1) / 2) % AMX_KSTEP == 0;
}

void tk_mma_amx(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m, int64_t n,
                int64_t kdim)
{
    if (!amx_fits(m, n, kdim)) {   /* K not a multiple of 32: the vector kernel */
        const TkMmaKernel *v = tk_cpu_mma_find("x86.avx512bf16.dpbf16ps");
        v->emit(v, mb, acc, a, b, m, n, kdim);
        return;
    }
    (void)k;
    AmxTypes t = amx_types(mb);
    AmxOperands o;
    o.ksteps = (kdim + 1) / 2;
    o.acc = acc;
    o.a = a;
    o.b = b;
    o.acc_stride = acc_stride(mb, n);
    o.a_stride = mb->a_stride ? mb->a_stride : c64(mb, 2 * o.ksteps);
    o.out = out_ptr(mb, acc);
    o.out_stride = out_stride(mb, n);
    o.panel_stride = panel_stride(mb, o.ksteps, true);
    int64_t panels = n / TK_MMA_PANEL;
    if (panels > 0) {   /* whole panels, 32 columns: 2×2 tiles */
        Loop Lp;
        loop_begin(mb, &Lp, panels, "amx.panels");
        amx_rows(mb, &t, &o, LLVMBuildMul(mb->b, Lp.idx, c64(mb, TK_MMA_PANEL), ""), m, 2, TK_MMA_PANEL);
        loop_end(mb, &Lp, 1);
    }
    if (n % TK_MMA_PANEL)   /* a last panel of 16 columns */
        amx_rows(mb, &t, &o, c64(mb, panels * TK_MMA_PANEL), m, 1, AMX_ROWS);
}
