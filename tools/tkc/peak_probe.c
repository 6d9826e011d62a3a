/* peak_probe.c — the mma peak `tkc run` judges a kernel against, measured
 * rather than estimated: /proc/cpuinfo's clock is the base clock in most VMs
 * and says nothing about how many FMA units a core really has.
 *
 * The probe runs the instruction the kernel's micro-kernels use — zmm/ymm
 * FMA (or SSE2 mul+add) for f32, vdpbf16ps or AMX tdpbf16ps for bf16, NEON
 * fmla/bfdot on AArch64 — in a loop of independent accumulators pinned to
 * registers (inline assembly: C at -O0 would keep them in memory), on the
 * requested number of threads at once, a dozen trials of about a millisecond,
 * and keeps the best. Each thread's rate is its work over its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID), not the wall clock: on a machine shared with a
 * build, a thread that waits for its core does no work and spends no CPU
 * time, so the rate is what the core does while it runs the loop (a wall
 * clock measured half the f32 peak here with two compilers running). The
 * result is cached per CPU model, feature flags, thread count and loop, in
 * the tkc cache directory (peak-HASH), so later runs pay nothing; the probe
 * itself takes ~20–60 ms. The loops follow bench/peers/peak.c (which the
 * benchmark harness uses, with longer trials); tools/ does not depend on
 * bench/. TK_PEAK_GFLOPS_BF16 / TK_PEAK_GFLOPS_F32 (per thread) override. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu_jit.h"
#include "run_internal.h"

#define PROBE_VERSION "2"   /* a new version re-measures: 1 timed by the wall clock */
enum { PROBE_TRIALS = 12, PROBE_MAX_THREADS = 256 };

typedef enum { LOOP_NONE, LOOP_ZMM_FMA, LOOP_YMM_FMA, LOOP_XMM_MULADD, LOOP_DPBF16, LOOP_AMX, LOOP_NEON_FMLA, LOOP_NEON_BFDOT } Loop;

static const struct {
    const char *name;
    double flops_per_iter;
    long iters;   /* ≈ 1 ms per trial at 3-4 GHz */
} LOOPS[] = {
    [LOOP_NONE] = { "none", 0, 0 },
    [LOOP_ZMM_FMA] = { "vfmadd231ps zmm", 12 * 16 * 2, 400000 },
    [LOOP_YMM_FMA] = { "vfmadd231ps ymm", 12 * 8 * 2, 400000 },
    [LOOP_XMM_MULADD] = { "mulps+addps xmm", 12 * 4, 400000 },
    [LOOP_DPBF16] = { "vdpbf16ps zmm", 16 * 16 * 2 * 2, 300000 },
    [LOOP_AMX] = { "AMX tdpbf16ps", 6 * 16 * 16 * 32 * 2, 30000 },
    [LOOP_NEON_FMLA] = { "fmla v.4s", 12 * 4 * 2, 400000 },
    [LOOP_NEON_BFDOT] = { "bfdot v.4s", 12 * 4 * 2 * 2, 400000 },
};

/* ------------------------------------------------------------ the loops */

#if defined(__x86_64__)
#define ACC12(R, OP) \
    OP " %%" R "12, %%" R "13, %%" R "0\n\t" OP " %%" R "12, %%" R "13, %%" R "1\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "2\n\t" OP " %%" R "12, %%" R "13, %%" R "3\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "4\n\t" OP " %%" R "12, %%" R "13, %%" R "5\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "6\n\t" OP " %%" R "12, %%" R "13, %%" R "7\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "8\n\t" OP " %%" R "12, %%" R "13, %%" R "9\n\t" \
    OP " %%" R "12, %%" R "13, %%" R "10\n\t" OP " %%" R "12, %%" R "13, %%" R "11\n\t"
#define CLOBBER16 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", \
                  "xmm12", "xmm13", "xmm14", "xmm15"

__attribute__((target("avx512f"))) static void loop_zmm_fma(long n)
{
    float one = 1.0f;
    __asm__ volatile("vbroadcastss %[one], %%zmm12\n\tvbroadcastss %[one], %%zmm13\n\t"
                     "1:\n\t" ACC12("zmm", "vfmadd231ps") "dec %[n]\n\tjnz 1b\n\tvzeroupper\n\t"
                     : [n] "+r"(n) : [one] "m"(one) : CLOBBER16, "cc");
}

__attribute__((target("avx2,fma"))) static void loop_ymm_fma(long n)
{
    float one = 1.0f;
    __asm__ volatile("vbroadcastss %[one], %%ymm12\n\tvbroadcastss %[one], %%ymm13\n\t"
                     "1:\n\t" ACC12("ymm", "vfmadd231ps") "dec %[n]\n\tjnz 1b\n\tvzeroupper\n\t"
                     : [n] "+r"(n) : [one] "m"(one) : CLOBBER16, "cc");
}

/* SSE2 has no FMA: six multiplies and six adds, each into its own register */
static void loop_xmm_muladd(long n)
{
    float one[4] = { 1, 1, 1, 1 };
    __asm__ volatile("movups %[one], %%xmm12\n\tmovups %[one], %%xmm13\n\t"
                     "1:\n\t"
                     "mulps %%xmm12, %%xmm0\n\taddps %%xmm13, %%xmm1\n\tmulps %%xmm12, %%xmm2\n\taddps %%xmm13, %%xmm3\n\t"
                     "mulps %%xmm12, %%xmm4\n\taddps %%xmm13, %%xmm5\n\tmulps %%xmm12, %%xmm6\n\taddps %%xmm13, %%xmm7\n\t"
                     "mulps %%xmm12, %%xmm8\n\taddps %%xmm13, %%xmm9\n\tmulps %%xmm12, %%xmm10\n\taddps %%xmm13, %%xmm11\n\t"
                     "dec %[n]\n\tjnz 1b\n\t"
                     : [n] "+r"(n) : [one] "m"(one) : CLOBBER16, "cc");
}

__attribute__((target("avx512f,avx512bf16"))) static void loop_dpbf16(long n)
{
    uint32_t ones = 0x3f803f80u;
#define DP(i) "vdpbf16ps %%zmm16, %%zmm17, %%zmm" #i "\n\t"
    __asm__ volatile("vpbroadcastd %[ones], %%zmm16\n\tvpbroadcastd %[ones], %%zmm17\n\t"
                     "1:\n\t" DP(0) DP(1) DP(2) DP(3) DP(4) DP(5) DP(6) DP(7) DP(8) DP(9) DP(10) DP(11) DP(12) DP(13) DP(14) DP(15)
                     "dec %[n]\n\tjnz 1b\n\tvzeroupper\n\t"
                     : [n] "+r"(n) : [ones] "m"(ones) : CLOBBER16, "xmm16", "xmm17", "cc");
#undef DP
}

/* Six accumulator tiles against one A and one B tile loaded once. */
static void loop_amx(long n)
{
    static const uint16_t ones[16 * 32] = { [0 ... 511] = 0x3f80 };
    struct __attribute__((packed)) {
        uint8_t palette, start_row, reserved[14];
        uint16_t colsb[16];
        uint8_t rows[16];
    } cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < 8; t++) {
        cfg.colsb[t] = 64;
        cfg.rows[t] = 16;
    }
#define TD(i) "tdpbf16ps %%tmm7, %%tmm6, %%tmm" #i "\n\t"
    __asm__ volatile("ldtilecfg %[cfg]\n\t"
                     "tilezero %%tmm0\n\ttilezero %%tmm1\n\ttilezero %%tmm2\n\ttilezero %%tmm3\n\ttilezero %%tmm4\n\ttilezero %%tmm5\n\t"
                     "tileloadd (%[src],%[stride],1), %%tmm6\n\ttileloadd (%[src],%[stride],1), %%tmm7\n\t"
                     "1:\n\t" TD(0) TD(1) TD(2) TD(3) TD(4) TD(5) "dec %[n]\n\tjnz 1b\n\t"
                     "tilerelease\n\t"
                     : [n] "+r"(n)
                     : [cfg] "m"(cfg), [src] "r"(ones), [stride] "r"((long)64)
                     : "memory", "cc");
#undef TD
}
#endif

#if defined(__aarch64__)
#define NEON12(OP, T) \
    OP " v0." T ", v12." T2 ", v13." T2 "\n\t" OP " v1." T ", v12." T2 ", v13." T2 "\n\t" \
    OP " v2." T ", v12." T2 ", v13." T2 "\n\t" OP " v3." T ", v12." T2 ", v13." T2 "\n\t" \
    OP " v4." T ", v12." T2 ", v13." T2 "\n\t" OP " v5." T ", v12." T2 ", v13." T2 "\n\t" \
    OP " v6." T ", v12." T2 ", v13." T2 "\n\t" OP " v7." T ", v12." T2 ", v13." T2 "\n\t" \
    OP " v8." T ", v12." T2 ", v13." T2 "\n\t" OP " v9." T ", v12." T2 ", v13." T2 "\n\t" \
    OP " v10." T ", v12." T2 ", v13." T2 "\n\t" OP " v11." T ", v12." T2 ", v13." T2 "\n\t"
#define NEON_CLOBBER "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "cc"

static void loop_neon_fmla(long n)
{
#define T2 "4s"
    __asm__ volatile("movi v12.4s, #0\n\tmovi v13.4s, #0\n\t"
                     "1:\n\t" NEON12("fmla", "4s") "subs %[n], %[n], #1\n\tb.ne 1b\n\t"
                     : [n] "+r"(n) : : NEON_CLOBBER);
#undef T2
}

static void loop_neon_bfdot(long n)
{
#define T2 "8h"
    __asm__ volatile(".arch_extension bf16\n\tmovi v12.4s, #0\n\tmovi v13.4s, #0\n\t"
                     "1:\n\t" NEON12("bfdot", "4s") "subs %[n], %[n], #1\n\tb.ne 1b\n\t"
                     : [n] "+r"(n) : : NEON_CLOBBER);
#undef T2
}
#endif

static void run_loop(Loop l, long n)
{
    switch (l) {
#if defined(__x86_64__)
    case LOOP_ZMM_FMA: loop_zmm_fma(n); break;
    case LOOP_YMM_FMA: loop_ymm_fma(n); break;
    case LOOP_XMM_MULADD: loop_xmm_muladd(n); break;
    case LOOP_DPBF16: loop_dpbf16(n); break;
    case LOOP_AMX: loop_amx(n); break;
#endif
#if defined(__aarch64__)
    case LOOP_NEON_FMLA: loop_neon_fmla(n); break;
    case LOOP_NEON_BFDOT: loop_neon_bfdot(n); break;
#endif
    default: break;
    }
}

/* Whether this CPU runs loop l (the target's features said it should; this
 * guards against a --target the CPU lacks, which the JIT refuses anyway). */
static bool cpu_runs(Loop l)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (l) {
    case LOOP_ZMM_FMA: return __builtin_cpu_supports("avx512f");
    case LOOP_YMM_FMA: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case LOOP_XMM_MULADD: return true;
    case LOOP_DPBF16: return __builtin_cpu_supports("avx512bf16");
    case LOOP_AMX: return __builtin_cpu_supports("amx-bf16") && tk_cpu_amx_permit();
    default: return false;
    }
#elif defined(__aarch64__)
    return l == LOOP_NEON_FMLA || l == LOOP_NEON_BFDOT;   /* bfdot only when the target (the host's features) says +bf16 */
#else
    (void)l;
    return false;
#endif
}

/* ------------------------------------------------------------ threads */

/* Workers start only once all of them exist (`go`), so that a thread that
 * cannot be created leaves none waiting at a barrier it will never fill. */
typedef struct {
    Loop loop;
    double *cpu_s;   /* per thread: CPU seconds of its share in the current trial */
    pthread_barrier_t bar;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int go;   /* 0 wait, 1 run the trials, -1 leave */
} Probe;

typedef struct {
    Probe *pr;
    int index;
} WorkerArg;

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One thread's share of a trial: the loop, timed by the thread's own CPU clock. */
static void timed_share(Probe *pr, int index)
{
    double t0 = thread_cpu_s();
    run_loop(pr->loop, LOOPS[pr->loop].iters);
    pr->cpu_s[index] = thread_cpu_s() - t0;
}

static void *worker(void *arg)
{
    WorkerArg *wa = arg;
    Probe *pr = wa->pr;
    pthread_mutex_lock(&pr->lock);
    while (pr->go == 0) pthread_cond_wait(&pr->cond, &pr->lock);
    int go = pr->go;
    pthread_mutex_unlock(&pr->lock);
    for (int t = 0; go > 0 && t < PROBE_TRIALS; t++) {
        pthread_barrier_wait(&pr->bar);
        timed_share(pr, wa->index);
        pthread_barrier_wait(&pr->bar);
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void release(Probe *pr, int go)
{
    pthread_mutex_lock(&pr->lock);
    pr->go = go;
    pthread_cond_broadcast(&pr->cond);
    pthread_mutex_unlock(&pr->lock);
}

/* Best GFLOP/s of `threads` threads running loop l together (the sum of
 * each thread's work over its CPU time); 0 if they could not all start. */
static double probe(Loop l, int threads)
{
    if (threads > PROBE_MAX_THREADS) threads = PROBE_MAX_THREADS;
    Probe pr = { .loop = l };
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    WorkerArg *args = calloc((size_t)threads, sizeof *args);
    pr.cpu_s = calloc((size_t)threads, sizeof *pr.cpu_s);
    if (!tid || !args || !pr.cpu_s || pthread_barrier_init(&pr.bar, NULL, (unsigned)threads) != 0) {
        free(tid);
        free(args);
        free(pr.cpu_s);
        return 0;
    }
    pthread_mutex_init(&pr.lock, NULL);
    pthread_cond_init(&pr.cond, NULL);
    int started = 1;   /* thread 0 is this one */
    for (; started < threads; started++) {
        args[started] = (WorkerArg){ &pr, started };
        if (pthread_create(&tid[started], NULL, worker, &args[started]) != 0) break;
    }
    double best = 0, work = LOOPS[l].flops_per_iter * (double)LOOPS[l].iters;
    if (started == threads) {
        release(&pr, 1);
        for (int t = 0; t < PROBE_TRIALS; t++) {
            pthread_barrier_wait(&pr.bar);
            timed_share(&pr, 0);
            pthread_barrier_wait(&pr.bar);   /* every share is done and recorded */
            double g = 0;
            for (int i = 0; i < threads; i++) g += pr.cpu_s[i] > 0 ? work / pr.cpu_s[i] * 1e-9 : 0;
            if (g > best) best = g;
        }
    } else {
        release(&pr, -1);
    }
    for (int t = 1; t < started; t++) pthread_join(tid[t], NULL);
    free(tid);
    free(args);
    free(pr.cpu_s);
    pthread_cond_destroy(&pr.cond);
    pthread_mutex_destroy(&pr.lock);
    pthread_barrier_destroy(&pr.bar);
    return best;
}

/* ------------------------------------------------------------ the cache */

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The first processor's model and feature lines of /proc/cpuinfo (x86:
 * model name, flags; AArch64: CPU implementer/part, Features). */
static uint64_t machine_key(uint64_t h)
{
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp) return h;
    char line[8192];
    static const char *keys[] = { "model name", "flags", "Features", "CPU implementer", "CPU part", "CPU variant" };
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '\n') break;   /* end of the first processor */
        for (unsigned k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (strncmp(line, keys[k], strlen(keys[k])) == 0) h = fnv1a(h, line, strlen(line));
    }
    fclose(fp);
    return h;
}

static bool cache_path(Loop l, int threads, char *path, size_t len)
{
    char dir[3900];
    if (tk_cpu_cache_dir(dir, sizeof dir) != 0) return false;
    char what[64];
    int n = snprintf(what, sizeof what, "%s|%s|%d", PROBE_VERSION, LOOPS[l].name, threads);
    uint64_t h = machine_key(fnv1a(0xcbf29ce484222325ull, what, (size_t)n));
    return snprintf(path, len, "%s/peak-%016llx", dir, (unsigned long long)h) < (int)len;
}

static double cache_read(const char *path)
{
    FILE *fp = fopen(path, "r");
    double g = 0;
    if (!fp) return 0;
    if (fscanf(fp, "%lf", &g) != 1 || !(g > 0)) g = 0;
    fclose(fp);
    return g;
}

/* Best effort: a cache that cannot be written costs the next run a probe. */
static void cache_write(const char *path, double g, Loop l, int threads)
{
    char dir[4096], tmp[4200];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) return;
    *slash = '\0';
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            (void)mkdir(dir, 0777);
            *p = '/';
        }
    (void)mkdir(dir, 0777);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *fp = fopen(tmp, "w");
    if (!fp) return;
    fprintf(fp, "%.3f\n# GFLOP/s of %s on %d thread%s, measured by tkc run (tools/tkc/peak_probe.c)\n", g, LOOPS[l].name, threads,
            threads == 1 ? "" : "s");
    if (fclose(fp) == 0 && rename(tmp, path) == 0) return;
    remove(tmp);
}

/* ------------------------------------------------------------ choosing */

static bool has_feature(const char *features, const char *f)
{
    size_t n = strlen(f);
    for (const char *p = features ? features : ""; (p = strstr(p, f)) != NULL; p += n)
        if ((p == features || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return true;
    return false;
}

/* The loop the target's micro-kernels run for this operand type. */
static Loop choose_loop(const char *features, bool bf16)
{
#if defined(__x86_64__)
    if (bf16 && has_feature(features, "+amx-bf16") && has_feature(features, "+amx-tile")) return LOOP_AMX;
    if (bf16 && has_feature(features, "+avx512bf16")) return LOOP_DPBF16;
    if (has_feature(features, "+avx512f")) return LOOP_ZMM_FMA;
    if (has_feature(features, "+avx2") && has_feature(features, "+fma")) return LOOP_YMM_FMA;
    return LOOP_XMM_MULADD;
#elif defined(__aarch64__)
    if (bf16 && has_feature(features, "+bf16")) return LOOP_NEON_BFDOT;
    return LOOP_NEON_FMLA;
#else
    (void)features;
    (void)bf16;
    return LOOP_NONE;
#endif
}

static double now_ms(void) { return now_s() * 1e3; }

void run_peak(int threads, bool bf16, const char *features, RunPeak *out)
{
    memset(out, 0, sizeof *out);
    const char *var = bf16 ? "TK_PEAK_GFLOPS_BF16" : "TK_PEAK_GFLOPS_F32";
    const char *env = getenv(var);
    if (env && atof(env) > 0) {
        out->gflops = threads * atof(env);
        snprintf(out->basis, sizeof out->basis, "$%s per thread x %d", var, threads);
        return;
    }
    Loop l = choose_loop(features, bf16);
    if (l == LOOP_NONE || !cpu_runs(l)) {
        snprintf(out->basis, sizeof out->basis, "unknown (no probe for this CPU; set %s)", var);
        return;
    }
    char path[4096];
    bool cacheable = cache_path(l, threads, path, sizeof path);
    if (cacheable && (out->gflops = cache_read(path)) > 0) {
        out->cached = true;
        snprintf(out->basis, sizeof out->basis, "measured: %s on %d thread%s (cached)", LOOPS[l].name, threads, threads == 1 ? "" : "s");
        return;
    }
    double t0 = now_ms();
    out->gflops = probe(l, threads);
    out->probe_ms = now_ms() - t0;
    if (!(out->gflops > 0)) {
        out->gflops = 0;
        snprintf(out->basis, sizeof out->basis, "unknown (the probe could not run; set %s)", var);
        return;
    }
    if (cacheable) cache_write(path, out->gflops, l, threads);
    snprintf(out->basis, sizeof out->basis, "measured: %s on %d thread%s (probe %.0f ms)", LOOPS[l].name, threads,
             threads == 1 ? "" : "s", out->probe_ms);
}
