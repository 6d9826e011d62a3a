/* peak.c — the machine's own ceilings, measured: what every benchmark case is
 * judged against (% of peak, the DRAM roofline).
 *
 *   bench_peak [--threads 1,2] [--quick]     one JSON object per thread count
 *   bench_peak --selftest                    checks that the loops do the work they count
 *   bench_peak --probe                       serves read-bandwidth probes: reads a thread
 *                                            count per line on stdin, answers
 *                                            {"threads":t,"read_gbs":x} (best of 4 reads: plain and prefetching)
 *
 * Compute: long loops of independent zmm FMAs (f32) and vdpbf16ps (bf16), with
 * more accumulators than latency × issue width needs (Zen 5: FMA 4 cycles, dpbf16
 * 6 cycles, 2 per cycle → 8 and 12 in flight), so the loop is throughput-bound;
 * where the CPU has AMX (Sapphire Rapids and later), tdpbf16ps on six
 * accumulator tiles too, and the bf16 peak is the faster of the two.
 * Memory: a STREAM-style triad (a = b + s·c, 3 × 4 bytes per element) and a
 * read-only sum, over arrays far larger than the caches; and a streaming copy
 * (a = b: 4 bytes read + 4 written per element, the traffic a softmax or a
 * norm counts), whose median over the trials is the memory-bound cases' roofline.
 * Each figure is the best of several short trials: a shared machine only ever
 * makes a trial slower, never faster than the hardware allows. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ compute loops */

enum { FMA_ACC = 12, DP_ACC = 16 };

/* The loops are inline assembly with the accumulators pinned to registers:
 * in C the compiler keeps an array of vectors in memory and the loop measures
 * store forwarding instead of the FMA units. */
#define ADD_ALL_12(R) \
    "vaddps %%" R "1, %%" R "0, %%" R "0\n\tvaddps %%" R "3, %%" R "2, %%" R "2\n\t" \
    "vaddps %%" R "5, %%" R "4, %%" R "4\n\tvaddps %%" R "7, %%" R "6, %%" R "6\n\t" \
    "vaddps %%" R "9, %%" R "8, %%" R "8\n\tvaddps %%" R "11, %%" R "10, %%" R "10\n\t" \
    "vaddps %%" R "2, %%" R "0, %%" R "0\n\tvaddps %%" R "6, %%" R "4, %%" R "4\n\t" \
    "vaddps %%" R "10, %%" R "8, %%" R "8\n\tvaddps %%" R "4, %%" R "0, %%" R "0\n\t" \
    "vaddps %%" R "8, %%" R "0, %%" R "0\n\t"

#define FMA12(R, OP) \
    OP " %%" R "12, %%" R "13, %%" R "0\n\t" OP " %%" R "12, %%" R "13, %%" R "1\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "2\n\t" OP " %%" R "12, %%" R "13, %%" R "3\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "4\n\t" OP " %%" R "12, %%" R "13, %%" R "5\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "6\n\t" OP " %%" R "12, %%" R "13, %%" R "7\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "8\n\t" OP " %%" R "12, %%" R "13, %%" R "9\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "10\n\t" OP " %%" R "12, %%" R "13, %%" R "11\n\t"

#define ZERO12(R) \
    "vxorps %%" R "0, %%" R "0, %%" R "0\n\tvxorps %%" R "1, %%" R "1, %%" R "1\n\t" \
    "vxorps %%" R "2, %%" R "2, %%" R "2\n\tvxorps %%" R "3, %%" R "3, %%" R "3\n\t" \
    "vxorps %%" R "4, %%" R "4, %%" R "4\n\tvxorps %%" R "5, %%" R "5, %%" R "5\n\t" \
    "vxorps %%" R "6, %%" R "6, %%" R "6\n\tvxorps %%" R "7, %%" R "7, %%" R "7\n\t" \
    "vxorps %%" R "8, %%" R "8, %%" R "8\n\tvxorps %%" R "9, %%" R "9, %%" R "9\n\t" \
    "vxorps %%" R "10, %%" R "10, %%" R "10\n\tvxorps %%" R "11, %%" R "11, %%" R "11\n\t"

/* f32: 12 accumulators × 16 lanes × 2 FLOPs per iteration. With a = b = 1 every
 * accumulator ends at exactly `iters`; the selftest checks the returned total. */
__attribute__((target("avx512f"))) static double fma_loop_zmm(long iters)
{
    float one = 1.0f, out = 0;
    if (iters <= 0) return 0;
    __asm__ volatile("vbroadcastss %[one], %%zmm12\n\t"
                     "vbroadcastss %[one], %%zmm13\n\t" ZERO12("zmm")
                     "1:\n\t" FMA12("zmm", "vfmadd231ps") "dec %[n]\n\t"
                     "jnz 1b\n\t" ADD_ALL_12("zmm") "vmovss %%xmm0, %[out]\n\t"
                     : [n] "+r"(iters), [out] "=m"(out)
                     : [one] "m"(one)
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                       "xmm12", "xmm13", "cc");
    return out;
}

/* The same with ymm registers, for CPUs without AVX-512 (half the width). */
__attribute__((target("avx2,fma"))) static double fma_loop_ymm(long iters)
{
    float one = 1.0f, out = 0;
    if (iters <= 0) return 0;
    __asm__ volatile("vbroadcastss %[one], %%ymm12\n\t"
                     "vbroadcastss %[one], %%ymm13\n\t" ZERO12("ymm")
                     "1:\n\t" FMA12("ymm", "vfmadd231ps") "dec %[n]\n\t"
                     "jnz 1b\n\t" ADD_ALL_12("ymm") "vmovss %%xmm0, %[out]\n\t"
                     "vzeroupper\n\t"
                     : [n] "+r"(iters), [out] "=m"(out)
                     : [one] "m"(one)
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                       "xmm12", "xmm13", "cc");
    return out;
}

/* bf16: vdpbf16ps adds two bf16 products per f32 lane: 16 lanes × 2 × 2 FLOPs.
 * 16 accumulators (zmm0-15, inputs in zmm16/17); with all-ones inputs each ends
 * at exactly 2·iters. */
__attribute__((target("avx512f,avx512bf16"))) static double dpbf16_loop(long iters)
{
    uint32_t ones = 0x3f803f80u;   /* two bf16 1.0 */
    float out = 0;
    if (iters <= 0) return 0;
#define DP(i) "vdpbf16ps %%zmm16, %%zmm17, %%zmm" #i "\n\t"
#define ZZ(i) "vxorps %%zmm" #i ", %%zmm" #i ", %%zmm" #i "\n\t"
#define AD(i, j) "vaddps %%zmm" #j ", %%zmm" #i ", %%zmm" #i "\n\t"
    __asm__ volatile("vpbroadcastd %[ones], %%zmm16\n\t"
                     "vpbroadcastd %[ones], %%zmm17\n\t"
                     ZZ(0) ZZ(1) ZZ(2) ZZ(3) ZZ(4) ZZ(5) ZZ(6) ZZ(7) ZZ(8) ZZ(9) ZZ(10) ZZ(11) ZZ(12) ZZ(13) ZZ(14) ZZ(15)
                     "1:\n\t"
                     DP(0) DP(1) DP(2) DP(3) DP(4) DP(5) DP(6) DP(7) DP(8) DP(9) DP(10) DP(11) DP(12) DP(13) DP(14) DP(15)
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     AD(0, 1) AD(2, 3) AD(4, 5) AD(6, 7) AD(8, 9) AD(10, 11) AD(12, 13) AD(14, 15)
                     AD(0, 2) AD(4, 6) AD(8, 10) AD(12, 14) AD(0, 4) AD(8, 12) AD(0, 8)
                     "vmovss %%xmm0, %[out]\n\t"
                     : [n] "+r"(iters), [out] "=m"(out)
                     : [ones] "m"(ones)
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                       "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc");
#undef DP
#undef ZZ
#undef AD
    return out;
}

/* AMX: tdpbf16ps does 16×16 f32 += 16×32 · 32×16 bf16, 16·16·32·2 FLOPs.
 * Six accumulator tiles (tmm0-5) against one A (tmm6) and one B (tmm7) tile
 * loaded once, so nothing but the tile unit sets the pace. With all-ones
 * inputs each element gains 32 per instruction: exact while 32·iters < 2^28. */
enum { AMX_ACC = 6 };
static double amx_loop(long iters)
{
#if defined(__x86_64__)
    static const uint16_t ones[16 * 32] = { [0 ... 511] = 0x3f80 };   /* bf16 1.0 */
    struct __attribute__((packed)) {
        uint8_t palette, start_row, reserved[14];
        uint16_t colsb[16];
        uint8_t rows[16];
    } cfg;
    float out[16 * 16];
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < 8; t++) {
        cfg.colsb[t] = 64;
        cfg.rows[t] = 16;
    }
    if (iters <= 0) return 0;
#define TD(i) "tdpbf16ps %%tmm7, %%tmm6, %%tmm" #i "\n\t"
    __asm__ volatile("ldtilecfg %[cfg]\n\t"
                     "tilezero %%tmm0\n\t" "tilezero %%tmm1\n\t" "tilezero %%tmm2\n\t"
                     "tilezero %%tmm3\n\t" "tilezero %%tmm4\n\t" "tilezero %%tmm5\n\t"
                     "tileloadd (%[src],%[stride],1), %%tmm6\n\t"
                     "tileloadd (%[src],%[stride],1), %%tmm7\n\t"
                     "1:\n\t"
                     TD(0) TD(1) TD(2) TD(3) TD(4) TD(5)
                     "dec %[n]\n\t"
                     "jnz 1b\n\t"
                     "tilestored %%tmm5, (%[dst],%[stride],1)\n\t"
                     "tilerelease\n\t"
                     : [n] "+r"(iters)
                     : [cfg] "m"(cfg), [src] "r"(ones), [dst] "r"(out), [stride] "r"((long)64)
                     : "memory", "cc");
#undef TD
    return out[0];
#else
    (void)iters;
    return 0;
#endif
}

typedef enum { K_F32, K_BF16, K_AMX, K_TRIAD, K_READ, K_READ_PF, K_COPY } Kind;

static bool has_avx512, has_avx2, has_bf16, has_amx;

static double flops_per_iter(Kind k)
{
    if (k == K_F32) return has_avx512 ? FMA_ACC * 16.0 * 2 : FMA_ACC * 8.0 * 2;
    if (k == K_AMX) return AMX_ACC * 16.0 * 16 * 32 * 2;
    return DP_ACC * 16.0 * 2 * 2;
}

/* AMX needs the CPU flags and Linux's consent (arch_prctl, Linux 5.16+):
 * without the latter the first tile instruction raises SIGILL. */
static bool amx_available(void)
{
#if defined(__x86_64__) && defined(__linux__)
    if (!__builtin_cpu_supports("amx-tile") || !__builtin_cpu_supports("amx-bf16")) return false;
    return syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XFEATURE_XTILEDATA */) == 0;
#else
    return false;
#endif
}

/* ------------------------------------------------------------ memory loops */

typedef struct {
    float *a, *b, *c;
    size_t n;   /* this thread's slice */
} Slice;

static void triad(const Slice *s)
{
    const float q = 3.0f;
    float *restrict a = s->a;
    const float *restrict b = s->b, *restrict c = s->c;
    for (size_t i = 0; i < s->n; i++) a[i] = b[i] + q * c[i];
}

/* a = b: the read + write stream of a row-wise op that reads its input once and
 * writes its output once (softmax, layernorm, rmsnorm). Plain stores, as the
 * kernels it is the roof of use: the write-allocate read of `a` is part of what
 * such a kernel pays too, so it is not counted as bandwidth here either. */
static void copy_scalar(float *restrict a, const float *restrict b, size_t n)
{
    for (size_t i = 0; i < n; i++) a[i] = b[i];
}

/* Vector loads and stores, 4 per iteration: gcc 12 at -O2 leaves the loop above
 * scalar, and one store per cycle understates a fast machine's DRAM. */
__attribute__((target("avx512f"))) static void copy_zmm(float *restrict a, const float *restrict b, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 4; j++) _mm512_storeu_ps(a + i + 16 * j, _mm512_loadu_ps(b + i + 16 * j));
    copy_scalar(a + i, b + i, n - i);
}

__attribute__((target("avx2"))) static void copy_ymm(float *restrict a, const float *restrict b, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int j = 0; j < 4; j++) _mm256_storeu_ps(a + i + 8 * j, _mm256_loadu_ps(b + i + 8 * j));
    copy_scalar(a + i, b + i, n - i);
}

static void copy_stream(const Slice *s)
{
    if (has_avx512) copy_zmm(s->a, s->b, s->n);
    else if (has_avx2) copy_ymm(s->a, s->b, s->n);
    else copy_scalar(s->a, s->b, s->n);
}

/* 8 independent partial sums so the loads, not the adds, set the pace.
 * With `ahead`, each iteration also prefetches its 8 lines that many bytes
 * ahead: on the Zen 5 VM of 2026-12-02 one thread read ~33 GB/s plain and
 * 41-46 with the prefetch (the decode kernels prefetch too, and read faster
 * than the plain loop did, so the plain loop alone understated the roof). */
#define READ_PREFETCH_BYTES 6144

__attribute__((target("avx512f"))) static double read_sum_zmm(const float *p, size_t n, size_t ahead)
{
    __m512 s[8];
    for (int i = 0; i < 8; i++) s[i] = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        if (ahead)
            for (int j = 0; j < 8; j++) _mm_prefetch((const char *)(p + i + 16 * j) + ahead, _MM_HINT_T0);
        for (int j = 0; j < 8; j++) s[j] = _mm512_add_ps(s[j], _mm512_loadu_ps(p + i + 16 * j));
    }
    double t = 0;
    for (int j = 0; j < 8; j++) t += _mm512_reduce_add_ps(s[j]);
    for (; i < n; i++) t += p[i];
    return t;
}

/* The same with ymm for AVX2 hosts (the scalar loop below retires at most
 * ~2 adds, 8 bytes, a cycle: below a fast machine's DRAM). Each iteration
 * covers 4 lines (8 × 8 floats) and prefetches those 4 ahead. On the Zen 3
 * VM of 2026-12-02 (no AVX-512) both read ~5.9 GB/s on one thread, 11.2 on
 * two: that VM's memory, not the loop, set the pace. */
__attribute__((target("avx2"))) static double read_sum_ymm(const float *p, size_t n, size_t ahead)
{
    __m256 s[8];
    for (int i = 0; i < 8; i++) s[i] = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        if (ahead)
            for (int j = 0; j < 4; j++) _mm_prefetch((const char *)(p + i + 16 * j) + ahead, _MM_HINT_T0);
        for (int j = 0; j < 8; j++) s[j] = _mm256_add_ps(s[j], _mm256_loadu_ps(p + i + 8 * j));
    }
    float lanes[8];
    double t = 0;
    for (int j = 0; j < 8; j++) {
        _mm256_storeu_ps(lanes, s[j]);
        for (int l = 0; l < 8; l++) t += lanes[l];
    }
    for (; i < n; i++) t += p[i];
    return t;
}

static double read_sum_scalar(const float *p, size_t n)
{
    double t[8] = { 0 };
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) t[j] += p[i + j];
    for (; i < n; i++) t[0] += p[i];
    return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
}

/* ------------------------------------------------------------ threads */

typedef struct {
    Kind kind;
    long iters;
    Slice slice;
    pthread_barrier_t *start;
    double result;
} Job;

static double read_sum_scalar(const float *p, size_t n);

/* One thread's share of `kind`: the loop the host's ISA runs best. */
static double run_kind(Kind kind, long iters, const Slice *s)
{
    switch (kind) {
    case K_F32: return has_avx512 ? fma_loop_zmm(iters) : fma_loop_ymm(iters);
    case K_BF16: return dpbf16_loop(iters);
    case K_AMX: return amx_loop(iters);
    case K_TRIAD: triad(s); return 0;
    case K_COPY: copy_stream(s); return 0;
    case K_READ:
    case K_READ_PF: {
        size_t ahead = kind == K_READ_PF ? READ_PREFETCH_BYTES : 0;
        if (has_avx512) return read_sum_zmm(s->b, s->n, ahead);
        if (has_avx2) return read_sum_ymm(s->b, s->n, ahead);
        return read_sum_scalar(s->b, s->n);
    }
    }
    return 0;
}

static void *worker(void *arg)
{
    Job *j = arg;
    pthread_barrier_wait(j->start);
    j->result = run_kind(j->kind, j->iters, &j->slice);
    pthread_barrier_wait(j->start);
    return NULL;
}

/* Runs `kind` on `threads` threads (thread 0 is the caller) and returns the wall time
 * between the two barriers, i.e. until the slowest thread is done. */
static double run_threads(Kind kind, int threads, long iters, float *a, float *b, float *c, size_t n, double *results)
{
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, (unsigned)threads);
    Job jobs[64];
    pthread_t tid[64];
    size_t per = (n / (size_t)threads) & ~(size_t)63;
    for (int t = 0; t < threads; t++) {
        size_t off = per * (size_t)t, len = t == threads - 1 ? n - off : per;
        jobs[t] = (Job){ kind, iters, { a ? a + off : NULL, b ? b + off : NULL, c ? c + off : NULL, len }, &bar, 0 };
        if (t) pthread_create(&tid[t], NULL, worker, &jobs[t]);
    }
    pthread_barrier_wait(&bar);
    double t0 = now_s();
    jobs[0].result = run_kind(kind, iters, &jobs[0].slice);   /* thread 0's share, between the barriers */
    pthread_barrier_wait(&bar);
    double dt = now_s() - t0;
    for (int t = 1; t < threads; t++) pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&bar);
    if (results)
        for (int t = 0; t < threads; t++) results[t] = jobs[t].result;
    return dt;
}

/* Big arrays with huge pages where the kernel allows them (first-touch faults of
 * 4 KiB pages are very slow on this VM), touched by the thread that later reads them. */
static float *big_alloc(size_t n)
{
    size_t bytes = n * sizeof(float);
    void *p = NULL;
    if (posix_memalign(&p, 2u << 20, bytes) != 0) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

static double best_compute(Kind kind, int threads, long iters, int trials)
{
    double best = 0;
    for (int r = 0; r < trials; r++) {
        double dt = run_threads(kind, threads, iters, NULL, NULL, NULL, 0, NULL);
        double g = flops_per_iter(kind) * (double)iters * threads / dt * 1e-9;
        if (g > best) best = g;
    }
    return best;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median GB/s of `trials` copies of n floats (2 × 4 bytes each): the median, not
 * the best, because the memory-bound cases report their median time too. */
static double copy_median(int threads, int trials, float *a, float *b, size_t n)
{
    double g[64];
    if (trials > 64) trials = 64;
    for (int r = 0; r < trials; r++)
        g[r] = 2.0 * sizeof(float) * (double)n / run_threads(K_COPY, threads, 0, a, b, NULL, n, NULL) * 1e-9;
    qsort(g, (size_t)trials, sizeof g[0], cmp_double);
    return trials % 2 ? g[trials / 2] : 0.5 * (g[trials / 2 - 1] + g[trials / 2]);
}

static void measure(int threads, bool quick, float *a, float *b, float *c, size_t n)
{
    /* many short trials: on a shared machine the best one is the one that had the core to itself */
    int trials = quick ? 10 : 25;
    long iters = quick ? 1000000 : 3000000;   /* ≈ 5 / 15 ms per trial at 3.5 GHz */
    double f32 = best_compute(K_F32, threads, iters, trials);
    double dpbf16 = has_bf16 ? best_compute(K_BF16, threads, iters, trials) : 0;
    /* a tdpbf16ps is 16 cycles or so: a tenth of the iterations takes about as long */
    double amx = has_amx ? best_compute(K_AMX, threads, iters / 10, trials) : 0;
    double bf16 = amx > dpbf16 ? amx : dpbf16;
    double triad_best = 0, read_best = 0;
    for (int r = 0; r < trials; r++) {
        double dt = run_threads(K_TRIAD, threads, 0, a, b, c, n, NULL);
        double g = 3.0 * sizeof(float) * (double)n / dt * 1e-9;
        if (g > triad_best) triad_best = g;
        dt = run_threads(r % 2 ? K_READ_PF : K_READ, threads, 0, a, b, c, n, NULL);   /* the better of the two loops */
        g = sizeof(float) * (double)n / dt * 1e-9;
        if (g > read_best) read_best = g;
    }
    double copy = copy_median(threads, trials, a, b, n);
    printf("{\"threads\":%d,\"f32_gflops\":%.1f,\"bf16_gflops\":%.1f,\"dpbf16_gflops\":%.1f,\"amx_gflops\":%.1f,"
           "\"triad_gbs\":%.2f,\"read_gbs\":%.2f,\"copy_gbs\":%.2f,"
           "\"f32_basis\":\"%s\",\"bf16_basis\":\"%s\",\"array_mib\":%.0f,\"trials\":%d}\n",
           threads, f32, bf16, dpbf16, amx, triad_best, read_best, copy,
           has_avx512 ? "vfmadd zmm, 12 accumulators" : "vfmadd ymm, 12 accumulators",
           amx > dpbf16 ? "AMX tdpbf16ps, 6 accumulator tiles"
           : has_bf16 ? "vdpbf16ps zmm, 16 accumulators" : "no AVX512-BF16 on this CPU",
           (double)n * sizeof(float) / (1 << 20), trials);
    fflush(stdout);
}

/* The read bandwidth now, for the memory-bound cases: bench.py runs a probe in
 * every round of such a case, interleaved with the implementations, because
 * what a shared machine's DRAM delivers moves (30 to 65 GB/s on 2 threads within
 * an hour here) and the peaks are measured once, at the start and the end. */
static int probe(float *a, float *b, float *c, size_t n)
{
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        int t = atoi(line);
        if (t < 1 || t > 64) {
            printf("{\"ok\":false,\"error\":\"bad thread count\"}\n");
        } else {
            double best = 0;
            for (int r = 0; r < 4; r++) {   /* the plain and the prefetching read, twice each */
                double g = sizeof(float) * (double)n / run_threads(r % 2 ? K_READ_PF : K_READ, t, 0, a, b, c, n, NULL) * 1e-9;
                if (g > best) best = g;
            }
            printf("{\"ok\":true,\"threads\":%d,\"read_gbs\":%.2f}\n", t, best);
        }
        fflush(stdout);
    }
    return 0;
}

/* The loops must do the work the FLOP and byte counts claim: all-ones inputs
 * give exact sums (iters per FMA accumulator, 2·iters per dpbf16 one), and the
 * triad's output is checked element by element. */
static int selftest(void)
{
    int fails = 0;
    long iters = 100000;
    double r[2];
    run_threads(K_F32, 2, iters, NULL, NULL, NULL, 0, r);
    for (int t = 0; t < 2; t++)
        if (r[t] != (double)FMA_ACC * iters) {
            fprintf(stderr, "selftest: f32 loop thread %d summed %.0f, want %.0f\n", t, r[t], (double)FMA_ACC * iters);
            fails++;
        }
    if (has_bf16) {
        run_threads(K_BF16, 2, iters, NULL, NULL, NULL, 0, r);
        for (int t = 0; t < 2; t++)
            if (r[t] != 2.0 * DP_ACC * iters) {
                fprintf(stderr, "selftest: bf16 loop thread %d summed %.0f, want %.0f\n", t, r[t], 2.0 * DP_ACC * iters);
                fails++;
            }
    } else {
        printf("selftest: no AVX512-BF16 here, bf16 loop not checked\n");
    }
    if (has_amx) {
        run_threads(K_AMX, 2, iters, NULL, NULL, NULL, 0, r);
        for (int t = 0; t < 2; t++)
            if (r[t] != 32.0 * iters) {
                fprintf(stderr, "selftest: AMX loop thread %d gave %.0f, want %.0f\n", t, r[t], 32.0 * iters);
                fails++;
            }
    } else {
        printf("selftest: no AMX here (or Linux refused its state), AMX loop not checked\n");
    }
    size_t n = 100003;   /* not a multiple of the vector width or the thread split */
    float *a = big_alloc(n), *b = big_alloc(n), *c = big_alloc(n);
    if (!a || !b || !c) return 1;
    for (size_t i = 0; i < n; i++) {
        a[i] = -1;
        b[i] = (float)(i % 1000);
        c[i] = (float)(i % 7);
    }
    run_threads(K_TRIAD, 2, 0, a, b, c, n, NULL);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i] + 3.0f * c[i]) {
            fprintf(stderr, "selftest: triad a[%zu] = %g, want %g\n", i, a[i], b[i] + 3.0f * c[i]);
            fails++;
            break;
        }
    for (size_t i = 0; i < n; i++) a[i] = -1;
    run_threads(K_COPY, 2, 0, a, b, c, n, NULL);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            fprintf(stderr, "selftest: copy a[%zu] = %g, want %g\n", i, a[i], b[i]);
            fails++;
            break;
        }
    double cm = copy_median(2, 3, a, b, n);
    if (!(cm > 0.1)) {
        fprintf(stderr, "selftest: copy bandwidth %.3g GB/s is not plausible\n", cm);
        fails++;
    }
    double want = 0;
    for (size_t i = 0; i < n; i++) want += b[i];
    for (int pf = 0; pf < 2; pf++) {
        run_threads(pf ? K_READ_PF : K_READ, 2, 0, a, b, c, n, r);
        if (r[0] + r[1] != want) {
            fprintf(stderr, "selftest: read sum %.0f (%s), want %.0f\n", r[0] + r[1], pf ? "prefetching" : "plain", want);
            fails++;
        }
    }
    free(a);
    free(b);
    free(c);
    double g = best_compute(K_F32, 1, 200000, 2);
    if (!(g > 1)) {
        fprintf(stderr, "selftest: f32 throughput %.3g GFLOP/s is not plausible\n", g);
        fails++;
    }
    printf("selftest: %s (f32 %.0f GFLOP/s on one thread, %s)\n", fails ? "FAILED" : "ok", g, has_avx512 ? "zmm" : "ymm");
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    __builtin_cpu_init();
    has_avx512 = __builtin_cpu_supports("avx512f");
    has_avx2 = __builtin_cpu_supports("avx2");
    has_bf16 = has_avx512 && __builtin_cpu_supports("avx512bf16");
    has_amx = has_bf16 && amx_available();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        fprintf(stderr, "bench_peak: this CPU has no AVX2/FMA; nothing to measure\n");
        return 1;
    }
    const char *threads_arg = "1,2";
    bool quick = false, serve = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--selftest") == 0) return selftest();
        else if (strcmp(argv[i], "--quick") == 0) quick = true;
        else if (strcmp(argv[i], "--probe") == 0) serve = quick = true;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads_arg = argv[++i];
        else {
            fprintf(stderr, "usage: bench_peak [--threads 1,2] [--quick] | --probe | --selftest\n");
            return 2;
        }
    }
    /* 3 arrays of 48 MiB (quick) or 128 MiB: several times any L3 this machine can have */
    size_t n = (quick ? 12u : 32u) << 20;
    float *a = big_alloc(n), *b = big_alloc(n), *c = big_alloc(n);
    if (!a || !b || !c) {
        fprintf(stderr, "bench_peak: out of memory\n");
        return 1;
    }
    /* touch with two threads' worth of work: the triad does it, timed trials come after */
    for (size_t i = 0; i < n; i++) {
        b[i] = 1.0f;
        c[i] = 2.0f;
    }
    run_threads(K_TRIAD, 2, 0, a, b, c, n, NULL);
    if (serve) {
        int status = probe(a, b, c, n);
        free(a);
        free(b);
        free(c);
        return status;
    }
    for (const char *p = threads_arg; *p;) {
        int t = atoi(p);
        if (t < 1 || t > 64) {
            fprintf(stderr, "bench_peak: bad thread count in '%s'\n", threads_arg);
            return 2;
        }
        measure(t, quick, a, b, c, n);
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
