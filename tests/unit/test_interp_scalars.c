/* test_interp_scalars.c — the TIR reference interpreter (lower/interp/tir_interp.c) on scalar code:
 * logical operators, untyped constants, integer and conversion semantics, inlined helpers with
 * early returns.
 *
 * Harness, method and tolerances: interp_harness.h. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_harness.h"

/* ---------------------------------------------------------------- scalars */

static double wrap32(int64_t v) { return (double)(int32_t)(uint32_t)(uint64_t)v; }

/* && and || (short-circuit, §5.8) and ! over every pair of truth values,
 * against the truth tables written here: the lowering is shared with every
 * compiled kernel, so only an independent expectation can check it. */
START_TEST(logical_operators_truth_tables)
{
    Prog p;
    ith_prog_load(&p,
              "kernel logic(gl<f32, N> Y, i32 a, i32 b) {\n"
              "    rv<f32, 16> r = zeros();\n"
              "    let x = a > 0;\n"
              "    let y = b > 0;\n"
              "    if (x || y) { r[0] = 1.0; }\n"
              "    if (x && y) { r[1] = 1.0; }\n"
              "    if (!x || y) { r[2] = 1.0; }\n"
              "    if (!(x && !y)) { r[3] = 1.0; }\n"
              "    if ((x || y) && !(x && y)) { r[4] = 1.0; }\n"
              "    bool z = x || y;\n"
              "    if (z == true) { r[5] = 1.0; }\n"
              "    store(Y, r, 0);\n"
              "}\n");
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double *Y = ith_alloc_fill(16, 9);
            Arg args[] = { T1(Y, 16), SC(a), SC(b) };
            ith_launch(ith_kernel(&p, "logic"), args, 3);
            bool x = a, y = b;
            ck_assert_msg(Y[0] == (x || y) && Y[1] == (x && y) && Y[2] == (!x || y) && Y[3] == !(x && !y) && Y[4] == ((x || y) && !(x && y)) &&
                              Y[5] == (x || y),
                          "a=%d b=%d: %g %g %g %g %g %g", a, b, Y[0], Y[1], Y[2], Y[3], Y[4], Y[5]);
            free(Y);
        }
    ith_prog_free(&p);
}
END_TEST

/* An untyped integer constant without context takes i32 — INT32_MIN and
 * INT32_MAX included — so arithmetic on it wraps at 32 bits. */
START_TEST(untyped_constants_at_the_edges_of_i32)
{
    Prog p;
    ith_prog_load(&p,
              "kernel edges(gl<f32, N> Y, i32 a) {\n"
              "    let lo = -2147483648;\n"
              "    let hi = 2147483647;\n"
              "    i64 wide = 2147483648;\n"
              "    rv<f32, 16> r = zeros();\n"
              "    r[0] = convert<f32>(lo - 1);\n"
              "    r[1] = convert<f32>(hi + 1);\n"
              "    r[2] = convert<f32>(wide + 1);\n"
              "    r[3] = convert<f32>(a + -2147483648);\n"
              "    r[4] = convert<f32>(-2147483648 - a);\n"
              "    r[5] = convert<f32>(a * -2147483648);\n"
              "    store(Y, r, 0);\n"
              "}\n");
    double *Y = ith_alloc_fill(16, 9);
    Arg args[] = { T1(Y, 16), SC(-1) };
    ith_launch(ith_kernel(&p, "edges"), args, 2);
    ck_assert_double_eq(Y[0], 2147483647.0);    /* i32: wraps to INT32_MAX */
    ck_assert_double_eq(Y[1], -2147483648.0);   /* i32: wraps to INT32_MIN */
    ck_assert_double_eq(Y[2], 2147483649.0);    /* declared i64 */
    /* INT32_MIN itself beside an i32 operand: i32 arithmetic, wrapping */
    ck_assert_double_eq(Y[3], 2147483647.0);
    ck_assert_double_eq(Y[4], -2147483647.0);
    ck_assert_double_eq(Y[5], -2147483648.0);
    free(Y);
    ith_prog_free(&p);
}
END_TEST

START_TEST(integer_and_conversion_semantics)
{
    Prog p;
    ith_prog_load(&p,
              "kernel ints(gl<f32, N> Y, i32 a, i32 b, f32 x) {\n"
              "    rv<f32, 16> r = zeros();\n"
              "    r[0] = convert<f32>(a + b);\n"
              "    r[1] = convert<f32>(a * b);\n"
              "    r[2] = convert<f32>(a / b);\n"
              "    r[3] = convert<f32>(a % b);\n"
              "    r[4] = convert<f32>(cdiv(a, b));\n"
              "    r[5] = convert<f32>(convert<i32>(x));\n"
              "    r[6] = convert<f32>(-a);\n"
              "    r[7] = convert<f32>(abs(a));\n"
              "    r[8] = convert<f32>(max(a, b) - min(a, b));\n"
              "    i64 big = convert<i64>(a) * convert<i64>(b);\n"
              "    r[9] = convert<f32>(big);\n"
              "    r[10] = convert<f32>(convert<i32>(big));\n"
              "    r[11] = convert<f32>(convert<i64>(x));\n"
              "    r[12] = convert<bf16>(x);\n"
              "    if (a < b && !(x > 0.0)) {\n"
              "        r[13] = 1.0;\n"
              "    }\n"
              "    r[14] = convert<f32>(convert<f16>(x));\n"
              "    store(Y, r, 0);\n"
              "}\n");
    static const struct { int32_t a, b; double x; } cases[] = {
        { INT32_MAX, 1, 3e9 }, { INT32_MIN, -1, -3e9 }, { 7, 0, NAN }, { -7, 2, -2.7 }, { 123456, 654321, 1e30 },
        { -1, 5, -0.0 }, { 100000, -3, 70000.0 },
    };
    double *Y = ith_alloc_fill(16, 9);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int64_t a = cases[c].a, b = cases[c].b;
        double x = cases[c].x, want[16] = { 0 };
        want[0] = wrap32(a + b);
        want[1] = wrap32(a * b);
        want[2] = b == 0 ? 0 : wrap32(a / b);   /* division by zero gives 0; INT_MIN / -1 wraps */
        want[3] = b == 0 ? 0 : wrap32(a % b);
        want[4] = b <= 0 ? 0 : (double)(a / b + (a % b > 0));
        want[5] = isnan(x) ? 0 : x >= 2147483647.0 ? 2147483647.0 : x <= -2147483648.0 ? -2147483648.0 : trunc(x);
        want[6] = wrap32(-a);
        want[7] = wrap32(a < 0 ? -a : a);
        want[8] = wrap32((a > b ? a : b) - (a < b ? a : b));
        want[9] = (double)(a * b);
        want[10] = wrap32(a * b);
        want[11] = isnan(x) ? 0 : x >= 0x1p63 ? 0x1p63 : x <= -0x1p63 ? -0x1p63 : trunc(x);
        want[12] = ith_ref_bf16(x);
        want[13] = a < b && !(x > 0) ? 1.0 : 0.0;
        want[14] = ith_ref_f16(x);
        LAUNCH(ith_kernel(&p, "ints"), T1(Y, 16), SC((double)a), SC((double)b), SC(x));
        char what[64];
        snprintf(what, sizeof what, "ints(%lld, %lld, %g)", (long long)a, (long long)b, x);
        expect_close(Y, want, 16, 0, 0, what);
    }
    free(Y);
    ith_prog_free(&p);
}
END_TEST

/* Inlined helpers: by-value copies, early returns (also inside a loop). */
START_TEST(helpers_with_early_returns)
{
    Prog p;
    ith_prog_load(&p,
              "fn prefix(rv<f32, 16> v, i32 n) -> f32 {\n"
              "    if (n <= 0) {\n"
              "        return 0.0;\n"
              "    }\n"
              "    f32 s = 0.0;\n"
              "    for (i in 0 .. 16) {\n"
              "        if (i >= n) {\n"
              "            return s;\n"
              "        }\n"
              "        s += v[i];\n"
              "    }\n"
              "    return s;\n"
              "}\n"
              "fn scale(rv<f32, 16> v) -> rv<f32, 16> {\n"
              "    v = mul(v, 2.0);\n"
              "    return v;\n"
              "}\n"
              "kernel h(gl<f32, N> V, gl<f32, N> R, i32 n) {\n"
              "    rv<f32, 16> v = load(V, 0);\n"
              "    rv<f32, 16> r = scale(v);\n"
              "    r[0] = prefix(v, n);\n"
              "    r[1] = prefix(v, n + 3);\n"
              "    r[2] = v[2];\n"
              "    store(R, r, 0);\n"
              "}\n");
    double V[16], R[16];
    ith_seed(17);
    for (int i = 0; i < 16; i++) V[i] = ith_uniform(-1, 1);
    static const int ns[] = { -2, 0, 1, 5, 13, 16, 40 };
    for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
        int n = ns[c];
        double want[16];
        for (int i = 0; i < 16; i++) want[i] = 2 * V[i];
        for (int k = 0; k < 2; k++) {
            int m = n + 3 * k;
            double s = 0;
            for (int i = 0; i < 16 && i < m; i++) s += V[i];
            want[k] = s;
        }
        want[2] = V[2];   /* the helper's write to its copy of v does not leak out */
        LAUNCH(ith_kernel(&p, "h"), T1(V, 16), T1(R, 16), SC(n));
        expect_close(R, want, 16, 1e-15, 1e-15, "R");
    }
    ith_prog_free(&p);
}
END_TEST

Suite *tk_suite_interp_scalars(void)
{
    Suite *s = suite_create("interp_scalars");
    TCase *tc = tcase_create("scalars");
    tcase_set_timeout(tc, 60);   /* generous for sanitizer builds */
    tcase_add_test(tc, integer_and_conversion_semantics);
    tcase_add_test(tc, untyped_constants_at_the_edges_of_i32);
    tcase_add_test(tc, logical_operators_truth_tables);
    tcase_add_test(tc, helpers_with_early_returns);
    suite_add_tcase(s, tc);
    return s;
}
