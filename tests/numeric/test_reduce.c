/* test_reduce.c — the six reductions and the eight broadcasts (§6.7) on f32,
 * bf16 and f16 tiles in row and col layout, at tensor sizes with ragged
 * edges (masked loads put zeros into the tiles, which then take part in the
 * reductions exactly as the language says), and a -inf-masked row_max;
 * mask_cols and the row reductions of vectors (one value each).
 *
 * Tolerances:
 *  - max/min and all broadcasts: one exact selection or one IEEE op, rounded
 *    once: EXACT (see test_elementwise.c).
 *  - sums of n elements: the JIT accumulates in f32 in some order, the
 *    interpreter in double: |error| <= (n - 1)·2^-24·Σ|x| (recursive
 *    summation), Σ|x| <= n for inputs in [-1, 1): atol n²·2^-24; bf16/f16
 *    results are rounded once at the end, so the f32 error may tip the
 *    rounding: 1 ulp of the 16-bit type, or that atol. */
#include <math.h>
#include <stdlib.h>

#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };

static NumProg prog;

static void build(void)
{
    NumStr s = { 0 };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned l = 0; l < 2; l++) {
            const char *T = TYPES[t], *L = l ? "col" : "row";
            /* row layout 16×32, col layout 32×16 */
            int R = l ? 32 : 16, C = l ? 16 : 32;
            ns_printf(&s,
                      "kernel red_%s_%s(gl<%s, M, N> X, gl<%s, J, M> RMAX, gl<%s, J, M> RMIN, gl<%s, J, M> RSUM,\n"
                      "                 gl<%s, I, N> CMAX, gl<%s, I, N> CMIN, gl<%s, I, N> CSUM, gl<%s, J, M> RMASK)\n"
                      "    grid(J, I) {\n"
                      "    rt<%s, %d, %d, %s> t = load(X, block.y, block.x);\n"
                      "    store(RMAX, row_max(t), block.x, block.y);\n"
                      "    store(RMIN, row_min(t), block.x, block.y);\n"
                      "    store(RSUM, row_sum(t), block.x, block.y);\n"
                      "    store(CMAX, col_max(t), block.y, block.x);\n"
                      "    store(CMIN, col_min(t), block.y, block.x);\n"
                      "    store(CSUM, col_sum(t), block.y, block.x);\n"
                      "    store(RMASK, row_max(mask_cols(t, N - %d * block.x, -inf)), block.x, block.y);\n"
                      "}\n",
                      L, T, T, T, T, T, T, T, T, T, T, R, C, L, C);
            ns_printf(&s,
                      "kernel bc_%s_%s(gl<%s, M, N> X, gl<%s, M> R, gl<%s, N> V,\n"
                      "                gl<%s, M, N> AR, gl<%s, M, N> SR, gl<%s, M, N> MR, gl<%s, M, N> DR,\n"
                      "                gl<%s, M, N> AC, gl<%s, M, N> SC, gl<%s, M, N> MC, gl<%s, M, N> DC)\n"
                      "    grid(cdiv(N, %d), cdiv(M, %d)) {\n"
                      "    rt<%s, %d, %d, %s> t = load(X, block.y, block.x);\n"
                      "    rv<%s, %d> r = load(R, block.y);\n"
                      "    rv<%s, %d> c = load(V, block.x);\n"
                      "    store(AR, add_row(t, r), block.y, block.x);\n"
                      "    store(SR, sub_row(t, r), block.y, block.x);\n"
                      "    store(MR, mul_row(t, r), block.y, block.x);\n"
                      "    store(DR, div_row(t, r), block.y, block.x);\n"
                      "    store(AC, add_col(t, c), block.y, block.x);\n"
                      "    store(SC, sub_col(t, c), block.y, block.x);\n"
                      "    store(MC, mul_col(t, c), block.y, block.x);\n"
                      "    store(DC, div_col(t, c), block.y, block.x);\n"
                      "}\n",
                      L, T, T, T, T, T, T, T, T, T, T, T, T, C, R, T, R, C, L, T, R, T, C);
        }
    /* mask_cols of a vector: a row walked in rv pieces, the ragged last one
     * masked (past N, x + 1 would add 1), and a count n that may be <= 0 or
     * past the vector's end */
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel vmask_%s(gl<%s, M, N> X, gl<%s, M, 64> Y, gl<%s, M, 64> Z, i32 n) grid(M) {\n"
                  "    rv<%s, 64> acc = zeros();\n"
                  "    for (j in 0 .. cdiv(N, 64)) {\n"
                  "        rv<%s, 64> x = load(X, block.x, j);\n"
                  "        acc = acc + mask_cols(x + 1.0, N - j * 64, 0.0);\n"
                  "    }\n"
                  "    store(Y, acc, block.x, 0);\n"
                  "    store(Z, mask_cols(load<rv<%s, 64>>(X, block.x, 0), n, -2.5), block.x, 0);\n"
                  "}\n",
                  T, T, T, T, T, T, T);
    }
    /* row_sum/row_max/row_min of a vector → one value: of a load read in
     * place (the fused lanes path), of masked pieces folded into scalars
     * across a row, and of a variable (a vector of 48: three accumulators) */
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel vred_%s(gl<%s, M, N> X, gl<%s, M, 16> S, gl<%s, M, 16> MX, gl<%s, M, 16> MN, gl<%s, M, 16> SV)\n"
                  "    grid(M) {\n"
                  "    %s mx = -inf;\n"
                  "    %s mn = inf;\n"
                  "    rv<%s, 48> acc = zeros();\n"
                  "    for (j in 0 .. cdiv(N, 64)) {\n"
                  "        rv<%s, 64> x = load(X, block.x, j);\n"
                  "        mx = max(mx, row_max(mask_cols(x, N - j * 64, -inf)));\n"
                  "        mn = min(mn, row_min(mask_cols(x * 2.0, N - j * 64, inf)));\n"
                  "        acc = acc + x[16 .. 64];\n"
                  "    }\n"
                  "    rv<%s, 16> s = fill(row_sum(load<rv<%s, 64>>(X, block.x, 0)));\n"
                  "    store(S, s, block.x, 0);\n"
                  "    rv<%s, 16> a = fill(mx);\n"
                  "    store(MX, a, block.x, 0);\n"
                  "    rv<%s, 16> b = fill(mn);\n"
                  "    store(MN, b, block.x, 0);\n"
                  "    rv<%s, 16> c = fill(row_sum(acc));\n"
                  "    store(SV, c, block.x, 0);\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T, T, T, T, T, T, T);
    }
    num_build(&prog, "reduce", s.s);
    ns_free(&s);
}

static void teardown(void) { num_free(&prog); }

START_TEST(reductions)
{
    static const int64_t sizes[][2] = { { 16, 32 }, { 1, 1 }, { 47, 70 }, { 100, 17 } };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 4; k++) {
                int R = l ? 32 : 16, C = l ? 16 : 32;
                int64_t M = sizes[k][0], N = sizes[k][1];
                char name[32], sz[96];
                snprintf(name, sizeof name, "red_%s_%s", l ? "col" : "row", TYPES[t]);
                snprintf(sz, sizeof sz, "M=%lld,N=%lld,J=%lld,I=%lld", (long long)M, (long long)N, (long long)((N + C - 1) / C),
                         (long long)((M + R - 1) / R));
                double n = R > C ? R : C;
                NumTol sum = { .atol = n * n * 0x1p-24, .ulps = t ? 1 : 0 };
                NumSpec spec = { .sizes = sz, .seed = 7 + k, .tol = TOL_EXACT, .per = { { "RSUM", sum }, { "CSUM", sum } } };
                NumRun r;
                num_run(&prog, name, &spec, &r);
                num_run_free(&r);
            }
}
END_TEST

START_TEST(broadcasts)
{
    static const char *const sizes[] = { "M=32,N=32", "M=1,N=1", "M=47,N=70", "M=100,N=17" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 4; k++) {
                char name[32];
                snprintf(name, sizeof name, "bc_%s_%s", l ? "col" : "row", TYPES[t]);
                NumSpec spec = { .sizes = sizes[k], .seed = 11 + k, .tol = TOL_EXACT };
                NumRun r;
                num_run(&prog, name, &spec, &r);
                num_run_free(&r);
            }
}
END_TEST

START_TEST(vector_masks)
{
    static const char *const sizes[] = { "M=3,N=70", "M=2,N=64", "M=1,N=5", "M=4,N=200" };
    static const char *const counts[] = { "n=10", "n=0", "n=-3", "n=64", "n=100" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 4; k++) {
            char name[32];
            snprintf(name, sizeof name, "vmask_%s", TYPES[t]);
            NumSpec spec = { .sizes = sizes[k], .sets = counts[(k + t) % 5], .seed = 3 + k, .tol = { .ulps = t ? 1 : 0, .atol = 1e-6 } };
            NumRun r;
            num_run(&prog, name, &spec, &r);
            num_run_free(&r);
        }
}
END_TEST

/* Row maxima and minima (times 2) of X, over its N columns, as a plain loop. */
static void row_extremes(const double *x, int64_t m, int64_t n, double *mx, double *mn)
{
    for (int64_t i = 0; i < m; i++) {
        double hi = -INFINITY, lo = INFINITY;
        for (int64_t j = 0; j < n; j++) {
            hi = fmax(hi, x[i * n + j]);
            lo = fmin(lo, 2 * x[i * n + j]);
        }
        for (int k = 0; k < 16; k++) {
            mx[i * 16 + k] = hi;
            mn[i * 16 + k] = lo;
        }
    }
}

START_TEST(vector_reductions)
{
    static const int64_t sizes[][2] = { { 3, 70 }, { 2, 64 }, { 1, 5 }, { 4, 200 } };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 4; k++) {
            int64_t M = sizes[k][0], N = sizes[k][1];
            char name[32], sz[64];
            snprintf(name, sizeof name, "vred_%s", TYPES[t]);
            snprintf(sz, sizeof sz, "M=%lld,N=%lld", (long long)M, (long long)N);
            /* S sums 64 elements of [-1, 1), SV 48 sums of up to 4 pieces:
             * n·2^-24·Σ|x| (see the top), or 1 ulp of a 16-bit result */
            NumTol s64 = { .atol = 64 * 64 * 0x1p-24, .ulps = t ? 1 : 0 }, s48 = { .atol = 48 * 192 * 0x1p-24, .ulps = t ? 1 : 0 };
            NumSpec spec = { .sizes = sz, .seed = 5 + k, .tol = TOL_EXACT, .per = { { "S", s64 }, { "SV", s48 } } };
            NumRun r;
            num_run(&prog, name, &spec, &r);
            /* the extremes against a plain loop too (X's values are exact in T) */
            double *mx = malloc(sizeof *mx * (size_t)(M * 16)), *mn = malloc(sizeof *mn * (size_t)(M * 16));
            ck_assert(mx && mn);
            row_extremes(r.init[num_param(&r, "X")], M, N, mx, mn);
            num_expect(r.got[num_param(&r, "MX")], mx, M * 16, r.elem[0], TOL_EXACT, name);
            num_expect(r.got[num_param(&r, "MN")], mn, M * 16, r.elem[0], TOL_EXACT, name);
            free(mx);
            free(mn);
            num_run_free(&r);
        }
}
END_TEST

/* The group's AOT twin (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none. */
static const unsigned AOT = NUM_AOT;

Suite *num_suite_reduce(void)
{
    Suite *s = suite_create("reduce");
    for (unsigned v = 0; v < 2; v++) {
        unsigned paths = num_variant(v, AOT);
        if (!paths) continue;
        TCase *tc = num_tcase_paths("reduce_broadcast", build, teardown, paths);
        tcase_add_test(tc, reductions);
        tcase_add_test(tc, broadcasts);
        tcase_add_test(tc, vector_masks);
        tcase_add_test(tc, vector_reductions);
        suite_add_tcase(s, tc);
    }
    return s;
}
