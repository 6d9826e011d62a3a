/* run.c — see run.h. This is the edit-compile-measure loop for people and
 * agents writing kernels:
 *
 *   tkc run examples/gemm.tk --kernel gemm --size M=512,N=512,K=512 --check --json
 *
 * Pipeline: load → check → TIR → JIT → bind sizes → random inputs → run →
 * (check against tir_interp in double) → time (median of repeats). */
#define _DEFAULT_SOURCE   /* madvise(MADV_HUGEPAGE) */
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "cpu_jit.h"
#include "evict_caches.h"
#include "front.h"
#include "launch.h"
#include "lower.h"
#include "tir_bind.h"
#include "tir_flops.h"
#include "tir_interp.h"
#include "tk/dtype.h"

typedef struct {
    const char *file;
    const char *kernel;
    const char *sizes;      /* "M=512,N=512" */
    const char *sets[32];   /* "name=value" for scalar parameters */
    int nsets;
    bool check, json;
    bool generic;           /* --generic: do not specialise on the sizes */
    bool debug;             /* -g: line tables, and the JIT registers the code with gdb */
    const char *target;
    int threads, repeat;
    int warmup;             /* --warmup N: untimed launches before timing (caches, pages, thread pool) */
    bool times;             /* --times: the JSON carries every timed launch, for harnesses that pool runs */
    bool cold;              /* --cold: evict the caches before every timed launch (a decode step's weights come from DRAM) */
    unsigned long long seed;
} RunOptions;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- numbers */

static unsigned long long rng_next(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---------------------------------------------------------------- arguments */

static int usage_error(const char *msg)
{
    fprintf(stderr, "tkc run: %s\n"
                    "usage: tkc run FILE.tk [--kernel NAME] --size M=512,N=512,... [--set name=value]... [--target=T]\n"
                    "                       [--check] [--json] [--threads N] [--repeat N] [--seed S] [--generic] [-g]\n"
                    "                       [--warmup N] [--times] [--cold]\n",
            msg);
    return 2;
}

static int parse(int argc, char **argv, RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 0x9e3779b97f4a7c15ull;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--check") == 0) o->check = true;
        else if (strcmp(a, "--json") == 0) o->json = true;
        else if (strcmp(a, "--generic") == 0) o->generic = true;
        else if (strcmp(a, "-g") == 0) o->debug = true;
        else if (strcmp(a, "--kernel") == 0 && next) o->kernel = argv[++i];
        else if (strncmp(a, "--target=", 9) == 0) o->target = a + 9;
        else if (strcmp(a, "--size") == 0 && next) o->sizes = argv[++i];
        else if (strcmp(a, "--set") == 0 && next) {
            if (o->nsets < 32) o->sets[o->nsets++] = argv[++i];
        } else if (strcmp(a, "--threads") == 0 && next) o->threads = atoi(argv[++i]);
        else if (strcmp(a, "--repeat") == 0 && next) o->repeat = atoi(argv[++i]);
        else if (strcmp(a, "--warmup") == 0 && next) o->warmup = atoi(argv[++i]);
        else if (strcmp(a, "--times") == 0) o->times = true;
        else if (strcmp(a, "--cold") == 0) o->cold = true;
        else if (strcmp(a, "--seed") == 0 && next) o->seed = strtoull(argv[++i], NULL, 0) | 1;
        else if (a[0] == '-') {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown or incomplete option '%s'", a);
            return usage_error(msg);
        } else if (!o->file) o->file = a;
        else return usage_error("one .tk file at a time");
    }
    if (!o->file) return usage_error("no input file");
    return 0;
}

/* Binds `--size` to the kernel's size variables, by name. */
static int parse_sizes(const RunOptions *o, const TirFunc *f, int64_t *sizes, char *err, size_t errlen)
{
    unsigned n = f->sizes ? f->sizes->count : 0;
    bool seen[TK_MAX_SIZES] = { false };
    const char *p = o->sizes ? o->sizes : "";
    while (*p) {
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end) {
            snprintf(err, errlen, "--size wants NAME=VALUE pairs separated by commas, got '%.*s'", (int)(end - p), p);
            return -1;
        }
        unsigned k = 0;
        while (k < n && (strlen(f->sizes->names[k]) != (size_t)(eq - p) || strncmp(f->sizes->names[k], p, (size_t)(eq - p)) != 0)) k++;
        if (k == n) {
            snprintf(err, errlen, "kernel %s has no size '%.*s'", f->name, (int)(eq - p), p);
            return -1;
        }
        char *stop;
        errno = 0;
        long long v = strtoll(eq + 1, &stop, 10);
        if (stop != end || errno || v < 0 || v > INT32_MAX) {
            snprintf(err, errlen, "size %s: '%.*s' is not a size (0 .. 2147483647)", f->sizes->names[k], (int)(end - eq - 1), eq + 1);
            return -1;
        }
        sizes[k] = v;
        seen[k] = true;
        p = *end ? end + 1 : end;
    }
    for (unsigned k = 0; k < n; k++) {
        if (!seen[k]) {
            snprintf(err, errlen, "--size must give %s (kernel %s has sizes:", f->sizes->names[k], f->name);
            for (unsigned j = 0; j < n; j++) {
                size_t len = strlen(err);
                snprintf(err + len, errlen - len, " %s", f->sizes->names[j]);
            }
            size_t len = strlen(err);
            snprintf(err + len, errlen - len, ")");
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the run */

typedef struct {
    unsigned n;
    void *data[64];             /* what the JIT sees */
    void *initial[64];          /* copy of the starting contents */
    int64_t count[64];
    double scalar[64];          /* scalar values (as double, for the interpreter) */
    unsigned char scalar_mem[64][8];
    TkArg args[64];
} Args;

static void free_args(Args *A)
{
    for (unsigned p = 0; p < A->n; p++) {
        free(A->data[p]);
        free(A->initial[p]);
    }
}

/* A tensor's memory, as the bench's peer drivers get theirs (bench/peers/
 * driver.c): from 4 MiB up, 2 MiB aligned and backed by huge pages where the
 * kernel offers them (madvise mode), so that streaming a weight matrix is not
 * a TLB miss every 4 KiB; else 64-byte aligned. Freed with free(). */
static void *alloc_tensor(size_t bytes)
{
    void *p = NULL;
    size_t big = (size_t)4 << 20, align = bytes >= big ? (size_t)2 << 20 : 64;
    if (posix_memalign(&p, align, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= big) (void)madvise(p, bytes, MADV_HUGEPAGE);   /* advice only: 4 KiB pages otherwise */
#endif
    return p;
}

static int make_args(const RunOptions *o, const TirFunc *f, const int64_t *sizes, Args *A, char *err, size_t errlen)
{
    memset(A, 0, sizeof *A);
    if (f->nparams > 64) {
        snprintf(err, errlen, "too many parameters");
        return -1;
    }
    A->n = f->nparams;
    unsigned long long rng = o->seed;
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (t->kind == TK_TY_GL) {
            int64_t n = tir_tensor_elements(f, p, sizes);
            size_t bytes = (size_t)(n > 0 ? n : 1) * tir_elem_size(t->elem);
            A->data[p] = alloc_tensor(bytes);
            A->initial[p] = malloc(bytes);
            if (!A->data[p] || !A->initial[p]) {
                snprintf(err, errlen, "out of memory for tensor %s (%lld elements)", f->params[p].name, (long long)n);
                return -1;
            }
            for (int64_t i = 0; i < n; i++) {
                double u = (double)(rng_next(&rng) >> 11) / 9007199254740992.0;   /* [0, 1) */
                tir_elem_set(t->elem, A->data[p], i, 2.0 * u - 1.0);
            }
            memcpy(A->initial[p], A->data[p], bytes);
            A->count[p] = n;
            A->args[p].data = A->data[p];
            A->args[p].rank = t->rank;
            for (unsigned d = 0; d < t->rank; d++) A->args[p].shape[d] = tir_tensor_dim(f, p, d, sizes);
            continue;
        }
        /* scalars: 1 for numbers, false for bool, unless --set says otherwise */
        double v = t->kind == TK_TY_BOOL ? 0 : 1;
        for (int s = 0; s < o->nsets; s++) {
            size_t len = strlen(f->params[p].name);
            if (strncmp(o->sets[s], f->params[p].name, len) == 0 && o->sets[s][len] == '=') {
                const char *val = o->sets[s] + len + 1;
                v = strcmp(val, "true") == 0 ? 1 : strcmp(val, "false") == 0 ? 0 : strtod(val, NULL);
            }
        }
        A->scalar[p] = v;
        switch (t->kind) {
        case TK_TY_BOOL: A->scalar_mem[p][0] = v != 0; break;
        case TK_TY_I32: { int32_t x = (int32_t)v; memcpy(A->scalar_mem[p], &x, 4); break; }
        case TK_TY_I64: { int64_t x = (int64_t)v; memcpy(A->scalar_mem[p], &x, 8); break; }
        case TK_TY_F32: { float x = (float)v; memcpy(A->scalar_mem[p], &x, 4); A->scalar[p] = x; break; }
        case TK_TY_BF16: { uint16_t x = tk_bf16_from_f32((float)v); memcpy(A->scalar_mem[p], &x, 2); A->scalar[p] = tk_bf16_to_f32(x); break; }
        case TK_TY_F16: { uint16_t x = tk_f16_from_f32((float)v); memcpy(A->scalar_mem[p], &x, 2); A->scalar[p] = tk_f16_to_f32(x); break; }
        default: break;
        }
        A->data[p] = NULL;
        A->args[p].data = A->scalar_mem[p];
    }
    for (unsigned s = 0; s < (unsigned)o->nsets; s++) {
        bool found = false;
        for (unsigned p = 0; p < f->nparams; p++) {
            size_t len = strlen(f->params[p].name);
            if (f->params[p].type->kind != TK_TY_GL && strncmp(o->sets[s], f->params[p].name, len) == 0 && o->sets[s][len] == '=')
                found = true;
        }
        if (!found) {
            snprintf(err, errlen, "--set %s: kernel %s has no scalar parameter of that name", o->sets[s], f->name);
            return -1;
        }
    }
    return 0;
}

typedef struct {
    bool ran;
    bool correct;
    double max_abs, max_rel;
    const char *worst;   /* tensor with the largest error */
    int64_t nan_outputs; /* NaN in both: the kernel as written produces NaN */
} Check;

/* Tolerance: |got - want| <= atol + rtol·|want|, by the tensor's element type;
 * bf16/f16 outputs carry their own rounding (2^-8, 2^-11 relative). */
static int check_against_reference(const TirFunc *f, const int64_t *sizes, Args *A, Check *c, char *err, size_t errlen)
{
    double *ref[64] = { 0 };
    int rc = 0;
    for (unsigned p = 0; p < A->n && rc == 0; p++) {
        if (f->params[p].type->kind != TK_TY_GL) continue;
        ref[p] = malloc(sizeof(double) * (size_t)(A->count[p] > 0 ? A->count[p] : 1));
        if (!ref[p]) {
            snprintf(err, errlen, "out of memory for the reference");
            rc = -1;
            break;
        }
        for (int64_t i = 0; i < A->count[p]; i++) ref[p][i] = tir_elem_get(f->params[p].type->elem, A->initial[p], i);
    }
    if (rc == 0) rc = tir_interp_run(f, ref, A->scalar, sizes, err, errlen);
    if (rc == 0) {
        c->ran = true;
        c->correct = true;
        for (unsigned p = 0; p < A->n; p++) {
            const TkType *t = f->params[p].type;
            if (t->kind != TK_TY_GL) continue;
            double rtol = t->elem == TK_TY_F32 ? 1e-4 : t->elem == TK_TY_BF16 ? 1.6e-2 : 2e-3;
            double atol = t->elem == TK_TY_F32 ? 1e-4 : 1.6e-2;
            for (int64_t i = 0; i < A->count[p]; i++) {
                double got = tir_elem_get(t->elem, A->data[p], i), want = ref[p][i];
                double d = fabs(got - want);
                if (isnan(got)) c->nan_outputs++;
                if (isnan(got) != isnan(want) || (!isnan(d) && d > atol + rtol * fabs(want)) ||
                    (isinf(want) && got != want))
                    c->correct = false;
                if (!isnan(d) && !isinf(want)) {
                    if (d > c->max_abs) {
                        c->max_abs = d;
                        c->worst = f->params[p].name;
                    }
                    double r = d / (fabs(want) > 1e-30 ? fabs(want) : 1e-30);
                    if (fabs(want) > 1e-6 && r > c->max_rel) c->max_rel = r;
                }
            }
        }
    }
    for (unsigned p = 0; p < 64; p++) free(ref[p]);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Peak of the host for mma FLOPs: cores × clock × FLOPs per cycle from the
 * widest FMA the CPU has (AVX-512: 2×16×2 f32; AVX512-BF16 vdpbf16ps: 2×32×2;
 * AMX tdpbf16ps: 16×16×32×2 per 16 cycles, where Linux grants the tiles). */
static double host_peak_gflops(int threads, bool bf16, const char **basis)
{
    /* A measured peak beats the estimate (a VM's /proc/cpuinfo often shows the
     * base clock, not the one the cores run at): TK_PEAK_GFLOPS per thread. */
    const char *env = getenv(bf16 ? "TK_PEAK_GFLOPS_BF16" : "TK_PEAK_GFLOPS_F32");
    if (env && atof(env) > 0) {
        *basis = bf16 ? "measured, $TK_PEAK_GFLOPS_BF16 per thread" : "measured, $TK_PEAK_GFLOPS_F32 per thread";
        return threads * atof(env);
    }
    double mhz = 0;
    FILE *fp = fopen("/proc/cpuinfo", "r");
    bool avx512 = false, avx512bf16 = false, avx2 = false, amx = false;
    if (fp) {
        char line[4096];
        while (fgets(line, sizeof line, fp)) {
            if (mhz == 0 && strncmp(line, "cpu MHz", 7) == 0) {
                const char *c = strchr(line, ':');
                if (c) mhz = atof(c + 1);
            }
            if (strncmp(line, "flags", 5) == 0) {
                avx512 = strstr(line, " avx512f") != NULL;
                avx512bf16 = strstr(line, " avx512_bf16") != NULL;
                avx2 = strstr(line, " avx2") != NULL;
                amx = strstr(line, " amx_bf16") && strstr(line, " amx_tile");
            }
        }
        fclose(fp);
    }
    if (mhz <= 0) {
        *basis = "unknown clock";
        return 0;
    }
    /* FLOPs per cycle per core: 2 units × lanes × 2 (multiply and add) */
    amx = amx && avx512bf16 && tk_cpu_amx_permit();   /* the host target uses AMX just then */
    double per_cycle = bf16 && amx ? 1024 : bf16 && avx512bf16 ? 128 : avx512 ? 64 : avx2 ? 32 : 4;
    *basis = bf16 && amx        ? "AMX tdpbf16ps, 1 per 16 cycles at the /proc/cpuinfo clock"
           : bf16 && avx512bf16 ? "vdpbf16ps zmm, 2/cycle at the /proc/cpuinfo clock"
           : avx512            ? "f32 FMA zmm, 2/cycle at the /proc/cpuinfo clock"
           : avx2              ? "f32 FMA ymm, 2/cycle at the /proc/cpuinfo clock"
                               : "scalar";
    return threads * mhz * 1e-3 * per_cycle;
}

int tkc_run(int argc, char **argv)
{
    RunOptions o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    char err[512] = "";
    TkFront f;
    if (tk_front_load(&f, o.file) != 0) {
        fprintf(stderr, "tkc: cannot read '%s': %s\n", o.file, strerror(errno));
        return 2;
    }
    int status = 0;
    TkCpuModule *mod = NULL;
    Args A;
    memset(&A, 0, sizeof A);
    tk_front_parse(&f);
    tk_front_check(&f);
    TirModule m;
    int64_t sizes[TK_MAX_SIZES] = { 0 };
    bool compiled = false, cache_hit = false;
    double compile_ms = 0;
    const TirFunc *fn = NULL;
    if (f.diags.errors) {
        tk_diags_print_text(&f.diags, stderr);
        snprintf(err, sizeof err, "%s has errors", o.file);
        status = 1;
    } else if (tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items) != 0 || tir_verify(&m, stderr) != 0) {
        tk_diags_print_text(&f.diags, stderr);
        snprintf(err, sizeof err, "internal error while lowering %s", o.file);
        status = 1;
    } else {
        for (const TirFunc *k = m.funcs; k; k = k->next)
            if (o.kernel ? strcmp(k->name, o.kernel) == 0 : !fn) fn = k;
        if (!fn) {
            snprintf(err, sizeof err, o.kernel ? "no kernel named '%s' in %s" : "%s%s has no kernel", o.kernel ? o.kernel : "", o.file);
            status = 2;
        } else if (!o.kernel && m.funcs->next) {
            snprintf(err, sizeof err, "%s has several kernels; choose one with --kernel", o.file);
            status = 2;
        } else if (parse_sizes(&o, fn, sizes, err, sizeof err) != 0) {
            status = 2;
        } else {
            /* the sizes are known: compile the kernel specialised for them */
            TkCpuJitOptions jo = { .target = o.target, .opt_level = 3, .debug_info = o.debug, .compile_ms = &compile_ms,
                                   .cache_hit = &cache_hit };
            if (!o.generic) {
                jo.specialise_kernel = fn->name;
                jo.specialise_sizes = sizes;
                jo.specialise_count = fn->sizes ? fn->sizes->count : 0;
            }
            if (tk_cpu_jit(&m, &jo, &mod, err, sizeof err) == 0) compiled = true;
            else status = 1;
        }
    }
    Check chk = { 0 };
    double ms = 0, spread = 0, flops = 0;
    static double times[1000], sorted[1000];   /* in launch order, and sorted for the median */
    int ntimes = 0;
    bool flops_known = false;
    int threads = tk_cpu_threads(o.threads);
    if (status == 0 && make_args(&o, fn, sizes, &A, err, sizeof err) != 0) status = 2;
    if (status == 0 && tir_bind_sizes(fn, A.args, A.n, sizes, err, sizeof err) != 0) status = 2;
    if (status == 0) {
        TkGridFn grid;
        TkBlockFn block;
        if (tk_cpu_lookup(mod, fn->name, &grid, &block, err, sizeof err) != 0) status = 1;
        void *ptrs[64];
        for (unsigned p = 0; p < A.n; p++) ptrs[p] = A.args[p].data;
        /* first run: the one that is checked */
        if (status == 0 && tk_cpu_launch(grid, block, ptrs, sizes, threads, err, sizeof err) != 0) status = 1;
        if (status == 0 && o.check && check_against_reference(fn, sizes, &A, &chk, err, sizeof err) != 0) status = 1;
        if (status == 0 && o.check && !chk.correct) status = 1;
        for (int w = 0; status == 0 && w < o.warmup; w++) tk_cpu_launch(grid, block, ptrs, sizes, threads, err, sizeof err);
        /* timing: median of repeats (at least 3, until ~0.5 s). A repeat of a
         * launch shorter than 0.1 ms is the mean of as many back-to-back launches
         * as make 0.1 ms, as the bench's peers are timed (bench/peers/driver.c).
         * --cold: one launch per repeat, after evicting the caches. */
        int n = 0, want = o.repeat > 0 ? o.repeat : 1000, inner = 1;
        if (status == 0 && !o.cold) {
            double t0 = now_ms();
            tk_cpu_launch(grid, block, ptrs, sizes, threads, err, sizeof err);
            double one = now_ms() - t0;
            if (one < 0.1) inner = (int)(0.1 / (one > 1e-5 ? one : 1e-5)) + 1;
            if (inner > 100000) inner = 100000;
        }
        double start = now_ms();
        while (status == 0 && n < want && n < 1000) {
            if (o.cold) tk_evict_caches(threads);
            double t0 = now_ms();
            for (int r = 0; r < inner; r++) tk_cpu_launch(grid, block, ptrs, sizes, threads, err, sizeof err);
            times[n++] = (now_ms() - t0) / inner;
            if (o.repeat <= 0 && n >= 3 && now_ms() - start > 500) break;
        }
        ntimes = n;
        if (n > 0) {
            memcpy(sorted, times, sizeof(double) * (size_t)n);
            qsort(sorted, (size_t)n, sizeof sorted[0], cmp_double);
            ms = sorted[n / 2];
            spread = sorted[n - 1] - sorted[0];
        }
        flops_known = tir_count_flops(fn, A.scalar, sizes, &flops);
    }
    bool bf16 = false;
    if (fn)
        for (unsigned p = 0; p < fn->nparams; p++)
            if (fn->params[p].type->kind == TK_TY_GL && fn->params[p].type->elem == TK_TY_BF16) bf16 = true;
    const char *basis = "";
    double peak = host_peak_gflops(threads, bf16, &basis);
    double gflops = flops_known && ms > 0 ? flops / (ms * 1e6) : 0;
    if (o.json) {
        printf("{\"file\":\"%s\",\"kernel\":\"%s\",\"target\":\"%s\",\"compiled\":%s,\"compile_ms\":%.1f,\"cache_hit\":%s,", o.file,
               fn ? fn->name : "", o.target ? o.target : "host", compiled ? "true" : "false", compile_ms, cache_hit ? "true" : "false");
        if (chk.ran)
            printf("\"correct\":%s,\"max_abs_err\":%.3g,\"max_rel_err\":%.3g,\"nan_outputs\":%lld,", chk.correct ? "true" : "false",
                   chk.max_abs, chk.max_rel, (long long)chk.nan_outputs);
        else printf("\"correct\":null,");
        printf("\"ms\":%.6f,\"spread_ms\":%.6f,\"threads\":%d,", ms, spread, threads);
        if (o.times) {
            printf("\"times_ms\":[");
            for (int i = 0; i < ntimes; i++) printf("%s%.6f", i ? "," : "", times[i]);
            printf("],");
        }
        if (flops_known) printf("\"gflop\":%.4f,\"gflops\":%.2f,\"peak_gflops\":%.1f,\"pct_peak\":%.2f,", flops / 1e9, gflops, peak,
                                peak > 0 ? 100 * gflops / peak : 0);
        printf("\"error\":");
        if (status) {
            putchar('"');
            for (const char *c = err; *c; c++) {
                if (*c == '"' || *c == '\\') putchar('\\');
                putchar(*c >= 0x20 ? *c : ' ');
            }
            putchar('"');
        } else {
            printf("null");
        }
        printf("}\n");
    } else {
        printf("kernel    %s (%s)\n", fn ? fn->name : "?", o.file);
        printf("compiled  %s", compiled ? "yes" : "no");
        if (compiled)
            printf(" (%.1f ms, %s JIT, O3, %s%s)", compile_ms, o.target ? o.target : "host", o.generic ? "generic" : "specialised for the sizes",
                   cache_hit ? ", from the cache" : "");
        printf("\n");
        if (chk.ran)
            printf("correct   %s (max abs error %.3g in %s, max rel error %.3g, vs double-precision interpreter)\n",
                   chk.correct ? "yes" : "NO", chk.max_abs, chk.worst ? chk.worst : "-", chk.max_rel);
        if (chk.ran && chk.nan_outputs)
            printf("warning   %lld output elements are NaN (the reference agrees: the kernel as written produces them)\n",
                   (long long)chk.nan_outputs);
        if (status == 0 || chk.ran) {
            printf("time      %.4g ms (median, spread %.2g ms, %d thread%s)\n", ms, spread, threads, threads == 1 ? "" : "s");
            if (flops_known && flops > 0)
                printf("speed     %.2f GFLOP/s (%.3f GFLOP of mma), %.1f%% of %.0f GFLOP/s peak (%s)\n", gflops, flops / 1e9,
                       peak > 0 ? 100 * gflops / peak : 0, peak, basis);
        }
        if (status) fprintf(stderr, "tkc run: %s\n", err);
    }
    free_args(&A);
    tk_cpu_module_free(mod);
    tk_front_free(&f);
    return status;
}
