/* test_interp_tiles.c — the TIR reference interpreter (lower/interp/tir_interp.c) on tile ops:
 * bf16/f16 rounding, masks (tril/triu, rows and columns), reductions and broadcasts, element-wise
 * maps, the mma forms, transpose and convert, masked loads and stores, shared tiles and vectors.
 *
 * Harness, method and tolerances: interp_harness.h. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_harness.h"

/* ---------------------------------------------------------------- rounding */

START_TEST(rounding_bf16_and_f16)
{
    /* every bf16 / f16 value is kept as is */
    for (uint32_t b = 0; b < 0x10000u; b++) {
        uint32_t u = b << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        double r = tir_round_bf16(f);
        ck_assert_msg(isnan(f) ? isnan(r) : r == (double)f, "bf16 %#x", b);
        double hv = ith_f16_value((uint16_t)b);
        double hr = tir_round_f16(hv);
        ck_assert_msg(isnan(hv) ? isnan(hr) : hr == hv, "f16 %#x", b);
    }
    /* ties to even, overflow, subnormals */
    ck_assert(tir_round_bf16(1.0 + 0x1p-8) == 1.0);
    ck_assert(tir_round_bf16(1.0 + 3 * 0x1p-8) == 1.0 + 0x1p-6);
    ck_assert(tir_round_bf16(-(1.0 + 0x1p-8 + 0x1p-20)) == -(1.0 + 0x1p-7));
    ck_assert(isinf(tir_round_bf16(3.4e38)) && tir_round_bf16(3.39e38) == 3.3895313892515355e38);
    ck_assert(tir_round_bf16(3.38e38) == 3.3762391092936863e38 && tir_round_bf16(3.3961e38) == 3.3895313892515355e38);
    ck_assert(tir_round_f16(65519.0) == 65504.0 && isinf(tir_round_f16(65520.0)) && tir_round_f16(-65520.0) < 0);
    ck_assert(tir_round_f16(0x1p-25) == 0.0 && tir_round_f16(0x1.0001p-25) == 0x1p-24 && tir_round_f16(3 * 0x1p-25) == 0x1p-23);
    ck_assert(tir_round_f16(1.0 + 0x1p-11) == 1.0 && tir_round_f16(1.0 + 3 * 0x1p-11) == 1.0 + 0x1p-9);
    ck_assert(isnan(tir_round_bf16(NAN)) && isnan(tir_round_f16(NAN)));
    /* random values over a wide range, against the independent references */
    ith_seed(1);
    for (int i = 0; i < 200000; i++) {
        double x = ith_uniform(-1, 1) * ldexp(1.0, (int)ith_uniform(-30, 20));
        ck_assert_msg(tir_round_bf16(x) == ith_ref_bf16(x), "bf16(%a) = %a, want %a", x, tir_round_bf16(x), ith_ref_bf16(x));
        ck_assert_msg(tir_round_f16(x) == ith_ref_f16(x), "f16(%a) = %a, want %a", x, tir_round_f16(x), ith_ref_f16(x));
#ifdef __FLT16_MAX__
        ck_assert(ith_ref_f16(x) == (double)(_Float16)(float)x);   /* the compiler agrees, where it has f16 */
#endif
    }
}
END_TEST

/* ---------------------------------------------------------------- masks */

START_TEST(tril_triu)
{
    Prog p;
    ith_prog_load(&p,
              "kernel tri(gl<f32, M, N> X, gl<f32, M, N> L, gl<f32, M, N> U, i32 k) {\n"
              "    rt<f32, 32, 48> t = load(X, 0, 0);\n"
              "    store(L, tril(t, k), 0, 0);\n"
              "    store(U, triu(t, k, -1.5), 0, 0);\n"
              "}\n");
    const int64_t M = 32, N = 48;
    double *X = ith_alloc_fill(M * N, 0), *L = ith_alloc_fill(M * N, 9), *U = ith_alloc_fill(M * N, 9);
    double *wl = ith_alloc_fill(M * N, 0), *wu = ith_alloc_fill(M * N, 0);
    ith_seed(8);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    static const int ks[] = { -100, -5, 0, 1, 7, 47, 100 };
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        int k = ks[t];
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                wl[i * N + j] = j - i <= k ? X[i * N + j] : 0.0;
                wu[i * N + j] = j - i >= k ? X[i * N + j] : -1.5;
            }
        LAUNCH(ith_kernel(&p, "tri"), T2(X, M, N), T2(L, M, N), T2(U, M, N), SC(k));
        expect_close(L, wl, M * N, 0, 0, "tril");   /* exact: selection only */
        expect_close(U, wu, M * N, 0, 0, "triu");
    }
    free(X);
    free(L);
    free(U);
    free(wl);
    free(wu);
    ith_prog_free(&p);
}
END_TEST

START_TEST(mask_rows_and_cols)
{
    Prog p;
    ith_prog_load(&p,
              "kernel msk(gl<f32, M, N> X, gl<f32, M, N> R, gl<f32, M, N> C, i32 n) {\n"
              "    rt<f32, 32, 48> t = load(X, 0, 0);\n"
              "    store(R, mask_rows(t, n, 2.5), 0, 0);\n"
              "    store(C, mask_cols(t, n, -inf), 0, 0);\n"
              "}\n");
    const int64_t M = 32, N = 48;
    double *X = ith_alloc_fill(M * N, 0), *R = ith_alloc_fill(M * N, 9), *C = ith_alloc_fill(M * N, 9);
    double *wr = ith_alloc_fill(M * N, 0), *wc = ith_alloc_fill(M * N, 0);
    ith_seed(9);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    static const int ns[] = { -3, 0, 5, 16, 40, 48, 1000 };
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int n = ns[t];
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                wr[i * N + j] = i < n ? X[i * N + j] : 2.5;
                wc[i * N + j] = j < n ? X[i * N + j] : -INFINITY;
            }
        LAUNCH(ith_kernel(&p, "msk"), T2(X, M, N), T2(R, M, N), T2(C, M, N), SC(n));
        expect_close(R, wr, M * N, 0, 0, "mask_rows");
        expect_close(C, wc, M * N, 0, 0, "mask_cols");
    }
    free(X);
    free(R);
    free(C);
    free(wr);
    free(wc);
    ith_prog_free(&p);
}
END_TEST

/* ---------------------------------------------------------------- reductions and broadcasts */

START_TEST(reductions)
{
    static const char *const fns[] = { "row_max", "row_min", "row_sum", "col_max", "col_min", "col_sum" };
    const int64_t M = 32, N = 48;
    double *X = ith_alloc_fill(M * N, 0), *XB = ith_alloc_fill(M * N, 0);
    ith_seed(10);
    for (int64_t i = 0; i < M * N; i++) {
        X[i] = ith_uniform(-4, 4);
        XB[i] = ith_ref_bf16(ith_uniform(-4, 4));
    }
    for (size_t k = 0; k < 6; k++) {
        bool rows = fns[k][0] == 'r';
        char src[1024];
        snprintf(src, sizeof src,
                 "kernel red(gl<f32, M, N> X, gl<f32, %s> V, gl<bf16, M, N> XB, gl<bf16, %s> VB) {\n"
                 "    rt<f32, 32, 48> t = load(X, 0, 0);\n"
                 "    store(V, %s(t), 0);\n"
                 "    rt<bf16, 32, 48, col> b = load(XB, 0, 0);\n"
                 "    store(VB, %s(b), 0);\n"
                 "}\n",
                 rows ? "M" : "N", rows ? "M" : "N", fns[k], fns[k]);
        Prog p;
        ith_prog_load(&p, src);
        int64_t n = rows ? M : N, inner = rows ? N : M;
        double *V = ith_alloc_fill(n, 9), *VB = ith_alloc_fill(n, 9), *want = ith_alloc_fill(n, 0), *wantb = ith_alloc_fill(n, 0);
        for (int64_t o = 0; o < n; o++) {
            double acc = 0, accb = 0;
            for (int64_t i = 0; i < inner; i++) {
                int64_t e = rows ? o * N + i : i * N + o;
                if (fns[k][4] == 's') {
                    acc += X[e];
                    accb += XB[e];
                } else {
                    bool mx = fns[k][5] == 'a';
                    acc = i == 0 ? X[e] : mx ? fmax(acc, X[e]) : fmin(acc, X[e]);
                    accb = i == 0 ? XB[e] : mx ? fmax(accb, XB[e]) : fmin(accb, XB[e]);
                }
            }
            want[o] = acc;
            wantb[o] = ith_ref_bf16(accb);   /* bf16: reduced wide, rounded once at the end */
        }
        LAUNCH(ith_kernel(&p, "red"), T2(X, M, N), T1(V, n), T2(XB, M, N), T1(VB, n));
        expect_close(V, want, n, 1e-12, 1e-12, fns[k]);
        /* the bf16 sum of 32-48 bf16 values is exact in double, so one rounding: exact */
        expect_close(VB, wantb, n, 0, 0, fns[k]);
        free(V);
        free(VB);
        free(want);
        free(wantb);
        ith_prog_free(&p);
    }
    free(X);
    free(XB);
}
END_TEST

START_TEST(broadcasts)
{
    static const char *const fns[] = { "add_row", "sub_row", "mul_row", "div_row", "add_col", "sub_col", "mul_col", "div_col" };
    const int64_t M = 32, N = 48;
    double *X = ith_alloc_fill(M * N, 0), *R = ith_alloc_fill(M, 0), *C = ith_alloc_fill(N, 0);
    ith_seed(11);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-4, 4);
    for (int64_t i = 0; i < M; i++) R[i] = ith_uniform(0.5, 2);
    for (int64_t i = 0; i < N; i++) C[i] = ith_uniform(-2, -0.5);
    for (size_t k = 0; k < 8; k++) {
        bool rows = strstr(fns[k], "row") != NULL;
        char src[1024];
        snprintf(src, sizeof src,
                 "kernel bc(gl<f32, M, N> X, gl<f32, M> R, gl<f32, N> C, gl<f32, M, N> Y) {\n"
                 "    rt<f32, 32, 48> t = load(X, 0, 0);\n"
                 "    rv<f32, %s> v = load(%s, 0);\n"
                 "    store(Y, %s(t, v), 0, 0);\n"
                 "}\n",
                 rows ? "32" : "48", rows ? "R" : "C", fns[k]);
        Prog p;
        ith_prog_load(&p, src);
        double *Y = ith_alloc_fill(M * N, 9), *want = ith_alloc_fill(M * N, 0);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                double a = X[i * N + j], b = rows ? R[i] : C[j];
                want[i * N + j] = fns[k][0] == 'a' ? a + b : fns[k][0] == 's' ? a - b : fns[k][0] == 'm' ? a * b : a / b;
            }
        LAUNCH(ith_kernel(&p, "bc"), T2(X, M, N), T1(R, M), T1(C, N), T2(Y, M, N));
        expect_close(Y, want, M * N, 0, 0, fns[k]);   /* one double op per element: exact */
        free(Y);
        free(want);
        ith_prog_free(&p);
    }
    free(X);
    free(R);
    free(C);
}
END_TEST

/* ---------------------------------------------------------------- element-wise maps */

static double ref_map1(const char *fn, double x)
{
    if (!strcmp(fn, "neg")) return -x;
    if (!strcmp(fn, "abs")) return fabs(x);
    if (!strcmp(fn, "exp")) return exp(x);
    if (!strcmp(fn, "exp2")) return pow(2.0, x);
    if (!strcmp(fn, "log")) return log(x);
    if (!strcmp(fn, "sqrt")) return sqrt(x);
    if (!strcmp(fn, "rsqrt")) return 1.0 / sqrt(x);
    if (!strcmp(fn, "tanh")) return (exp(x) - exp(-x)) / (exp(x) + exp(-x));
    if (!strcmp(fn, "sigmoid")) return 1.0 / (1.0 + exp(-x));
    if (!strcmp(fn, "relu")) return x > 0 ? x : 0.0;
    if (!strcmp(fn, "gelu")) return 0.5 * x * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
    if (!strcmp(fn, "silu")) return x / (1.0 + exp(-x));
    ck_abort_msg("unknown fn %s", fn);
    return 0;
}

START_TEST(maps_f32_and_bf16)
{
    static const char *const fns[] = { "neg", "abs", "exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "silu" };
    const int64_t M = 20, N = 40;   /* ragged: 2×3 tiles of 16×16 */
    double *X = ith_alloc_fill(M * N, 0), *XB = ith_alloc_fill(M * N, 0);
    ith_seed(12);
    for (int64_t i = 0; i < M * N; i++) {
        X[i] = ith_uniform(-3, 3);
        XB[i] = ith_ref_bf16(ith_uniform(-3, 3));
    }
    X[0] = 0.0;
    X[1] = -0.0;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "kernel m(gl<f32, M, N> X, gl<f32, M, N> Y, gl<bf16, M, N> XB, gl<bf16, M, N> YB)\n"
                 "    grid(cdiv(N, 16), cdiv(M, 16)) {\n"
                 "    rt<f32, 16, 16> t = load(X, block.y, block.x);\n"
                 "    store(Y, %s(t), block.y, block.x);\n"
                 "    rt<bf16, 16, 16> b = load(XB, block.y, block.x);\n"
                 "    store(YB, %s(b), block.y, block.x);\n"
                 "}\n",
                 fns[k], fns[k]);
        Prog p;
        ith_prog_load(&p, src);
        double *Y = ith_alloc_fill(M * N, 9), *YB = ith_alloc_fill(M * N, 9), *want = ith_alloc_fill(M * N, 0), *wantb = ith_alloc_fill(M * N, 0);
        for (int64_t i = 0; i < M * N; i++) {
            want[i] = ref_map1(fns[k], X[i]);
            wantb[i] = ith_ref_bf16(ref_map1(fns[k], XB[i]));
        }
        LAUNCH(ith_kernel(&p, "m"), T2(X, M, N), T2(Y, M, N), T2(XB, M, N), T2(YB, M, N));
        /* f32: the reference formulas (tanh, exp2 written differently) agree to 1e-12 */
        expect_close(Y, want, M * N, 1e-12, 1e-15, fns[k]);
        /* bf16: one rounding of the exact result; a libm difference of an ulp of
         * double can flip a tie, so allow one bf16 ulp (2^-7 relative) */
        expect_close(YB, wantb, M * N, 0x1p-7, 0, fns[k]);
        if (!strcmp(fns[k], "neg")) ck_assert(signbit(Y[0]) && !signbit(Y[1]));
        free(Y);
        free(YB);
        free(want);
        free(wantb);
        ith_prog_free(&p);
    }
    free(X);
    free(XB);
}
END_TEST

/* tile⊕tile, tile⊕scalar, scalar⊕tile, with f16 rounding after every op. */
START_TEST(map2_forms_and_f16_rounding)
{
    Prog p;
    ith_prog_load(&p,
              "kernel m2(gl<f32, M, N> X, gl<f32, M, N> Y, gl<f16, M, N> H, gl<f16, M, N> G, f32 s) {\n"
              "    rt<f32, 16, 32> t = load(X, 0, 0);\n"
              "    store(Y, sub(s, div(max(t, 0.25) * t, min(t, s) + 3.0)), 0, 0);\n"
              "    rt<f16, 16, 32> h = load(H, 0, 0);\n"
              "    store(G, h * h + 1.0, 0, 0);\n"
              "}\n");
    const int64_t M = 16, N = 32;
    double *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, 0), *H = ith_alloc_fill(M * N, 0), *G = ith_alloc_fill(M * N, 0);
    double *want = ith_alloc_fill(M * N, 0), *wantg = ith_alloc_fill(M * N, 0);
    ith_seed(13);
    const double s = 0.75;
    for (int64_t i = 0; i < M * N; i++) {
        X[i] = ith_uniform(-2, 2);
        H[i] = ith_ref_f16(ith_uniform(-40, 40));
        double a = fmax(X[i], 0.25) * X[i], b = fmin(X[i], s) + 3.0;
        want[i] = s - a / b;
        float hh = (float)ith_ref_f16((float)H[i] * (float)H[i]);   /* f16 ops: in f32, rounded to f16 */
        wantg[i] = ith_ref_f16(hh + 1.0f);
    }
    LAUNCH(ith_kernel(&p, "m2"), T2(X, M, N), T2(Y, M, N), T2(H, M, N), T2(G, M, N), SC(s));
    expect_close(Y, want, M * N, 1e-15, 0, "Y");   /* same double ops in the same order */
    expect_close(G, wantg, M * N, 0, 0, "G");      /* exact f16 results */
    free(X);
    free(Y);
    free(H);
    free(G);
    free(want);
    free(wantg);
    ith_prog_free(&p);
}
END_TEST

/* ---------------------------------------------------------------- mma forms, transpose, convert */

START_TEST(mma_forms_and_transpose)
{
    Prog p;
    ith_prog_load(&p,
              "kernel mm(gl<f32, M, M> A, gl<f32, M, M> B, gl<f32, M, M> C0, gl<f32, M, M> C1,\n"
              "          gl<f32, M, M> C2, gl<f32, M, M> C3, gl<f32, M, M> T, gl<bf16, M, M> CB) {\n"
              "    rt<f32, 32, 32> c = zeros();\n"
              "    mma_ab(c, load<rt<f32, 32, 16>>(A, 0, 0), load<rt<f32, 16, 32, col>>(B, 0, 0));\n"
              "    store(C0, c, 0, 0);\n"
              "    c = zeros();\n"
              "    mma_abt(c, load<rt<f32, 32, 16>>(A, 0, 0), load<rt<f32, 32, 16>>(B, 0, 0));\n"
              "    store(C1, c, 0, 0);\n"
              "    c = ones();\n"
              "    mma_atb(c, load<rt<f32, 16, 32, col>>(A, 0, 0), load<rt<f32, 16, 32, col>>(B, 0, 0));\n"
              "    store(C2, c, 0, 0);\n"
              "    c = zeros();\n"
              "    mma_atbt(c, load<rt<f32, 16, 32, col>>(A, 0, 0), load<rt<f32, 32, 16>>(B, 0, 0));\n"
              "    mma_atbt(c, load<rt<f32, 16, 32, col>>(A, 0, 0), load<rt<f32, 32, 16>>(B, 0, 0));\n"
              "    store(C3, c, 0, 0);\n"
              "    store(T, transpose(load<rt<f32, 16, 32>>(A, 0, 0)), 0, 0);\n"
              "    store(CB, convert<rt<bf16, 32, 32, col>>(c), 0, 0);\n"
              "}\n");
    const int64_t M = 32;
    double *A = ith_alloc_fill(M * M, 0), *B = ith_alloc_fill(M * M, 0), *C[4], *W[4], *T = ith_alloc_fill(M * M, 9);
    double *CB = ith_alloc_fill(M * M, 9), *wt = ith_alloc_fill(M * M, 9), *wcb = ith_alloc_fill(M * M, 0);
    for (int k = 0; k < 4; k++) {
        C[k] = ith_alloc_fill(M * M, 9);
        W[k] = ith_alloc_fill(M * M, 0);
    }
    ith_seed(14);
    for (int64_t i = 0; i < M * M; i++) {
        A[i] = ith_uniform(-1, 1);
        B[i] = ith_uniform(-1, 1);
    }
    for (int64_t i = 0; i < 32; i++)
        for (int64_t j = 0; j < 32; j++) {
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (int64_t k = 0; k < 16; k++) {
                s0 += A[i * M + k] * B[k * M + j];   /* A 32×16 · B 16×32 */
                s1 += A[i * M + k] * B[j * M + k];   /* A 32×16 · (B 32×16)ᵀ */
                s2 += A[k * M + i] * B[k * M + j];   /* (A 16×32)ᵀ · B 16×32 */
                s3 += A[k * M + i] * B[j * M + k];   /* (A 16×32)ᵀ · (B 32×16)ᵀ */
            }
            W[0][i * M + j] = s0;
            W[1][i * M + j] = s1;
            W[2][i * M + j] = 1 + s2;
            W[3][i * M + j] = 2 * s3;
            wcb[i * M + j] = ith_ref_bf16(2 * s3);
        }
    for (int64_t i = 0; i < 32; i++)
        for (int64_t j = 0; j < 16; j++) wt[i * M + j] = A[j * M + i];
    LAUNCH(ith_kernel(&p, "mm"), T2(A, M, M), T2(B, M, M), T2(C[0], M, M), T2(C[1], M, M), T2(C[2], M, M), T2(C[3], M, M),
           T2(T, M, M), T2(CB, M, M));
    for (int k = 0; k < 4; k++) {
        char what[16];
        snprintf(what, sizeof what, "C%d", k);
        expect_close(C[k], W[k], M * M, 1e-12, 1e-13, what);   /* 16-term dot products, order may differ */
    }
    expect_close(T, wt, M * M, 0, 0, "transpose");
    /* CB = bf16(2·s3): compare through the reference's rounding of the exact value;
     * a 1e-13 difference in s3 may flip a rounding only at a tie, allow one ulp */
    expect_close(CB, wcb, M * M, 0x1p-7, 0, "convert");
    for (int64_t i = 0; i < M * M; i++) ck_assert_double_eq(CB[i], ith_ref_bf16(CB[i]));
    for (int k = 0; k < 4; k++) {
        free(C[k]);
        free(W[k]);
    }
    free(A);
    free(B);
    free(T);
    free(CB);
    free(wt);
    free(wcb);
    ith_prog_free(&p);
}
END_TEST

/* ---------------------------------------------------------------- masked loads and stores */

START_TEST(masked_loads_and_stores)
{
    Prog p;
    ith_prog_load(&p,
              "kernel shift(gl<f32, M, N> X, gl<f32, M, N> Y, i32 dy, i32 dx) {\n"
              "    rt<f32, 16, 32> t = load(X, dy, dx);\n"
              "    store(Y, t, dy + 1, dx - 1);\n"
              "}\n");
    const int64_t M = 20, N = 40;
    double *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, 0), *want = ith_alloc_fill(M * N, 0);
    ith_seed(15);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    static const int cases[][2] = { { 0, 0 }, { -1, 1 }, { 1, 0 }, { 0, 2 }, { -1, 0 }, { 2, 1 }, { -5, 7 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int dy = cases[c][0], dx = cases[c][1];
        for (int64_t i = 0; i < M * N; i++) Y[i] = want[i] = -7.0;   /* untouched outside the store */
        for (int64_t i = 0; i < 16; i++)
            for (int64_t j = 0; j < 32; j++) {
                int64_t sr = dy * 16 + i, sc = dx * 32 + j, dr = (dy + 1) * 16 + i, dc = (dx - 1) * 32 + j;
                double v = sr >= 0 && sr < M && sc >= 0 && sc < N ? X[sr * N + sc] : 0.0;
                if (dr >= 0 && dr < M && dc >= 0 && dc < N) want[dr * N + dc] = v;
            }
        LAUNCH(ith_kernel(&p, "shift"), T2(X, M, N), T2(Y, M, N), SC(dy), SC(dx));
        expect_close(Y, want, M * N, 0, 0, "Y");
    }
    free(X);
    free(Y);
    free(want);
    ith_prog_free(&p);
}
END_TEST

/* ---------------------------------------------------------------- shared tiles and vectors */

START_TEST(shared_subtiles_elements_and_copies)
{
    Prog p;
    ith_prog_load(&p,
              "kernel sh(gl<f32, N> V, gl<f32, N> W, gl<f32, M, N> X, gl<f32, M, N> Y) warps(2) {\n"
              "    sv<f32, 64> S = load(V, 0);\n"
              "    st<f32, 32, 64> A = load(X, 0, 0);\n"
              "    st<f32, 32, 64> B;\n"
              "    sync();\n"
              "    rv<f32, 32> half = load(S, warp.id);\n"
              "    f32 e = A[warp.id, 5];\n"
              "    sync();\n"
              "    store(S, mul(half, 3.0), 1 - warp.id);\n"
              "    if (warp.id == 0) {\n"
              "        S[63] = 42.0;\n"
              "    }\n"
              "    A[31, 63] = e;\n"
              "    sync();\n"
              "    B = A;\n"
              "    sync();\n"
              "    store(W, S, 0);\n"
              "    store(Y, B, 0, 0);\n"
              "}\n");
    const int64_t N = 64, M = 32;
    double *V = ith_alloc_fill(N, 0), *W = ith_alloc_fill(N, 9), *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, 9);
    ith_seed(16);
    for (int64_t i = 0; i < N; i++) V[i] = ith_uniform(-1, 1);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    LAUNCH(ith_kernel(&p, "sh"), T1(V, N), T1(W, N), T2(X, M, N), T2(Y, M, N));
    for (int64_t i = 0; i < 32; i++) {
        ck_assert_double_eq(W[i], 3 * V[32 + i]);
        if (i < 31) ck_assert_double_eq(W[32 + i], 3 * V[i]);
    }
    ck_assert_double_eq(W[63], 42.0);
    for (int64_t i = 0; i < M * N - 1; i++) ck_assert_double_eq(Y[i], X[i]);
    /* both warps wrote A[31, 63] (a race the language allows); warp 1 runs last here */
    ck_assert_double_eq(Y[M * N - 1], X[1 * N + 5]);
    free(V);
    free(W);
    free(X);
    free(Y);
    ith_prog_free(&p);
}
END_TEST

/* `B = A` between shared tiles is not block-collective (LANGUAGE.md §4.2):
 * each warp that executes it copies, so it also works under a condition that
 * only warp 1 takes. */
START_TEST(shared_copy_is_per_warp)
{
    Prog p;
    ith_prog_load(&p,
              "kernel cp(gl<f32, M, N> X, gl<f32, M, N> Y) warps(2) {\n"
              "    st<f32, 32, 64> A = load(X, 0, 0);\n"
              "    st<f32, 32, 64> B;\n"
              "    sync();\n"
              "    if (warp.id == 1) {\n"
              "        B = A;\n"
              "    }\n"
              "    sync();\n"
              "    store(Y, B, 0, 0);\n"
              "}\n");
    const int64_t M = 32, N = 64;
    double *X = ith_alloc_fill(M * N, 0), *Y = ith_alloc_fill(M * N, 9);
    ith_seed(18);
    for (int64_t i = 0; i < M * N; i++) X[i] = ith_uniform(-1, 1);
    LAUNCH(ith_kernel(&p, "cp"), T2(X, M, N), T2(Y, M, N));
    expect_close(Y, X, M * N, 0, 0, "Y");
    free(X);
    free(Y);
    ith_prog_free(&p);
}
END_TEST

Suite *tk_suite_interp_tiles(void)
{
    Suite *s = suite_create("interp_tiles");
    TCase *tc = tcase_create("tiles");
    tcase_set_timeout(tc, 60);   /* generous for sanitizer builds */
    tcase_add_test(tc, rounding_bf16_and_f16);
    tcase_add_test(tc, tril_triu);
    tcase_add_test(tc, mask_rows_and_cols);
    tcase_add_test(tc, reductions);
    tcase_add_test(tc, broadcasts);
    tcase_add_test(tc, maps_f32_and_bf16);
    tcase_add_test(tc, map2_forms_and_f16_rounding);
    tcase_add_test(tc, mma_forms_and_transpose);
    tcase_add_test(tc, masked_loads_and_stores);
    tcase_add_test(tc, shared_subtiles_elements_and_copies);
    tcase_add_test(tc, shared_copy_is_per_warp);
    suite_add_tcase(s, tc);
    return s;
}
