/* test_subtile.c — sub-tiles, rows and columns (docs/LANGUAGE.md §5.13):
 * kernels JIT-run at sizes that are not multiples of their tiles, compared
 * with plain C double loops written here (and, by num_run, with the
 * interpreter). Every move is exact, so each test but the product is exact.
 * "xt(r, c)" below is element (r, c) of the block's tile of X: 0 outside X.
 *
 *  - quads: rt<f32, 32, 64>; the bottom half moved up 16 columns at a time in
 *    an unrolled loop over sub-tiles, the top half doubled into the bottom
 *    half, then `+=` of a sub-tile: y(r, c) = xt(r+16, c) for r < 16, else
 *    2·xt(r-16, c) + (c ≥ 32 ? xt(r, c-32) : 0) — one f32 rounding, exact.
 *  - colsub: col-layout bf16 tiles; two quadrants swap, then column 5 is
 *    row 3 of x: y(r, c) = c == 5 ? xt(3, r) : quadrant swap, else 0.
 *  - mma_sub: C = A·B with each 32-wide K step as two mma_ab of 16-wide
 *    sub-tiles of A (row) and B (col): bf16 products are exact in f32, the
 *    error is an f32 sum of K terms (num_tol_dot).
 *  - bcast: a column read feeds sub_row, then a run-time loop halves every
 *    row through a row read and a row write: y(i, j) = f32(xt(i, j) −
 *    xt(i, 0)) / 2, exact. */
#include <math.h>
#include <stdlib.h>

#include "numeric.h"

static NumProg prog;

static const char *const SRC =
    "kernel quads(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 64> x = load(X, block.y, block.x);\n"
    "    rt<f32, 32, 64> y = zeros();\n"
    "    for (j in 0 .. 4) {\n"
    "        y[0 .. 16, 16 * j .. 16 * j + 16] = x[16 .. 32, 16 * j .. 16 * j + 16];\n"
    "    }\n"
    "    y[16 .. 32, 0 .. 64] = x[0 .. 16, ..] * 2.0;\n"
    "    y[16 .. 32, 32 .. 64] += x[16 .. 32, 0 .. 32];\n"
    "    store(Y, y, block.y, block.x);\n"
    "}\n"
    "kernel colsub(gl<bf16, M, N> X, gl<bf16, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<bf16, 32, 32, col> x = load(X, block.y, block.x);\n"
    "    rt<bf16, 32, 32, col> y = zeros();\n"
    "    y[0 .. 16, 0 .. 16] = x[16 .. 32, 16 .. 32];\n"
    "    y[16 .. 32, 16 .. 32] = x[0 .. 16, 0 .. 16];\n"
    "    y[.., 5] = x[3, ..];\n"
    "    store(Y, y, block.y, block.x);\n"
    "}\n"
    "kernel mma_sub(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C) grid(cdiv(N, 32), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 32> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 32)) {\n"
    "        rt<bf16, 16, 32> a = load(A, block.y, k);\n"
    "        rt<bf16, 32, 32, col> b = load(B, k, block.x);\n"
    "        mma_ab(acc, a[.., 0 .. 16], b[0 .. 16, ..]);\n"
    "        mma_ab(acc, a[.., 16 .. 32], b[16 .. 32, ..]);\n"
    "    }\n"
    "    store(C, acc, block.y, block.x);\n"
    "}\n"
    "kernel bcast(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 32), cdiv(M, 32)) {\n"
    "    rt<f32, 32, 32> x = load(X, block.y, block.x);\n"
    "    rt<f32, 32, 32> y = sub_row(x, x[.., 0]);\n"
    "    for (i in 0 .. 32) {\n"
    "        y[i, ..] = y[i, ..] * 0.5;\n"
    "    }\n"
    "    store(Y, y, block.y, block.x);\n"
    "}\n";

static void build(void) { num_build(&prog, "subtile", SRC); }
static void teardown(void) { num_free(&prog); }

/* Element (r, c) of the TR×TC tile of the M×N tensor x at tile coordinates (ty, tx); 0 outside. */
static double xt(const double *x, int64_t M, int64_t N, int64_t TR, int64_t TC, int64_t ty, int64_t tx, int64_t r, int64_t c)
{
    int64_t i = ty * TR + r, j = tx * TC + c;
    return i < M && j < N ? x[i * N + j] : 0.0;
}

static const int64_t SIZES[][2] = { { 32, 64 }, { 1, 1 }, { 17, 70 }, { 40, 33 }, { 70, 130 } };
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

/* Runs `kernel` (X → Y, M×N) and compares Y with want(x, M, N, i, j). */
static void run_xy(const char *kernel, TkTypeKind elem, double (*want_at)(const double *, int64_t, int64_t, int64_t, int64_t))
{
    NUM_NEED(&prog);
    for (size_t s = 0; s < NSIZES; s++) {
        int64_t M = SIZES[s][0], N = SIZES[s][1];
        char sz[64];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld", (long long)M, (long long)N);
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 401), .tol = TOL_EXACT };
        NumRun r;
        num_run(&prog, kernel, &spec, &r);
        unsigned x = num_param(&r, "X"), y = num_param(&r, "Y");
        double *want = malloc(sizeof *want * (size_t)(M * N));
        ck_assert_ptr_nonnull(want);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) want[i * N + j] = want_at(r.init[x], M, N, i, j);
        char what[640];
        snprintf(what, sizeof what, "%s: Y vs plain C double loop", r.desc);
        num_expect(r.got[y], want, M * N, elem, TOL_EXACT, what);
        free(want);
        num_run_free(&r);
    }
}

static double quads_at(const double *x, int64_t M, int64_t N, int64_t i, int64_t j)
{
    int64_t ty = i / 32, tx = j / 64, r = i % 32, c = j % 64;
    if (r < 16) return xt(x, M, N, 32, 64, ty, tx, r + 16, c);
    double v = 2.0 * xt(x, M, N, 32, 64, ty, tx, r - 16, c) + (c >= 32 ? xt(x, M, N, 32, 64, ty, tx, r, c - 32) : 0.0);
    return (double)(float)v;
}

static double colsub_at(const double *x, int64_t M, int64_t N, int64_t i, int64_t j)
{
    int64_t ty = i / 32, tx = j / 32, r = i % 32, c = j % 32;
    if (c == 5) return xt(x, M, N, 32, 32, ty, tx, 3, r);
    if (r < 16 && c < 16) return xt(x, M, N, 32, 32, ty, tx, r + 16, c + 16);
    if (r >= 16 && c >= 16) return xt(x, M, N, 32, 32, ty, tx, r - 16, c - 16);
    return 0.0;
}

static double bcast_at(const double *x, int64_t M, int64_t N, int64_t i, int64_t j)
{
    int64_t ty = i / 32, tx = j / 32, r = i % 32, c = j % 32;
    return (double)(float)(xt(x, M, N, 32, 32, ty, tx, r, c) - xt(x, M, N, 32, 32, ty, tx, r, 0)) * 0.5;
}

START_TEST(subtiles_moved_and_added) { run_xy("quads", TK_TY_F32, quads_at); }
END_TEST

START_TEST(col_layout_bf16_quadrants_and_column) { run_xy("colsub", TK_TY_BF16, colsub_at); }
END_TEST

START_TEST(column_feeds_broadcast_rows_rewritten) { run_xy("bcast", TK_TY_F32, bcast_at); }
END_TEST

START_TEST(subtiles_feed_mma)
{
    NUM_NEED(&prog);
    static const int64_t sizes[][3] = { { 16, 32, 32 }, { 1, 1, 1 }, { 17, 40, 33 }, { 40, 70, 50 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
        char sz[96];
        snprintf(sz, sizeof sz, "M=%lld,N=%lld,K=%lld", (long long)M, (long long)N, (long long)K);
        NumSpec spec = { .sizes = sz, .seed = (uint64_t)(s + 501), .tol = num_tol_dot(K),
                         .per = { { "A", TOL_EXACT }, { "B", TOL_EXACT } } };
        NumRun r;
        num_run(&prog, "mma_sub", &spec, &r);
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

static const unsigned AOT = NUM_AOT;

Suite *num_suite_subtile(void)
{
    Suite *s = suite_create("subtile");
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("subtile", build, teardown, paths);
        tcase_add_test(tc, subtiles_moved_and_added);
        tcase_add_test(tc, col_layout_bf16_quadrants_and_column);
        tcase_add_test(tc, column_feeds_broadcast_rows_rewritten);
        tcase_add_test(tc, subtiles_feed_mma);
        suite_add_tcase(s, tc);
    }
    return s;
}
