/* test_types_conversions.c — the type checker: implicit conversions (widening yes, narrowing and
 * int/float no, untyped constants where exact) and constant folding (tile dims, division by zero,
 * overflow, use before declaration).
 *
 * Harness and method: types_harness.h. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"
#include "types.h"
#include "types_harness.h"

/* ---------------------------------------------------------------- implicit conversions */

START_TEST(widenings_are_implicit)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "i32 a = 7; i64 b = a; b = a;\n"
                          "f16 h = 1.5; f32 f = h; f = h;\n"
                          "bf16 g = 2.5; f32 e = g;\n"
                          "i64 w = a + b; f32 v = g * f;"));
    /* helper arguments and returned values widen too */
    assert_ok("fn wide(i64 x, f32 y) -> f32 { bf16 z = 1.0; return z; }\n"
              "kernel k(gl<f32, N> X) { i32 a = 1; f16 h = 1.0; f32 r = wide(a, h); }\n");
    /* but the scalar of a tile-scalar operation is not widened: it must be the element type */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "bf16 g = 1.0; rt<f32, 16, 16> t = zeros(); t = t * g;"), 1,
                  "scalar operand of mul has type bf16, but the tile holds f32");
}
END_TEST

START_TEST(untyped_int_to_float_when_exact)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "f32 a = 16777216; f32 b = 16777218; f32 c = -16777216; f32 d = 1099511627776;\n"
                          "bf16 e = 256; bf16 f = 65280; f16 g = 2048; f16 h = 65504; f16 i = -65504;"));
}
END_TEST

START_TEST(untyped_float_to_any_float)
{
    char buf[2048];
    /* float literals round to nearest even: 0.1 is not exact in bf16 and that is fine */
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "bf16 a = 1.5; bf16 b = 0.1; bf16 c = -inf; f16 d = 65504.0; f32 e = 1e-45;\n"
                          "rt<bf16, 16, 16> t = fill(0.3); t = t * 0.5;"));
}
END_TEST

static void assert_narrowing(const char *decls, const char *from, const char *to)
{
    char body[512], buf[2048];
    snprintf(body, sizeof body, "%s", decls);
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", body));
    expect_count(&r, 1);
    char want[128];
    snprintf(want, sizeof want, "has type %s, but %s is needed", from, to);
    msg_has(&r, 0, want);
    expected_is(&r, 0, to);
    found_is(&r, 0, from);
    ck_assert_ptr_nonnull(tth_diag(&r, 0)->hint);
    ck_assert_ptr_nonnull(strstr(tth_diag(&r, 0)->hint, "convert<"));
    tth_done(&r);
}

START_TEST(narrowing_f32_to_bf16_rejected)
{
    assert_narrowing("f32 f = 1.0; bf16 b = f;", "f32", "bf16");
}
END_TEST

START_TEST(narrowing_i64_to_i32_rejected)
{
    assert_narrowing("i64 w = 3; i32 n = 0; n = w;", "i64", "i32");
}
END_TEST

START_TEST(narrowing_f32_to_f16_rejected)
{
    assert_narrowing("f32 f = 1.0; f16 h = f;", "f32", "f16");
}
END_TEST

START_TEST(int_float_and_f16_bf16_not_implicit)
{
    assert_narrowing("i32 n = 3; f32 f = n;", "i32", "f32");
    assert_narrowing("f16 h = 1.0; bf16 b = h;", "f16", "bf16");
    /* bool is not a number: convert<...> does not take or produce it, so the
     * hint must not suggest it */
    char buf[2048];
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "bool p = true; i32 n = p;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "has type bool, but i32 is needed");
    ck_assert_ptr_nonnull(tth_diag(&r, 0)->hint);
    ck_assert_ptr_null(strstr(tth_diag(&r, 0)->hint, "convert<"));
    tth_done(&r);
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "i32 n = 3; bool p = n; bool q = 1;"));
    expect_count(&r, 2);
    for (unsigned i = 0; i < 2; i++) {
        msg_has(&r, i, "but bool is needed");
        ck_assert_ptr_null(strstr(tth_diag(&r, i)->hint, "convert<"));
        ck_assert_ptr_nonnull(strstr(tth_diag(&r, i)->hint, "x != 0"));
    }
    tth_done(&r);
}
END_TEST

START_TEST(inexact_int_constant_rejected)
{
    char buf[2048];
    const char *src = tth_kernel_with(buf, sizeof buf, "", "f32 z = 16777217;");
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "16777217 is not exactly representable in f32");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "16777217", 0));
    ck_assert_uint_eq(tth_diag(&r, 0)->span.end, tth_offset_of(src, "16777217", 0) + 8);
    tth_done(&r);
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "bf16 b = 257;"), 1, "257", "bf16");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "f16 h = 65536;"), 1, "65536", "f16");
}
END_TEST

START_TEST(float_constant_to_int_rejected)
{
    char buf[2048];
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "i32 q = 3.0;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "float constant");
    msg_has(&r, 0, "i32");
    expected_is(&r, 0, "i32");
    tth_done(&r);
}
END_TEST

START_TEST(int_constant_out_of_range_rejected)
{
    char buf[2048];
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "i32 q = 5000000000;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "5000000000 does not fit in i32");
    found_is(&r, 0, "5000000000");
    tth_done(&r);
    /* fits in i64; and i32's own extremes fit */
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "i64 w = 5000000000; i32 lo = -2147483648; i32 hi = 2147483647;"));
    /* a let of an untyped constant becomes i32 */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "let big = 5000000000;"), 1, "does not fit in i32");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "i32 o = 2147483647 + 1;"), 1, "2147483648", "i32");
}
END_TEST

START_TEST(binary_operands_widen_or_fail)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "i32 a = 1; i64 b = 2; i64 c = a + b; i64 d = b * a; bool p = a < b;"));
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "i32 a = 1; i64 b = 2; i32 c = a + b;"), 1, "has type i64, but i32 is needed");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "f16 h = 1.0; bf16 g = 1.0; f32 x = h + g;"), 1,
                  "different types: f16 and bf16");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "i32 a = 1; f32 x = s + a;"), 1, "different types: f32 and i32");
}
END_TEST

START_TEST(compound_assignment_keeps_type)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "i64 w = 1; i32 n = 2; w += n; f32 f = 1.0; bf16 g = 1.0; f *= g;"));
    Run r;
    const char *src = tth_kernel_with(buf, sizeof buf, "", "i64 w = 1; i32 n = 2; n += w;");
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "would change the type of its target");
    expected_is(&r, 0, "i32");
    found_is(&r, 0, "i64");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "+=", 0));
    tth_done(&r);
}
END_TEST

/* ---------------------------------------------------------------- constants */

START_TEST(folded_constant_as_tile_dim)
{
    /* 2 * 3 + 1 = 7; 7 * 16 = 112 */
    assert_ok("const A = 2 * 3 + 1;\n"
              "kernel k(gl<f32, N> X) { rt<f32, A * 16, 16> t = zeros(); rt<f32, 112, 16> u = t; }\n");
    Run r;
    tth_run(&r, "const A = 2 * 3 + 1;\n"
            "kernel k(gl<f32, N> X) { rt<f32, A * 16, 16> t = zeros(); rt<f32, 96, 16> u = t; }\n");
    expect_count(&r, 1);
    found_is(&r, 0, "rt<f32, 112, 16, row>");
    expected_is(&r, 0, "rt<f32, 96, 16, row>");
    tth_done(&r);
    /* local constants and parenthesised dims */
    assert_ok("kernel k(gl<f32, N> X) { const R = 32; rt<f32, (R + R) * 2, R - 16> t = zeros(); rt<f32, 128, 16> u = t; }");
}
END_TEST

START_TEST(constant_division_by_zero)
{
    const char *src = "const Z = 1 / 0;\n";
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(tth_diag(&r, 0)->message, "division by zero");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "0", 0));
    tth_done(&r);
    assert_errors("const Z = 7 % (3 - 3);\n", 1, "remainder by zero");
    /* a constant whose value failed is not reported again where it is used */
    assert_errors("const Z = 1 / 0;\nkernel k(gl<f32, N> X) { i32 a = Z + 1; rt<f32, Z, 16> t; }\n", 1, "division by zero");
}
END_TEST

START_TEST(cdiv_is_not_a_tile_dim)
{
    /* Tile dims are dim expressions (literals, consts, + - *, parentheses):
     * a call is a syntax error at its '('. */
    const char *src = "kernel k(gl<f32, N> X) { rt<f32, cdiv(100, 32) * 16, 16> t = zeros(); }\n";
    Run r;
    tth_run(&r, src);
    ck_assert_uint_ge(r.parse_errors, 1);
    ck_assert_str_eq(tth_diag(&r, 0)->message, "unexpected '('");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "(100", 0));
    tth_done(&r);
    /* but a const may hold a folded cdiv: ceil(100 / 32) * 16 = 64 */
    assert_ok("const C = cdiv(100, 32) * 16;\n"
              "kernel k(gl<f32, N> X) { rt<f32, C, 16> t = zeros(); rt<f32, 64, 16> u = t; }\n");
    assert_errors("const C = cdiv(96, 32) * 16;\n"
                  "kernel k(gl<f32, N> X) { rt<f32, C, 16> t = zeros(); rt<f32, 64, 16> u = t; }\n",
                  1, "rt<f32, 48, 16, row>");
    /* nor is division */
    Run q;
    tth_run(&q, "kernel k(gl<f32, N> X) { rt<f32, 64 / 2, 16> t = zeros(); }\n");
    ck_assert_uint_ge(q.parse_errors, 1);
    ck_assert_str_eq(tth_diag(&q, 0)->message, "unexpected '/'");
    tth_done(&q);
}
END_TEST

START_TEST(constant_overflow)
{
    assert_errors("const O = 9223372036854775807 + 1;\n", 1, "constant arithmetic overflows");
    assert_errors("const O = 4611686018427387904 * 2;\n", 1, "constant arithmetic overflows");
    assert_errors("const O = -9223372036854775807 - 2;\n", 1, "constant arithmetic overflows");
    /* right at the edge is fine */
    assert_ok("const O = -9223372036854775807 - 1;\nconst P = 4611686018427387903 * 2 + 1;\n");
}
END_TEST

START_TEST(tile_dims_must_be_multiples_of_16_in_range)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "st<f32, 1024, 16> S; rt<f32, 256, 16> t; rv<f32, 256> v; sv<f32, 1024> w;"));
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 24, 16> t;"), 1, "24 is not a positive multiple of 16");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 16, 272> t;"), 1, "272", "up to 256");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "st<f32, 1040, 16> S;"), 1, "1040", "up to 1024");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rv<f32, 0> v;"), 1, "not a positive multiple of 16");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<i32, 16, 16> t;"), 1, "element type must be a float type");
}
END_TEST

START_TEST(constant_used_before_declaration)
{
    Run r;
    const char *src = "kernel k(gl<f32, N> X) { i32 a = C; }\nconst C = 4;\n";
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "'C'");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "C;", 0));
    tth_done(&r);
    /* functions, unlike constants, may be used before they are defined */
    assert_ok("kernel k(gl<f32, N> X) { i32 a = later(); }\nfn later() -> i32 { return 1; }\n");
}
END_TEST

Suite *tk_suite_types_conversions(void)
{
    Suite *suite = suite_create("types_conversions");

    TCase *conv = tcase_create("conversions");
    tcase_add_test(conv, widenings_are_implicit);
    tcase_add_test(conv, untyped_int_to_float_when_exact);
    tcase_add_test(conv, untyped_float_to_any_float);
    tcase_add_test(conv, narrowing_f32_to_bf16_rejected);
    tcase_add_test(conv, narrowing_i64_to_i32_rejected);
    tcase_add_test(conv, narrowing_f32_to_f16_rejected);
    tcase_add_test(conv, int_float_and_f16_bf16_not_implicit);
    tcase_add_test(conv, inexact_int_constant_rejected);
    tcase_add_test(conv, float_constant_to_int_rejected);
    tcase_add_test(conv, int_constant_out_of_range_rejected);
    tcase_add_test(conv, binary_operands_widen_or_fail);
    tcase_add_test(conv, compound_assignment_keeps_type);
    suite_add_tcase(suite, conv);

    TCase *consts = tcase_create("constants");
    tcase_add_test(consts, folded_constant_as_tile_dim);
    tcase_add_test(consts, constant_division_by_zero);
    tcase_add_test(consts, cdiv_is_not_a_tile_dim);
    tcase_add_test(consts, constant_overflow);
    tcase_add_test(consts, tile_dims_must_be_multiples_of_16_in_range);
    tcase_add_test(consts, constant_used_before_declaration);
    suite_add_tcase(suite, consts);

    return suite;
}
