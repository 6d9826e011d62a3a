/* test_interp_kernels.c — the TIR reference interpreter (lower/interp/tir_interp.c) on whole
 * kernels: the shipped examples (gemm, softmax, attention, read from examples/) and warps
 * exchanging data through shared memory.
 *
 * Harness, method and tolerances: interp_harness.h. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_harness.h"

/* ---------------------------------------------------------------- gemm (examples/gemm.tk) */

static void gemm_case(const TirFunc *f, int64_t M, int64_t N, int64_t K)
{
    double *A = ith_alloc_fill((size_t)(M * K), 0), *B = ith_alloc_fill((size_t)(K * N), 0);
    double *C = ith_alloc_fill((size_t)(M * N), 777.0), *want = ith_alloc_fill((size_t)(M * N), 0);
    for (int64_t i = 0; i < M * K; i++) A[i] = ith_ref_bf16(ith_uniform(-1, 1));   /* bf16 inputs */
    for (int64_t i = 0; i < K * N; i++) B[i] = ith_ref_bf16(ith_uniform(-1, 1));
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
            want[i * N + j] = s;
        }
    LAUNCH(f, T2(A, M, K), T2(B, K, N), T2(C, M, N));
    /* products of bf16 values are exact in double; only the summation order
     * differs (per 32-deep K step): 1e-12 relative to Σ|a·b| <= K */
    char what[64];
    snprintf(what, sizeof what, "C (M=%lld N=%lld K=%lld)", (long long)M, (long long)N, (long long)K);
    expect_close(C, want, (size_t)(M * N), 1e-12, 1e-12 * (double)K, what);
    free(A);
    free(B);
    free(C);
    free(want);
}

START_TEST(gemm_example_ragged_sizes)
{
    char *src = ith_read_example("gemm.tk");
    Prog p;
    ith_prog_load(&p, src);
    const TirFunc *f = ith_kernel(&p, "gemm");
    ck_assert_int_eq(f->warps, 4);
    ith_seed(2);
    static const int64_t sizes[][3] = {
        { 1, 1, 1 }, { 17, 17, 17 }, { 63, 65, 127 }, { 127, 63, 65 }, { 65, 127, 17 }, { 17, 1, 63 }, { 129, 130, 33 },
    };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) gemm_case(f, sizes[k][0], sizes[k][1], sizes[k][2]);
    ith_prog_free(&p);
    free(src);
}
END_TEST

/* ---------------------------------------------------------------- warps and sync */

/* Each warp writes its 16 rows of a shared tile, then (after sync) reads the
 * rows of the next warp: only correct if every warp finished its write before
 * any warp went past sync(). */
START_TEST(warps_exchange_through_shared_after_sync)
{
    Prog p;
    ith_prog_load(&p,
              "kernel rot(gl<f32, M, N> X, gl<f32, M, N> Y) grid(cdiv(N, 64), cdiv(M, 64)) warps(4) {\n"
              "    st<f32, 64, 64> S;\n"
              "    rt<f32, 16, 64> part = load(X, 4 * block.y + warp.id, block.x);\n"
              "    store(S, mul(part, 2.0), warp.id, 0);\n"
              "    sync();\n"
              "    rt<f32, 16, 64> other = load(S, (warp.id + 1) % 4, 0);\n"
              "    store(Y, other, 4 * block.y + warp.id, block.x);\n"
              "}\n");
    const int64_t M = 100, N = 70;
    ith_seed(3);
    double *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, -1), *want = ith_alloc_fill(M * N, 0);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    for (int64_t r = 0; r < M; r++)
        for (int64_t c = 0; c < N; c++) {
            int64_t blk = r / 64, w = (r % 64) / 16, src = blk * 64 + ((w + 1) % 4) * 16 + r % 16;
            want[r * N + c] = src < M ? 2 * X[src * N + c] : 0.0;   /* rows past M were loaded as 0 */
        }
    LAUNCH(ith_kernel(&p, "rot"), T2(X, M, N), T2(Y, M, N));
    expect_close(Y, want, M * N, 0, 0, "Y");   /* exact: only copies and ×2 */
    free(X);
    free(Y);
    free(want);
    ith_prog_free(&p);
}
END_TEST

/* Per-warp slots survive barriers; a barrier IF is taken once for the block. */
START_TEST(warps_private_slots_and_barrier_if)
{
    Prog p;
    ith_prog_load(&p,
              "kernel priv(gl<f32, W> Y) warps(4) {\n"
              "    i32 mine = warp.id * 10;\n"
              "    sync();\n"
              "    rv<f32, 16> r = fill(convert<f32>(mine));\n"
              "    store(Y, r, warp.id);\n"
              "}\n"
              "kernel bif(gl<f32, M, N> X, gl<f32, M, N> Y, bool flag) grid(cdiv(N, 64), cdiv(M, 32)) warps(2) {\n"
              "    st<f32, 32, 64> S;\n"
              "    if (flag) {\n"
              "        S = load(X, block.y, block.x);\n"
              "        sync();\n"
              "    }\n"
              "    rt<f32, 16, 64> r = load(S, warp.id, 0);\n"
              "    store(Y, r, 2 * block.y + warp.id, block.x);\n"
              "}\n");
    double *Y = ith_alloc_fill(70, -1);
    LAUNCH(ith_kernel(&p, "priv"), T1(Y, 70));
    for (int i = 0; i < 70; i++) ck_assert_double_eq(Y[i], i < 64 ? (double)(10 * (i / 16)) : -1.0);
    free(Y);

    const int64_t M = 40, N = 80;
    double *X = ith_alloc_fill(M * N, 0), *Z = ith_alloc_fill(M * N, -1);
    ith_seed(4);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    LAUNCH(ith_kernel(&p, "bif"), T2(X, M, N), T2(Z, M, N), SC(1));
    expect_close(Z, X, M * N, 0, 0, "Y (flag)");
    LAUNCH(ith_kernel(&p, "bif"), T2(X, M, N), T2(Z, M, N), SC(0));
    for (int64_t i = 0; i < M * N; i++) ck_assert_double_eq(Z[i], 0.0);   /* S stayed zero-filled */
    free(X);
    free(Z);
    ith_prog_free(&p);
}
END_TEST

/* ---------------------------------------------------------------- softmax (examples/softmax.tk) */

START_TEST(softmax_example)
{
    char *src = ith_read_example("softmax.tk");
    Prog p;
    ith_prog_load(&p, src);
    static const int64_t shapes[][2] = { { 1, 1 }, { 37, 150 }, { 16, 64 }, { 5, 200 } };
    ith_seed(5);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t M = shapes[s][0], N = shapes[s][1];
        double *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, -1), *want = ith_alloc_fill(M * N, 0);
        for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-8, 8);
        for (int64_t r = 0; r < M; r++) {
            double mx = -INFINITY, sum = 0;
            for (int64_t c = 0; c < N; c++) mx = fmax(mx, X[r * N + c]);
            for (int64_t c = 0; c < N; c++) sum += exp(X[r * N + c] - mx);
            for (int64_t c = 0; c < N; c++) want[r * N + c] = exp(X[r * N + c] - mx) / sum;
        }
        LAUNCH(ith_kernel(&p, "softmax"), T2(X, M, N), T2(Y, M, N));
        expect_close(Y, want, M * N, 1e-12, 0, "softmax");   /* f32-only path, double reference */
        free(X);
        free(Y);
        free(want);
    }
    ith_prog_free(&p);
    free(src);
}
END_TEST

/* ---------------------------------------------------------------- attention (examples/attention.tk) */

static void attention_case(const TirFunc *f, int64_t B, int64_t H, int64_t S, bool causal)
{
    const int64_t D = 64;
    size_t n = (size_t)(B * H * S * D);
    double *Q = ith_alloc_fill(n, 0), *K = ith_alloc_fill(n, 0), *V = ith_alloc_fill(n, 0), *O = ith_alloc_fill(n, 777);
    double *want = ith_alloc_fill(n, 0), *w = ith_alloc_fill((size_t)S, 0);
    for (size_t i = 0; i < n; i++) {
        Q[i] = ith_ref_bf16(ith_uniform(-1, 1));
        K[i] = ith_ref_bf16(ith_uniform(-1, 1));
        V[i] = ith_ref_bf16(ith_uniform(-1, 1));
    }
    const double scale = 0.125;
    double vmax = 0;
    for (size_t i = 0; i < n; i++) vmax = fmax(vmax, fabs(V[i]));
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            const double *q = Q + (b * H + h) * S * D, *k = K + (b * H + h) * S * D, *v = V + (b * H + h) * S * D;
            double *o = want + (b * H + h) * S * D;
            for (int64_t i = 0; i < S; i++) {
                int64_t last = causal ? i : S - 1;
                double mx = -INFINITY, sum = 0;
                for (int64_t j = 0; j <= last; j++) {
                    double s = 0;
                    for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[j * D + d];
                    w[j] = s * scale;
                    mx = fmax(mx, w[j]);
                }
                for (int64_t j = 0; j <= last; j++) sum += (w[j] = exp(w[j] - mx));
                for (int64_t d = 0; d < D; d++) {
                    double acc = 0;
                    for (int64_t j = 0; j <= last; j++) acc += w[j] / sum * v[j * D + d];
                    o[i * D + d] = acc;
                }
            }
        }
    LAUNCH(f, T4(Q, B, H, S, D), T4(K, B, H, S, D), T4(V, B, H, S, D), T4(O, B, H, S, D), SC(scale), SC(causal));
    /* The kernel rounds P to bf16 before P·V (relative error <= 2^-9 per
     * weight, so <= 2^-9·max|v| on the output) and rounds the output to bf16
     * (<= 2^-9 relative): 4·2^-9·max|v| covers both with room. */
    for (size_t i = 0; i < n; i++) ck_assert_double_eq(O[i], ith_ref_bf16(O[i]));   /* stored values are bf16 */
    char what[64];
    snprintf(what, sizeof what, "O (B=%lld H=%lld S=%lld causal=%d)", (long long)B, (long long)H, (long long)S, causal);
    expect_close(O, want, n, 0, 4 * 0x1p-9 * vmax, what);
    free(Q);
    free(K);
    free(V);
    free(O);
    free(want);
    free(w);
}

START_TEST(attention_example_non_causal)
{
    char *src = ith_read_example("attention.tk");
    Prog p;
    ith_prog_load(&p, src);
    ith_seed(6);
    attention_case(ith_kernel(&p, "attention"), 1, 2, 17, false);
    attention_case(ith_kernel(&p, "attention"), 2, 1, 70, false);
    attention_case(ith_kernel(&p, "attention"), 1, 1, 1, false);
    ith_prog_free(&p);
    free(src);
}
END_TEST

START_TEST(attention_example_causal)
{
    char *src = ith_read_example("attention.tk");
    Prog p;
    ith_prog_load(&p, src);
    ith_seed(7);
    attention_case(ith_kernel(&p, "attention"), 1, 2, 17, true);
    attention_case(ith_kernel(&p, "attention"), 2, 1, 70, true);
    attention_case(ith_kernel(&p, "attention"), 1, 1, 130, true);
    ith_prog_free(&p);
    free(src);
}
END_TEST

Suite *tk_suite_interp_kernels(void)
{
    Suite *s = suite_create("interp_kernels");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);   /* the examples under sanitizers */
    tcase_add_test(tc, gemm_example_ragged_sizes);
    tcase_add_test(tc, warps_exchange_through_shared_after_sync);
    tcase_add_test(tc, warps_private_slots_and_barrier_if);
    tcase_add_test(tc, softmax_example);
    tcase_add_test(tc, attention_example_non_causal);
    tcase_add_test(tc, attention_example_causal);
    suite_add_tcase(s, tc);
    return s;
}
