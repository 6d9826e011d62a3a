/* test_arrays.c — arrays of register tiles, vectors and scalars (lang/arrays.c
 * expands them and unrolls the loops over them before checking): kernels
 * that use them, JIT-run at sizes that are not multiples of 16, compared with
 * plain C double loops written here (and, by num_run, with the interpreter).
 *
 *  - gemm4: a 16×64 block of C as four 16×16 accumulators acc[4], B loaded
 *    into b[4] per K step. bf16 products are exact in f32; the error is that
 *    of an f32 sum of K terms: at most (K + 2)·2^-24·Σ_k|a·b| (test_mma.c).
 *  - rows: row sums of 64-column strips kept in an rv array part[4], added at
 *    the end: an f32 sum of N terms of [-1, 1): atol (N + 2)·2^-24·N.
 *  - nest: nested unrolled loops filling t[i*2 + j] with X's tiles times
 *    w[i*2 + j] (small integers: one rounding): exact.
 *  - scoped: a block-scoped const computed from the loop variable picks the
 *    element (in reverse order), a `let` of the same name in every copy, and
 *    a new `j` declared after the loop that the loop's substitution must not
 *    touch: one f32 add per element, exact. */
#include <math.h>
#include <stdlib.h>

#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "const NB = 4;\n"
    "kernel gemm4(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)\n"
    "    grid(cdiv(N, 16 * NB), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 16> acc[NB] = zeros();\n"
    "    for (k in 0 .. cdiv(K, 16)) {\n"
    "        rt<bf16, 16, 16> a = load(A, block.y, k);\n"
    "        rt<bf16, 16, 16, col> b[NB];\n"
    "        for (j in 0 .. NB) {\n"
    "            b[j] = load(B, k, block.x * NB + j);\n"
    "        }\n"
    "        for (j in 0 .. NB) {\n"
    "            mma_ab(acc[j], a, b[j]);\n"
    "        }\n"
    "    }\n"
    "    for (j in 0 .. NB) {\n"
    "        store(C, acc[j], block.y, block.x * NB + j);\n"
    "    }\n"
    "}\n"
    "kernel rows(gl<f32, M, N> X, gl<f32, M> S) grid(cdiv(M, 16)) {\n"
    "    rv<f32, 16> part[4] = zeros();\n"
    "    for (k in 0 .. cdiv(N, 64)) {\n"
    "        for (j in 0 .. 4) {\n"
    "            rt<f32, 16, 16> t = load(X, block.x, k * 4 + j);\n"
    "            part[j] = part[j] + row_sum(t);\n"
    "        }\n"
    "    }\n"
    "    store(S, (part[0] + part[1]) + (part[2] + part[3]), block.x);\n"
    "}\n"
    "kernel nest(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    f32 w[4];\n"
    "    w[0] = 1.0;\n"
    "    w[1] = 2.0;\n"
    "    w[2] = 3.0;\n"
    "    w[3] = 4.0;\n"
    "    rt<f32, 16, 16> t[4];\n"
    "    for (i in 0 .. 2) {\n"
    "        for (j in 0 .. 2) {\n"
    "            rt<f32, 16, 16> x = load(X, block.y * 2 + i, block.x * 2 + j);\n"
    "            t[i * 2 + j] = x * w[i * 2 + j];\n"
    "        }\n"
    "    }\n"
    "    for (i in 0 .. 2) {\n"
    "        for (j in 0 .. 2) {\n"
    "            store(Y, t[i * 2 + j], block.y * 2 + i, block.x * 2 + j);\n"
    "        }\n"
    "    }\n"
    "}\n"
    "kernel scoped(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 16> t[4];\n"
    "    for (j in 0 .. 4) {\n"
    "        const c = 3 - j;\n"
    "        rt<f32, 16, 16> v = load(X, block.y, block.x * 4 + c);\n"
    "        let w = v;\n"
    "        t[c] = w;\n"
    "    }\n"
    "    let j = 2;\n"
    "    rt<f32, 16, 16> extra = load(X, block.y, block.x * 4 + j);\n"
    "    for (q in 0 .. 4) {\n"
    "        store(Y, t[q] + extra, block.y, block.x * 4 + q);\n"
    "    }\n"
    "}\n";

static void build(void) { num_build(&prog, "arrays", SRC); }
static void teardown(void) { num_free(&prog); }

START_TEST(gemm_four_accumulators)
{
    NUM_NEED(&prog);
    static const int64_t sizes[][3] = { { 16, 64, 16 }, { 1, 1, 1 }, { 17, 70, 33 }, { 40, 130, 50 }, { 33, 65, 100 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
        char sz[96];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld,K=%lld", (long long)M, (long long)N, (long long)K);
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 11), .tol = num_tol_dot(K),
                         .per = { { "A", TOL_EXACT }, { "B", TOL_EXACT } } };
        NumRun r;
        num_run(&prog, "gemm4", &spec, &r);
        unsigned a = num_param(&r, "A"), b = num_param(&r, "B"), c = num_param(&r, "C");
        double *want = calloc((size_t)(M * N), sizeof *want);
        ck_assert_ptr_nonnull(want);
        for (int64_t i = 0; i < M; i++)
            for (int64_t k = 0; k < K; k++)
                for (int64_t j = 0; j < N; j++) want[i * N + j] += r.init[a][i * K + k] * r.init[b][k * N + j];
        char what[640];
        snprintf(what, sizeof what, "%s: C vs plain C double loop", r.desc);
        num_expect(r.got[c], want, M * N, TK_TY_F32, num_tol_dot(K), what);
        free(want);
        num_run_free(&r);
    }
}
END_TEST

START_TEST(row_sums_in_rv_array)
{
    NUM_NEED(&prog);
    static const int64_t sizes[][2] = { { 16, 64 }, { 1, 1 }, { 17, 70 }, { 50, 200 }, { 33, 129 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t M = sizes[s][0], N = sizes[s][1];
        char sz[64];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld", (long long)M, (long long)N);
        NumTol tol = { .atol = (double)(N + 2) * 0x1p-24 * (double)N };
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 101), .tol = tol, .per = { { "X", TOL_EXACT } } };
        NumRun r;
        num_run(&prog, "rows", &spec, &r);
        unsigned x = num_param(&r, "X"), o = num_param(&r, "S");
        double *want = calloc((size_t)M, sizeof *want);
        ck_assert_ptr_nonnull(want);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) want[i] += r.init[x][i * N + j];
        char what[640];
        snprintf(what, sizeof what, "%s: S vs plain C double loop", r.desc);
        num_expect(r.got[o], want, M, TK_TY_F32, tol, what);
        free(want);
        num_run_free(&r);
    }
}
END_TEST

START_TEST(nested_unrolled_loops)
{
    NUM_NEED(&prog);
    static const int64_t sizes[][2] = { { 32, 32 }, { 1, 1 }, { 17, 40 }, { 70, 33 }, { 100, 100 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t M = sizes[s][0], N = sizes[s][1];
        char sz[64];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld", (long long)M, (long long)N);
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 201), .tol = TOL_EXACT };
        NumRun r;
        num_run(&prog, "nest", &spec, &r);
        unsigned x = num_param(&r, "X"), y = num_param(&r, "Y");
        double *want = malloc(sizeof *want * (size_t)(M * N));
        ck_assert_ptr_nonnull(want);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                int64_t q = (i / 16) % 2 * 2 + (j / 16) % 2;   /* the element t[i*2 + j] of this tile */
                want[i * N + j] = r.init[x][i * N + j] * (double)(q + 1);
            }
        char what[640];
        snprintf(what, sizeof what, "%s: Y vs plain C double loop", r.desc);
        num_expect(r.got[y], want, M * N, TK_TY_F32, TOL_EXACT, what);
        free(want);
        num_run_free(&r);
    }
}
END_TEST

START_TEST(scoping_in_unrolled_loops)
{
    NUM_NEED(&prog);
    static const int64_t sizes[][2] = { { 16, 64 }, { 1, 1 }, { 17, 40 }, { 20, 130 }, { 33, 200 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t M = sizes[s][0], N = sizes[s][1];
        char sz[64];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld", (long long)M, (long long)N);
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 301), .tol = TOL_EXACT };
        NumRun r;
        num_run(&prog, "scoped", &spec, &r);
        unsigned x = num_param(&r, "X"), y = num_param(&r, "Y");
        double *want = malloc(sizeof *want * (size_t)(M * N));
        ck_assert_ptr_nonnull(want);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                /* Y's tile q of a 4-tile group = X's tile q + X's tile 2 of the group (the `let j = 2`) */
                int64_t col2 = (j / 64 * 4 + 2) * 16 + j % 16;
                want[i * N + j] = r.init[x][i * N + j] + (col2 < N ? r.init[x][i * N + col2] : 0.0);
            }
        char what[640];
        snprintf(what, sizeof what, "%s: Y vs plain C double loop", r.desc);
        num_expect(r.got[y], want, M * N, TK_TY_F32, TOL_EXACT, what);
        free(want);
        num_run_free(&r);
    }
}
END_TEST

static const unsigned AOT = NUM_AOT;

Suite *num_suite_arrays(void)
{
    Suite *s = suite_create("arrays");
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("arrays", build, teardown, paths);
        tcase_add_test(tc, gemm_four_accumulators);
        tcase_add_test(tc, row_sums_in_rv_array);
        tcase_add_test(tc, nested_unrolled_loops);
        tcase_add_test(tc, scoping_in_unrolled_loops);
        suite_add_tcase(s, tc);
    }
    return s;
}
