/* test_examples.c — the shipped examples (examples/gemm.tk, softmax.tk,
 * attention.tk, read from the source tree) at sizes that are not multiples of
 * their tiles (1, 17, 63, 65, 127, 1000), each run compared with the
 * interpreter AND with a plain C double-precision loop written here; and
 * thread-count independence: 1 and 2 threads (and 3) give bit-identical
 * outputs (memcmp), also when several threads launch at once; and the
 * examples again for x86-64-avx2.
 *
 * Tolerances (justified at each check):
 *  - gemm (bf16 in, f32 accumulation): bf16 products are exact in f32, so the
 *    error is that of summing K terms in f32: at most (K + 2)·2^-24·Σ_k|a·b|
 *    (worst case of recursive summation, any order); with random-signed
 *    inputs the rounding errors add like a random walk, so the check uses
 *    4·(√K + 2)·2^-24·Σ_k|a·b| (a 4σ bound), never above the worst case.
 *  - softmax (f32): every term exp(x - m) carries ≤ ~4 ulps (the subtraction
 *    and expf), the positive sum l of N terms ≤ N·2^-24 relative, the online
 *    rescaling exp(m - m_new)·l ≤ 3 ulps per column tile, the division one
 *    rounding: rtol (N + 4·cdiv(N, 64) + 8)·2^-24.
 *  - attention (bf16 Q, K, V, O; P = softmax rounded to bf16 before P·V): vs
 *    the plain loop (which does not round P): output rounding to bf16 is
 *    2^-9 relative, each p_j rounded to bf16 is off by ≤ 2^-9·p_j, so
 *    Σ_j Δp_j·|v_j| / l ≤ 2^-9·max|v|; f32 errors are ~1e-6: bound
 *    2^-8·(|ref| + max|v|) (twice the sum of the two). Vs the interpreter
 *    (which rounds P and O like the kernel, in double): the f32 scores may
 *    put a p_j on the other side of a bf16 rounding boundary (1 ulp of
 *    bf16 ≤ 2^-7·p_j), and O may then round the other way: 2 ulps of bf16 at
 *    |ref| plus 2^-7·max|v|/8 — flips are rare and a few at most per row, the
 *    bound allows 1/8 of the row's weight to flip. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numeric.h"

#ifndef NUM_SOURCE_DIR
#define NUM_SOURCE_DIR "."
#endif

static char *read_example(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", NUM_SOURCE_DIR, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = malloc(1 << 17);
    size_t n = buf ? fread(buf, 1, (1 << 17) - 1, fp) : 0;
    fclose(fp);
    if (buf) buf[n] = '\0';
    return buf;
}

static NumProg gemm, softmax, attention;

/* NULL: the host; else a CPU target this machine can run (the examples are
 * also checked for x86-64-avx2: ymm FMA micro-kernels, bf16 without
 * hardware conversions). */
static const char *target;

static void build_one(NumProg *p, const char *group, const char *file)
{
    char *src = read_example(file);
    if (!src) {
        memset(p, 0, sizeof *p);
        p->group = group;
        snprintf(p->err, sizeof p->err, "cannot read %s/examples/%s", NUM_SOURCE_DIR, file);
        return;
    }
    char name[64];
    snprintf(name, sizeof name, "%s%s%s", group, target ? "_" : "", target ? target : "");
    /* the group name must outlive the program: keep it in a static per example */
    static char names[3][64];
    char *slot = names[file[0] == 'g' ? 0 : file[0] == 's' ? 1 : 2];
    snprintf(slot, 64, "%s", name);
    num_build_target(p, slot, src, target);
    free(src);
}

static void build_gemm(void) { build_one(&gemm, "example_gemm", "gemm.tk"); }
static void build_softmax(void) { build_one(&softmax, "example_softmax", "softmax.tk"); }
static void build_attention(void) { build_one(&attention, "example_attention", "attention.tk"); }
static void use_avx2(void) { target = "x86-64-avx2"; }
static void use_host(void) { target = NULL; }
static void free_gemm(void) { num_free(&gemm); }
static void free_softmax(void) { num_free(&softmax); }
static void free_attention(void) { num_free(&attention); }

static void expect_bound(const double *got, const double *want, const double *bound, int64_t n, const char *what)
{
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!(fabs(got[i] - want[i]) <= bound[i]) && !(got[i] == want[i]))
            ck_abort_msg("%s: element %lld: got %.9g, want %.9g (|diff| %.3g > bound %.3g)", what, (long long)i, got[i], want[i],
                         fabs(got[i] - want[i]), bound[i]);
        if (bound[i] > 0 && fabs(got[i] - want[i]) / bound[i] > worst) worst = fabs(got[i] - want[i]) / bound[i];
    }
    if (getenv("NUM_VERBOSE")) fprintf(stderr, "numeric: %s: worst |diff|/bound %.3g\n", what, worst);
    num_count(0, (uint64_t)n);
}

/* ---------------------------------------------------------------- gemm */

static void gemm_case(int64_t M, int64_t N, int64_t K)
{
    char sizes[96];
    snprintf(sizes, sizeof sizes, "M=%lld,N=%lld,K=%lld", (long long)M, (long long)N, (long long)K);
    NumSpec spec = { .sizes = sizes, .seed = (uint64_t)(M * 1000003 + N * 1009 + K), .tol = { .skip = true } };
    NumRun r;
    num_run(&gemm, "gemm", &spec, &r);
    unsigned a = num_param(&r, "A"), b = num_param(&r, "B"), c = num_param(&r, "C");
    num_expect(r.got[a], r.init[a], r.count[a], r.elem[a], TOL_EXACT, "A unchanged");
    num_expect(r.got[b], r.init[b], r.count[b], r.elem[b], TOL_EXACT, "B unchanged");
    size_t mn = (size_t)(M * N);
    double *want = calloc(mn, sizeof(double)), *bound = calloc(mn, sizeof(double)), *mag = calloc(mn, sizeof(double));
    ck_assert(want && bound && mag);
    const double *A = r.init[a], *B = r.init[b];
    for (int64_t i = 0; i < M; i++)
        for (int64_t k = 0; k < K; k++) {
            double x = A[i * K + k];
            for (int64_t j = 0; j < N; j++) {
                want[i * N + j] += x * B[k * N + j];
                mag[i * N + j] += fabs(x * B[k * N + j]);
            }
        }
    /* f32 summation error (file comment): statistical 4·(√K + 2)·2^-24·Σ|a·b|, capped by the
     * worst case (K + 2)·2^-24·Σ|a·b| */
    double units = fmin(4 * (sqrt((double)K) + 2), (double)(K + 2));
    for (size_t i = 0; i < mn; i++) bound[i] = units * 0x1p-24 * mag[i];
    char what[640];
    snprintf(what, sizeof what, "%s: C vs plain C double loop", r.desc);
    expect_bound(r.got[c], want, bound, (int64_t)mn, what);
    snprintf(what, sizeof what, "%s: C vs interpreter", r.desc);
    expect_bound(r.got[c], r.ref[c], bound, (int64_t)mn, what);
    /* the interpreter (double) agrees with the plain loop up to summation order: 1e-12·Σ|a·b| */
    for (size_t i = 0; i < mn; i++) bound[i] = 1e-12 * (mag[i] + 1e-300);
    snprintf(what, sizeof what, "%s: interpreter vs plain C double loop", r.desc);
    expect_bound(r.ref[c], want, bound, (int64_t)mn, what);
    free(want);
    free(bound);
    free(mag);
    num_run_free(&r);
}

START_TEST(gemm_ragged_sizes)
{
    /* M, N, K drawn from {1, 17, 63, 65, 127, 1000}: every value in every position, several
     * with two ragged dims at 1000; M·N·K kept ≤ ~1.3e8 for the plain reference loop */
    static const int64_t sizes[][3] = {
        { 1, 1, 1 },       { 17, 17, 17 },     { 63, 65, 127 },   { 127, 63, 65 },   { 65, 127, 63 },
        { 1000, 17, 63 },  { 17, 1000, 65 },   { 63, 127, 1000 }, { 1, 1000, 17 },   { 1000, 1, 127 },
        { 127, 17, 1 },    { 65, 65, 1000 },   { 1000, 1000, 17 },{ 127, 1000, 127 },{ 1000, 65, 1 },
        { 17, 63, 127 },   { 1, 127, 1000 },   { 127, 127, 127 },
    };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) gemm_case(sizes[k][0], sizes[k][1], sizes[k][2]);
}
END_TEST

/* ---------------------------------------------------------------- softmax */

static void softmax_case(int64_t M, int64_t N)
{
    char sizes[64];
    snprintf(sizes, sizeof sizes, "M=%lld,N=%lld", (long long)M, (long long)N);
    double rtol = (double)(N + 4 * ((N + 63) / 64) + 8) * 0x1p-24;
    /* vs the interpreter: same rtol (the interpreter is exact up to double rounding); X unchanged */
    NumSpec spec = { .sizes = sizes, .seed = (uint64_t)(M * 7919 + N), .lo = -4, .hi = 4, .tol = { .rtol = rtol, .atol = 1e-30 },
                     .per = { { "X", TOL_EXACT } } };
    NumRun r;
    num_run(&softmax, "softmax", &spec, &r);
    unsigned x = num_param(&r, "X"), y = num_param(&r, "Y");
    double *want = malloc(sizeof(double) * (size_t)(M * N));
    ck_assert_ptr_nonnull(want);
    for (int64_t i = 0; i < M; i++) {
        const double *row = r.init[x] + i * N;
        double m = -INFINITY, l = 0;
        for (int64_t j = 0; j < N; j++) m = fmax(m, row[j]);
        for (int64_t j = 0; j < N; j++) l += exp(row[j] - m);
        for (int64_t j = 0; j < N; j++) want[i * N + j] = exp(row[j] - m) / l;
    }
    char what[640];
    snprintf(what, sizeof what, "%s: Y vs plain C double softmax", r.desc);
    num_expect(r.got[y], want, M * N, TK_TY_F32, (NumTol){ .rtol = rtol, .atol = 1e-30 }, what);
    free(want);
    num_run_free(&r);
}

START_TEST(softmax_ragged_sizes)
{
    static const int64_t sizes[][2] = { { 1, 1 },    { 17, 1000 }, { 1000, 17 }, { 63, 65 },  { 65, 63 },
                                        { 127, 127 }, { 1, 1000 },  { 1000, 1 },  { 17, 63 }, { 1000, 127 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) softmax_case(sizes[k][0], sizes[k][1]);
}
END_TEST

/* ---------------------------------------------------------------- attention */

static double ulp_bf16(double x)
{
    double a = fabs(x);
    if (a < 0x1p-126) return 0x1p-133;
    int e;
    frexp(a, &e);              /* a = m·2^e, m in [0.5, 1) */
    return ldexp(1.0, e - 8);  /* 8 significant bits */
}

static void attention_case(int64_t B, int64_t H, int64_t S, double scale, bool causal)
{
    enum { D = 64 };
    char sizes[64], sets[96];
    snprintf(sizes, sizeof sizes, "B=%lld,H=%lld,S=%lld", (long long)B, (long long)H, (long long)S);
    snprintf(sets, sizeof sets, "scale=%.17g,causal=%s", scale, causal ? "true" : "false");
    NumSpec spec = { .sizes = sizes, .sets = sets, .seed = (uint64_t)(S * 31 + causal), .tol = { .skip = true },
                     .per = { { "Q", TOL_EXACT }, { "K", TOL_EXACT }, { "V", TOL_EXACT } } };
    NumRun r;
    num_run(&attention, "attention", &spec, &r);
    unsigned q = num_param(&r, "Q"), k = num_param(&r, "K"), v = num_param(&r, "V"), o = num_param(&r, "O");
    const double *Q = r.init[q], *Kt = r.init[k], *V = r.init[v];
    size_t n = (size_t)(B * H * S * D);
    double *want = malloc(sizeof(double) * n), *bound_plain = malloc(sizeof(double) * n), *bound_interp = malloc(sizeof(double) * n);
    double *p = malloc(sizeof(double) * (size_t)(S > 0 ? S : 1));
    ck_assert(want && bound_plain && bound_interp && p);
    for (int64_t bh = 0; bh < B * H; bh++) {
        const double *q0 = Q + bh * S * D, *k0 = Kt + bh * S * D, *v0 = V + bh * S * D;
        for (int64_t i = 0; i < S; i++) {
            double m = -INFINITY, l = 0;
            for (int64_t j = 0; j < S; j++) {
                if (causal && j > i) {
                    p[j] = -INFINITY;
                    continue;
                }
                double s = 0;
                for (int d = 0; d < D; d++) s += q0[i * D + d] * k0[j * D + d];
                p[j] = s * scale;
                m = fmax(m, p[j]);
            }
            for (int64_t j = 0; j < S; j++) {
                p[j] = p[j] == -INFINITY ? 0 : exp(p[j] - m);
                l += p[j];
            }
            for (int d = 0; d < D; d++) {
                double acc = 0, vmax = 0;
                for (int64_t j = 0; j < S; j++) {
                    acc += p[j] * v0[j * D + d];
                    if (p[j] > 0) vmax = fmax(vmax, fabs(v0[j * D + d]));
                }
                size_t at = (size_t)((bh * S + i) * D + d);
                want[at] = acc / l;
                /* file comment: 2^-8·(|ref| + max|v|) vs the plain loop; vs the interpreter
                 * 2 bf16 ulps at |ref| plus 2^-7·max|v|/8 */
                bound_plain[at] = 0x1p-8 * (fabs(want[at]) + vmax);
                bound_interp[at] = 2 * ulp_bf16(want[at]) + 0x1p-10 * vmax;
            }
        }
    }
    char what[640];
    snprintf(what, sizeof what, "%s: O vs plain C double attention", r.desc);
    expect_bound(r.got[o], want, bound_plain, (int64_t)n, what);
    snprintf(what, sizeof what, "%s: O vs interpreter", r.desc);
    expect_bound(r.got[o], r.ref[o], bound_interp, (int64_t)n, what);
    free(want);
    free(bound_plain);
    free(bound_interp);
    free(p);
    num_run_free(&r);
}

START_TEST(attention_ragged_causal_and_not)
{
    static const int64_t S[] = { 1, 17, 65, 127 };
    for (unsigned s = 0; s < 4; s++)
        for (int causal = 0; causal < 2; causal++) {
            attention_case(1, 2, S[s], 0.125, causal);   /* 1/sqrt(64) */
            attention_case(2, 2, S[s], 0.4, causal);
        }
}
END_TEST

/* ---------------------------------------------------------------- thread-count independence */

static void same_for_threads(const NumProg *p, const char *kernel, const char *sizes, const char *sets)
{
    NumRun r1, r2, r3;
    NumSpec spec = { .sizes = sizes, .sets = sets, .seed = 99, .threads = 1, .no_interp = true };
    num_run(p, kernel, &spec, &r1);
    spec.threads = 2;
    num_run(p, kernel, &spec, &r2);
    spec.threads = 3;
    num_run(p, kernel, &spec, &r3);
    num_expect_identical(&r1, &r2);
    num_expect_identical(&r1, &r3);
    num_run_free(&r1);
    num_run_free(&r2);
    num_run_free(&r3);
}

START_TEST(thread_count_independence)
{
    same_for_threads(&gemm, "gemm", "M=1000,N=300,K=127", NULL);
    same_for_threads(&gemm, "gemm", "M=65,N=1000,K=1000", NULL);
    same_for_threads(&softmax, "softmax", "M=1000,N=1000", NULL);
    same_for_threads(&softmax, "softmax", "M=17,N=1000", NULL);
    same_for_threads(&attention, "attention", "B=2,H=2,S=127", "scale=0.125,causal=true");
    same_for_threads(&attention, "attention", "B=1,H=2,S=1000", "scale=0.125,causal=false");
}
END_TEST

/* Launches from several threads at once (the runtime has one worker pool):
 * each of 3 threads launches gemm 6 times into its own C; every result must
 * be bit-identical to a launch made alone. */
typedef struct {
    TkGridFn grid;
    TkBlockFn block;
    void *args[3];
    const int64_t *sizes;
    int rc;
} Concurrent;

static void *launch_repeatedly(void *p)
{
    Concurrent *c = p;
    char err[256];
    for (int i = 0; i < 6; i++)
        if (tk_cpu_launch(c->grid, c->block, c->args, c->sizes, 1 + i % 3, err, sizeof err) != 0) c->rc = -1;
    return NULL;
}

START_TEST(concurrent_launches)
{
    NumRun alone;
    NumSpec spec = { .sizes = "M=300,N=200,K=100", .seed = 5, .threads = 2, .no_interp = true };
    num_run(&gemm, "gemm", &spec, &alone);
    unsigned a = num_param(&alone, "A"), b = num_param(&alone, "B"), c = num_param(&alone, "C");
    size_t cbytes = (size_t)alone.count[c] * sizeof(float);
    Concurrent job[3];
    pthread_t th[3];
    for (int t = 0; t < 3; t++) {
        memset(&job[t], 0, sizeof job[t]);
        num_lookup(&gemm, "gemm", &job[t].grid, &job[t].block);
        job[t].args[a] = alone.raw[a];
        job[t].args[b] = alone.raw[b];
        job[t].args[c] = calloc(1, cbytes);
        job[t].sizes = alone.sizes;
        ck_assert_ptr_nonnull(job[t].args[c]);
    }
    for (int t = 0; t < 3; t++) ck_assert_int_eq(pthread_create(&th[t], NULL, launch_repeatedly, &job[t]), 0);
    for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < 3; t++) {
        ck_assert_msg(job[t].rc == 0, "a concurrent launch failed");
        ck_assert_msg(memcmp(job[t].args[c], alone.raw[c], cbytes) == 0, "thread %d: result of concurrent launches differs", t);
        free(job[t].args[c]);
    }
    num_count(18, (uint64_t)alone.count[c] * 3);
    num_run_free(&alone);
}
END_TEST

/* ---------------------------------------------------------------- launch after fork */

/* Regression (the worker pool once hung here): the fixture launches once in
 * the parent, so the parent has a warm pool; Check then forks the test, whose
 * own launch must start fresh workers (fork keeps none) instead of waiting
 * for threads that do not exist. The 10 s timeout catches a hang. */
static void launch_in_parent(void)
{
    NumRun r;
    NumSpec spec = { .sizes = "M=64,N=32", .threads = 2, .no_interp = true };
    if (softmax.built) {
        num_run(&softmax, "softmax", &spec, &r);
        num_run_free(&r);
    }
}

START_TEST(launch_after_fork)
{
    NumRun r;
    /* returning at all is the point; the values are checked by the cases above */
    NumSpec spec = { .sizes = "M=64,N=32", .threads = 2, .no_interp = true };
    num_run(&softmax, "softmax", &spec, &r);
    num_run_free(&r);
}
END_TEST

/* The examples for x86-64-avx2, at fewer sizes. */
START_TEST(examples_on_avx2_target)
{
    if (gemm.unavailable) return;   /* this machine cannot run the target */
    static const int64_t gs[][3] = { { 17, 17, 17 }, { 63, 127, 65 }, { 1000, 65, 127 }, { 1, 1000, 63 } };
    for (unsigned k = 0; k < 4; k++) gemm_case(gs[k][0], gs[k][1], gs[k][2]);
    softmax_case(63, 1000);
    softmax_case(1000, 17);
    static const int64_t S[] = { 17, 127 };
    for (unsigned k = 0; k < 2; k++)
        for (int causal = 0; causal < 2; causal++) attention_case(1, 2, S[k], 0.125, causal);
    same_for_threads(&gemm, "gemm", "M=1000,N=300,K=127", NULL);
    same_for_threads(&attention, "attention", "B=2,H=2,S=127", "scale=0.125,causal=true");
}
END_TEST

/* The host groups' AOT twins (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none.
 * The examples (mma, reductions, expf, masking, bf16 rounding) are bit-compared. */
static const unsigned AOT_EXAMPLES = NUM_AOT | NUM_JIT, AOT_FORK = NUM_AOT;

Suite *num_suite_examples(void)
{
    Suite *s = suite_create("examples");
    /* one case per path, so that each example is compiled once for it */
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT_EXAMPLES);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("examples", use_host, NULL, paths);
        tcase_add_unchecked_fixture(tc, build_gemm, free_gemm);
        tcase_add_unchecked_fixture(tc, build_softmax, free_softmax);
        tcase_add_unchecked_fixture(tc, build_attention, free_attention);
        tcase_add_test(tc, gemm_ragged_sizes);
        tcase_add_test(tc, softmax_ragged_sizes);
        tcase_add_test(tc, attention_ragged_causal_and_not);
        tcase_add_test(tc, thread_count_independence);
        tcase_add_test(tc, concurrent_launches);
        suite_add_tcase(s, tc);
    }
    TCase *t2 = num_tcase("examples_x86-64-avx2", use_avx2, NULL);
    tcase_add_unchecked_fixture(t2, build_gemm, free_gemm);
    tcase_add_unchecked_fixture(t2, build_softmax, free_softmax);
    tcase_add_unchecked_fixture(t2, build_attention, free_attention);
    tcase_add_test(t2, examples_on_avx2_target);
    suite_add_tcase(s, t2);
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT_FORK);
        if (!paths) continue;
        TCase *kf = num_tcase_paths("launch_after_fork", use_host, NULL, paths);
        tcase_add_unchecked_fixture(kf, build_softmax, free_softmax);
        tcase_add_unchecked_fixture(kf, launch_in_parent, NULL);
        tcase_set_timeout(kf, 10);
        tcase_add_test(kf, launch_after_fork);
        suite_add_tcase(s, kf);
    }
    return s;
}
