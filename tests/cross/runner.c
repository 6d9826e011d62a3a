/* runner.c — the target half of the cross numeric test and of the stdlib
 * numeric test (see gen.c for the data file and the tolerances). Plain C:
 * tk/rt.h, targets/cpu/launch.c, the objects `tkc -c --target=T` made of the
 * files in the kernel directory (tests/cross/kernels, stdlib-kernels) and the
 * registry the generator wrote (cases.c). Built for the target (AArch64:
 * statically, run under qemu-aarch64-static -cpu max).
 *
 *   cross_runner DATA [--threads N] [--filter TEXT] [--verbose] [--stats]
 *
 * For each case: the initial contents into buffers of the tensors' element
 * types, tk_rt_launch (N threads, default 2), then every tensor compared
 * element by element with the interpreter's final contents. Prints one line
 * per differing element (at most 8 per tensor, then a count), and at the end
 *   cross_numeric: N passed, M failed
 * (cases; "stdlib_numeric" for the stdlib test, TK_CROSS_SUITE). --verbose prints every case with its time, --stats the largest
 * difference of each case (in ulps of the element type and as a fraction of
 * atol + rtol·|want|): how much of the tolerance a case uses. Exit status 0 if nothing failed, 1 if something did, 2 if the data
 * file cannot be read. Cases the manifest marks xfail=THIS_TARGET (known code
 * generation bugs) are run and reported (XFAIL / XPASS) but not counted as
 * failures. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tk/dtype.h"
#include "tk/rt.h"

#ifndef TK_CROSS_TARGET
#define TK_CROSS_TARGET "host"
#endif
/* the name in the summary lines: cross_numeric, stdlib_numeric */
#ifndef TK_CROSS_SUITE
#define TK_CROSS_SUITE "cross_numeric"
#endif

#define MAX_PARAMS 64
#define MAX_LINES_PER_TENSOR 8

typedef struct {
    const char *name;
    tk_grid_fn grid;
    tk_block_fn block;
} TkCrossKernel;

extern const TkCrossKernel tk_cross_kernels[];
extern const size_t tk_cross_nkernels;

/* ---------------------------------------------------------------- numbers
 * The bf16/f16 conversions are those of tools/tkc/run.c. */

enum { T_F32, T_BF16, T_F16, T_I32, T_I64, T_BOOL };
static const char *const TYPE_NAMES[] = { "f32", "bf16", "f16", "i32", "i64", "bool" };

static size_t elem_size(unsigned t) { return t == T_F32 ? 4 : 2; }

static double elem_get(unsigned t, const void *data, int64_t i)
{
    switch (t) {
    case T_F32: return ((const float *)data)[i];
    case T_BF16: return tk_bf16_to_f32(((const uint16_t *)data)[i]);
    default: return tk_f16_to_f32(((const uint16_t *)data)[i]);
    }
}

/* x rounded to the element type (RNE through f32, as the kernels store it) */
static double round_to(unsigned t, double x)
{
    switch (t) {
    case T_F32: return (float)x;
    case T_BF16: return tk_bf16_to_f32(tk_bf16_from_f32((float)x));
    default: return tk_f16_to_f32(tk_f16_from_f32((float)x));
    }
}

/* Position of finite x on the line of values of type t (consecutive values differ by 1; ±0 both 0). */
static int64_t ordinal(unsigned t, double x)
{
    int64_t u;
    if (t == T_F32) {
        float f = (float)x;
        uint32_t b;
        memcpy(&b, &f, 4);
        u = b & 0x7fffffff;
        return (b >> 31) ? -u : u;
    }
    uint16_t h = t == T_BF16 ? tk_bf16_from_f32((float)x) : tk_f16_from_f32((float)x);
    u = h & 0x7fff;
    return (h >> 15) ? -u : u;
}

/* The test of gen.c: NaN meets NaN, ±inf equal, else atol + rtol·|want| (+ the element's own bound) or ulps. */
static bool within(unsigned t, double got, double want_exact, double rtol, double atol, unsigned ulps, double bound)
{
    double want = round_to(t, want_exact);
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
    if (isinf(got) || isinf(want)) return got == want;
    if (fabs(got - want) <= atol + rtol * fabs(want) + bound) return true;
    int64_t d = ordinal(t, got) - ordinal(t, want);
    return (uint64_t)(d < 0 ? -d : d) <= ulps;
}

/* ---------------------------------------------------------------- reading */

static FILE *in;
static const char *in_path;

static void bad_data(const char *what)
{
    printf(TK_CROSS_SUITE ": cannot read %s: %s\n", in_path, what);
    exit(2);
}

static void get_bytes(void *p, size_t n)
{
    if (n && fread(p, 1, n, in) != n) bad_data("truncated");
}

static unsigned get_u8(void)
{
    unsigned char b;
    get_bytes(&b, 1);
    return b;
}

static uint32_t get_u32(void)
{
    unsigned char b[4];
    get_bytes(b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get_u64(void)
{
    unsigned char b[8];
    get_bytes(b, 8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static double get_f64(void)
{
    uint64_t u = get_u64();
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static char *get_str(void)
{
    uint32_t n = get_u32();
    if (n > (1u << 20)) bad_data("string too long");
    char *s = malloc(n + 1);
    if (!s) bad_data("out of memory");
    get_bytes(s, n);
    s[n] = '\0';
    return s;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) bad_data("out of memory");
    return p;
}

/* ---------------------------------------------------------------- cases */

typedef struct {
    char *name;
    bool tensor;
    unsigned type;
    unsigned rank;
    int64_t shape[4];
    int64_t count;
    double rtol, atol;
    unsigned ulps;
    void *data;          /* tensors: the buffer the kernel works on; scalars: the value */
    double *want;
    double *bound;       /* each element's own allowance (tol=bounds), or NULL */
} Param;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void describe_index(const Param *p, int64_t i, char *buf, size_t len)
{
    int64_t idx[4], rest = i;
    for (int d = (int)p->rank - 1; d >= 0; d--) {
        int64_t e = p->shape[d] > 0 ? p->shape[d] : 1;
        idx[d] = rest % e;
        rest /= e;
    }
    size_t o = (size_t)snprintf(buf, len, "[");
    for (unsigned d = 0; d < p->rank && o < len; d++) o += (size_t)snprintf(buf + o, len - o, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

static bool has_word(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; *p;) {
        while (*p == ' ') p++;
        const char *e = strchr(p, ' ');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == wl && strncmp(p, word, wl) == 0) return true;
        p += l;
    }
    return false;
}

int main(int argc, char **argv)
{
    int threads = 2;
    const char *filter = NULL;
    bool verbose = false, stats = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0) verbose = true;
        else if (strcmp(argv[i], "--stats") == 0) stats = true;
        else if (!in_path && argv[i][0] != '-') in_path = argv[i];
        else {
            fprintf(stderr, "usage: %s DATA [--threads N] [--filter TEXT] [--verbose] [--stats]\n", argv[0]);
            return 2;
        }
    }
    if (!in_path) {
        fprintf(stderr, "usage: %s DATA [--threads N] [--filter TEXT] [--verbose] [--stats]\n", argv[0]);
        return 2;
    }
    {
        /* the data file's numbers are little-endian and are read as they are */
        const uint16_t probe = 1;
        unsigned char first;
        memcpy(&first, &probe, 1);
        if (first != 1) bad_data("this runner assumes a little-endian host");
    }
    in = fopen(in_path, "rb");
    if (!in) bad_data("cannot open");
    char magic[8];
    get_bytes(magic, 8);
    if (memcmp(magic, "TKCROSS2", 8) != 0) bad_data("not a TKCROSS2 file");
    uint32_t ncases = get_u32();
    printf(TK_CROSS_SUITE ": target %s, %u cases from %s, %d threads\n", TK_CROSS_TARGET, ncases, in_path, threads);
    unsigned passed = 0, failed = 0, xfailed = 0, xpassed = 0, skipped = 0;
    double t_start = now_s(), slowest = 0;
    char *slowest_desc = NULL;
    for (uint32_t c = 0; c < ncases; c++) {
        char *kernel = get_str(), *desc = get_str(), *xfail = get_str();
        uint32_t nsizes = get_u32();
        if (nsizes > 64) bad_data("too many sizes");
        int64_t sizes[65];
        for (uint32_t k = 0; k < nsizes; k++) sizes[k] = (int64_t)get_u64();
        uint32_t nparams = get_u32();
        if (nparams > MAX_PARAMS) bad_data("too many parameters");
        bool selected = !filter || strstr(desc, filter);
        Param P[MAX_PARAMS];
        memset(P, 0, sizeof P);
        void *args[MAX_PARAMS];
        for (uint32_t p = 0; p < nparams; p++) {
            P[p].name = get_str();
            P[p].tensor = get_u8() == 0;
            P[p].type = get_u8();
            if (P[p].type > T_BOOL || (P[p].tensor && P[p].type > T_F16)) bad_data("bad type");
            if (!P[p].tensor) {
                uint32_t n = get_u32();
                if (n > 8) bad_data("bad scalar");
                P[p].data = xmalloc(8);
                memset(P[p].data, 0, 8);
                get_bytes(P[p].data, n);
                args[p] = P[p].data;
                continue;
            }
            P[p].rank = get_u32();
            if (P[p].rank < 1 || P[p].rank > 4) bad_data("bad rank");
            for (unsigned d = 0; d < P[p].rank; d++) P[p].shape[d] = (int64_t)get_u64();
            P[p].count = (int64_t)get_u64();
            if (P[p].count < 0 || P[p].count > ((int64_t)1 << 28)) bad_data("bad element count");
            P[p].rtol = get_f64();
            P[p].atol = get_f64();
            P[p].ulps = get_u32();
            bool has_bounds = get_u8() != 0;
            size_t es = elem_size(P[p].type), bytes = (size_t)P[p].count * es;
            if (!selected) {
                /* a case --filter leaves out: skip its data, do not decode it (under qemu that is most of the time) */
                if (fseek(in, (long)(bytes + sizeof(double) * (size_t)P[p].count * (has_bounds ? 2 : 1)), SEEK_CUR) != 0) bad_data("truncated");
                continue;
            }
            P[p].data = xmalloc(bytes);
            get_bytes(P[p].data, bytes);
            /* the expected values in one read: little-endian binary64, as the host's doubles (checked in main) */
            P[p].want = xmalloc(sizeof(double) * (size_t)P[p].count);
            get_bytes(P[p].want, sizeof(double) * (size_t)P[p].count);
            if (has_bounds) {
                P[p].bound = xmalloc(sizeof(double) * (size_t)P[p].count);
                get_bytes(P[p].bound, sizeof(double) * (size_t)P[p].count);
            }
            args[p] = P[p].data;
        }
        const TkCrossKernel *k = NULL;
        for (size_t i = 0; i < tk_cross_nkernels; i++)
            if (strcmp(tk_cross_kernels[i].name, kernel) == 0) k = &tk_cross_kernels[i];
        if (selected) {
            bool xf = has_word(xfail, TK_CROSS_TARGET);
            const char *tag = xf ? "XFAIL" : "FAIL";
            bool ok = true;
            double t0 = now_s();
            if (!k) {
                printf("%s %s: no kernel %s in the registry\n", tag, desc, kernel);
                ok = false;
            } else if (tk_rt_launch(k->grid, k->block, args, sizes, threads) != 0) {
                printf("%s %s: launch failed: %s\n", tag, desc, tk_rt_error());
                ok = false;
            }
            double dt = now_s() - t0;
            bool ran = ok;   /* then every tensor is compared, not only the first that differs */
            if (dt > slowest) {
                slowest = dt;
                free(slowest_desc);
                slowest_desc = strdup(desc);
            }
            double use = 0;            /* --stats: max |diff| / (atol + rtol·|want|) */
            int64_t use_ulps = 0;      /* ... and max distance in ulps */
            const char *use_tensor = "-";
            for (uint32_t p = 0; ran && p < nparams; p++) {
                if (!P[p].tensor) continue;
                int64_t bad = 0;
                double worst = 0;
                for (int64_t i = 0; i < P[p].count; i++) {
                    double got = elem_get(P[p].type, P[p].data, i), want = P[p].want[i];
                    double bound = P[p].bound ? P[p].bound[i] : 0;
                    if (isinf(bound)) continue;   /* no bound could be given: not compared */
                    if (stats) {
                        double w = round_to(P[p].type, want);
                        if (isfinite(got) && isfinite(w) && got != w) {
                            double r = fabs(got - w) / (P[p].atol + P[p].rtol * fabs(w) + bound);
                            int64_t du = ordinal(P[p].type, got) - ordinal(P[p].type, w);
                            if (du < 0) du = -du;
                            if (r > use || du > use_ulps) use_tensor = P[p].name;
                            if (r > use) use = r;
                            if (du > use_ulps) use_ulps = du;
                        }
                    }
                    if (within(P[p].type, got, want, P[p].rtol, P[p].atol, P[p].ulps, bound)) continue;
                    if (bad < MAX_LINES_PER_TENSOR) {
                        char where[96];
                        describe_index(&P[p], i, where, sizeof where);
                        printf("%s %s: tensor %s (%s) index %lld %s: got %.9g, want %.9g (rtol %g, atol %g, ulps %u, bound %.3g)\n", tag,
                               desc, P[p].name, TYPE_NAMES[P[p].type], (long long)i, where, got, round_to(P[p].type, want), P[p].rtol,
                               P[p].atol, P[p].ulps, bound);
                    }
                    double d = fabs(got - want);
                    if (d > worst || isnan(d)) worst = d;
                    bad++;
                }
                if (bad) {
                    printf("%s %s: tensor %s: %lld of %lld elements differ (max |diff| %.3g)\n", tag, desc, P[p].name, (long long)bad,
                           (long long)P[p].count, worst);
                    ok = false;
                }
            }
            if (ok && xf) {
                printf("XPASS %s: marked xfail=%s but passes (remove the mark?)\n", desc, TK_CROSS_TARGET);
                xpassed++;
                passed++;
            } else if (ok) {
                passed++;
            } else if (xf) {
                xfailed++;
            } else {
                failed++;
            }
            if (stats) printf("stats %s: largest difference %lld ulps, %.3g of atol + rtol·|want| (tensor %s)\n", desc, (long long)use_ulps, use,
                              use_tensor);
            if (verbose) printf("%s %s (%.3f s)\n", ok ? "ok" : xf ? "xfail" : "FAILED", desc, dt);
        } else {
            skipped++;
        }
        for (uint32_t p = 0; p < nparams; p++) {
            free(P[p].name);
            free(P[p].data);
            free(P[p].want);
            free(P[p].bound);
        }
        free(kernel);
        free(desc);
        free(xfail);
    }
    fclose(in);
    printf(TK_CROSS_SUITE ": %.1f s in all, slowest case %.2f s (%s)\n", now_s() - t_start, slowest, slowest_desc ? slowest_desc : "-");
    free(slowest_desc);
    if (skipped) printf(TK_CROSS_SUITE ": %u cases left out by --filter\n", skipped);
    if (xfailed || xpassed) printf(TK_CROSS_SUITE ": %u known failures (xfail) of %s, %u unexpected passes\n", xfailed, TK_CROSS_TARGET, xpassed);
    printf(TK_CROSS_SUITE ": %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
