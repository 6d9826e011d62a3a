/* test_types_flow.c — the type checker: what the checker proves about the flow of a kernel: value
 * intervals (warp ids, loop variables, modulo, let), uniformity of control flow around sync and
 * collectives, and recovery after an error.
 *
 * Harness and method: types_harness.h. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"
#include "types.h"
#include "types_harness.h"

/* ---------------------------------------------------------------- intervals */

static const char *subtile_program(char *buf, size_t size, int warps)
{
    char attrs[32];
    snprintf(attrs, sizeof attrs, "warps(%d)", warps);
    /* S is a 2×1 grid of 32×64 sub-tiles */
    return tth_kernel_with(buf, size, attrs,
                       "st<f32, 64, 64> S;\nlet i = warp.id / 2;\nrt<f32, 32, 64> t = load(S, i, 0);");
}

START_TEST(warp_id_interval_proves_subtile)
{
    char buf[2048];
    assert_ok(subtile_program(buf, sizeof buf, 4));   /* i in [0, 1] */
    assert_ok(subtile_program(buf, sizeof buf, 3));   /* i in [0, 1] */
}
END_TEST

START_TEST(warp_id_interval_too_wide)
{
    char buf[2048];
    const char *src = subtile_program(buf, sizeof buf, 8);   /* i in [0, 3] */
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sub-tile coordinate may be out of bounds for st<f32, 64, 64>");
    expected_is(&r, 0, "a coordinate in [0, 1]");
    found_is(&r, 0, "a coordinate in [0, 3]");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "i, 0)", 0));
    tth_done(&r);
}
END_TEST

START_TEST(loop_variable_interval)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "rt<f32, 64, 16> t = zeros();\nfor (j in 0 .. 4) { t[j * 16, 0] = 1.0; f32 v = t[j * 16 + 15, 15]; }"));
    const char *src = tth_kernel_with(buf, sizeof buf, "", "rt<f32, 64, 16> t = zeros();\nfor (j in 0 .. 5) { t[j * 16, 0] = 1.0; }");
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "row index may be out of bounds for rt<f32, 64, 16, row>");
    expected_is(&r, 0, "an index in [0, 63]");
    found_is(&r, 0, "an index in [0, 64]");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "j * 16", 0));
    tth_done(&r);
}
END_TEST

START_TEST(unknown_ranges_are_rejected)
{
    char buf[2048];
    /* a mutable variable has no interval, even if never reassigned */
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> t; i32 i = 0; f32 v = t[i, 0];"));
    expect_count(&r, 1);
    msg_has(&r, 0, "row index may be out of bounds");
    found_is(&r, 0, "an index whose range is not known at compile time");
    tth_done(&r);
    /* nor do block.x, sizes, or loops with a size as bound */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rv<f32, 16> v; f32 a = v[block.x];"), 1, "index may be out of bounds");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rv<f32, 16> v; for (i in 0 .. N) { v[i] = 0.0; }"), 1,
                  "index may be out of bounds");
    /* an i32 interval that leaves the i32 range proves nothing: (big + 1) wraps at run time */
    Run w;
    tth_run(&w, tth_kernel_with(buf, sizeof buf, "",
                        "rt<f32, 16, 16> t; let big = 2147483647; let idx = (big + 1) / 1073741824; t[idx - 2, 0] = 1.0;"));
    expect_count(&w, 1);
    msg_has(&w, 0, "row index may be out of bounds");
    found_is(&w, 0, "an index whose range is not known at compile time");
    tth_done(&w);
    /* negative is out of bounds too */
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(2)", "rv<f32, 16> v; f32 a = v[warp.id - 1];"), 1,
                  "index may be out of bounds");
}
END_TEST

START_TEST(modulo_and_let_intervals)
{
    char buf[2048];
    /* from LANGUAGE.md §7.3 */
    assert_ok(tth_kernel_with(buf, sizeof buf, "warps(4)",
                          "rt<f32, 64, 64> t = zeros();\nf32 corner = t[63, 63];\nlet w = warp.id;\n"
                          "for (i in 0 .. 16) { t[16 * w + i, 2 * i] = 0.0; }\n"
                          "rv<f32, 64> r = row_sum(t);\nf32 first = r[(w + 5) % 64];"));
    /* % by a constant bounds any non-negative value */
    assert_ok(tth_kernel_with(buf, sizeof buf, "warps(16)", "rv<f32, 16> v; let j = (warp.id * 1000) % 16; v[j] = 1.0;"));
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(16)", "rv<f32, 16> v; v[warp.id * 2] = 1.0;"), 1,
                  "index may be out of bounds");
}
END_TEST

/* ---------------------------------------------------------------- uniformity */

START_TEST(sync_under_uniform_condition)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "grid(4) warps(4)",
                          "if (block.x == 0) { sync(); }\n"
                          "if (s > 0.0) { sync(); } else { sync(); }\n"
                          "for (i in 0 .. M) { sync(); }\n"
                          "let lead = warp.id == 0; if (lead) { rt<f32, 16, 16> t = zeros(); }"));
}
END_TEST

START_TEST(sync_under_warp_id_condition)
{
    char buf[2048];
    const char *src = tth_kernel_with(buf, sizeof buf, "warps(4)", "if (warp.id == 0) { sync(); }");
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sync() must be reached by every warp of the block");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "sync", 0));
    ck_assert_ptr_nonnull(strstr(tth_diag(&r, 0)->found, "a condition at line 2"));
    tth_done(&r);
    /* through a let, and in the else branch */
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(4)", "let w = warp.id; if (w < 2) { } else { sync(); }"), 1,
                  "sync() must be reached by every warp");
    /* a loop whose bound varies */
    Run q;
    tth_run(&q, tth_kernel_with(buf, sizeof buf, "warps(4)", "for (i in 0 .. warp.id) { sync(); }"));
    expect_count(&q, 1);
    ck_assert_ptr_nonnull(strstr(tth_diag(&q, 0)->found, "loop"));
    ck_assert_ptr_nonnull(strstr(tth_diag(&q, 0)->found, "bounds"));
    tth_done(&q);
}
END_TEST

START_TEST(uniformity_fixpoint_sees_later_assignments)
{
    char buf[2048];
    /* v is assigned a varying value after the if; flow-insensitively v is varying */
    const char *src = tth_kernel_with(buf, sizeof buf, "warps(4)",
                                  "i32 v = 0;\nif (v > 0) { sync(); }\nfor (j in 0 .. 4) { v = warp.id; }");
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sync()");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "sync", 0));
    tth_done(&r);
    /* the same shape with a uniform assignment is fine */
    assert_ok(tth_kernel_with(buf, sizeof buf, "warps(4)", "i32 v = 0;\nif (v > 0) { sync(); }\nfor (j in 0 .. 4) { v = j + M; }"));
    /* a chain through another variable, both after the use */
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(4)", "i32 a = 0; i32 b = 0;\nif (a > 0) { sync(); }\na = b; b = warp.id;"),
                  1, "sync()");
    /* assigned a uniform value, but under a varying condition */
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(4)", "i32 v = 0;\nif (warp.id == 0) { v = 1; }\nif (v > 0) { sync(); }"),
                  1, "sync()");
    /* a tile element is varying */
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(4)", "rt<f32, 16, 16> t; f32 x = 0.0; x = t[0, 0];\nif (x > 0.0) { sync(); }"),
                  1, "sync()");
}
END_TEST

START_TEST(collectives_and_helpers_need_uniform_flow)
{
    char buf[2048];
    assert_errors(tth_kernel_with(buf, sizeof buf, "warps(4)", "st<f32, 64, 64> S;\nif (warp.id == 0) { S = load(X, 0, 0); }"), 1,
                  "load on shared memory is block-collective");
    /* a per-warp store into an st is fine there */
    assert_ok(tth_kernel_with(buf, sizeof buf, "warps(4)",
                          "st<f32, 64, 64> S;\nif (warp.id == 0) { rt<f32, 16, 64> p = zeros(); store(S, p, warp.id, 0); }"));
    /* a helper that syncs, called under a varying condition: the error is at the call */
    const char *src = "fn barrier() { sync(); }\n"
                      "kernel k(gl<f32, N> X) warps(4) { barrier(); if (warp.id == 1) { barrier(); } }\n";
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "helper 'barrier'");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "barrier()", 2));
    tth_done(&r);
    /* a helper whose result depends on warp.id makes the condition varying */
    assert_errors("fn who() -> i32 { return warp.id; }\n"
                  "kernel k(gl<f32, N> X) warps(4) { if (who() == 0) { sync(); } }\n",
                  1, "sync() must be reached by every warp");
}
END_TEST

/* ---------------------------------------------------------------- recovery */

START_TEST(unknown_name_reported_once)
{
    char buf[2048];
    const char *src = tth_kernel_with(buf, sizeof buf, "", "i32 a = foo;\ni32 b = foo + 1;\nf32 c = convert<f32>(foo * 2);");
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(tth_diag(&r, 0)->message, "unknown name 'foo'");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "foo", 0));
    ck_assert_uint_eq(tth_diag(&r, 0)->span.end, tth_offset_of(src, "foo", 0) + 3);
    tth_done(&r);
}
END_TEST

START_TEST(error_type_silences_dependents)
{
    char buf[2048];
    /* x gets the error type; every use of it, and of y, stays quiet */
    assert_errors(tth_kernel_with(buf, sizeof buf, "",
                              "let x = foo + 1;\nlet y = x * 2;\nf32 z = y;\nrt<f32, 16, 16> t; t = t + x; bf16 h = y;\n"
                              "if (x > 0) { sync(); }"),
                  1, "unknown name 'foo'");
    /* an ill-typed operand silences the operator around it */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "f16 h = 1.0; bf16 g = 1.0; f32 r = (h + g) * 2.0 + s;"), 1, "different types");
    /* a bad tile type: the variable is declared and later uses are quiet */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 17, 16> t;\nt = t * 2.0;\nrv<f32, 16> r = row_sum(t);"), 1, "17");
}
END_TEST

Suite *tk_suite_types_flow(void)
{
    Suite *suite = suite_create("types_flow");

    TCase *intervals = tcase_create("intervals");
    tcase_add_test(intervals, warp_id_interval_proves_subtile);
    tcase_add_test(intervals, warp_id_interval_too_wide);
    tcase_add_test(intervals, loop_variable_interval);
    tcase_add_test(intervals, unknown_ranges_are_rejected);
    tcase_add_test(intervals, modulo_and_let_intervals);
    suite_add_tcase(suite, intervals);

    TCase *uniform = tcase_create("uniformity");
    tcase_add_test(uniform, sync_under_uniform_condition);
    tcase_add_test(uniform, sync_under_warp_id_condition);
    tcase_add_test(uniform, uniformity_fixpoint_sees_later_assignments);
    tcase_add_test(uniform, collectives_and_helpers_need_uniform_flow);
    suite_add_tcase(suite, uniform);

    TCase *recovery = tcase_create("recovery");
    tcase_add_test(recovery, unknown_name_reported_once);
    tcase_add_test(recovery, error_type_silences_dependents);
    suite_add_tcase(suite, recovery);

    return suite;
}
