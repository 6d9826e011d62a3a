/* test_types_shapes.c — the type checker: shapes: the mma forms and their layouts, reductions,
 * broadcasts, transpose and convert, default layouts, and symbolic sizes unified as polynomials.
 *
 * Harness and method: types_harness.h. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"
#include "types.h"
#include "types_harness.h"

/* ---------------------------------------------------------------- mma */

typedef struct {
    const char *name;
    const char *a_ok, *b_ok;       /* the layout-correct operand types (M=64, N=32, K=16) */
    const char *a_bad, *b_bad;     /* the same shapes, the other layout */
} MmaForm;

static const MmaForm mma_forms[] = {
    { "mma_ab",   "rt<%s, 64, 16, row>", "rt<%s, 16, 32, col>", "rt<%s, 64, 16, col>", "rt<%s, 16, 32, row>" },
    { "mma_abt",  "rt<%s, 64, 16, row>", "rt<%s, 32, 16, row>", "rt<%s, 64, 16, col>", "rt<%s, 32, 16, col>" },
    { "mma_atb",  "rt<%s, 16, 64, col>", "rt<%s, 16, 32, col>", "rt<%s, 16, 64, row>", "rt<%s, 16, 32, row>" },
    { "mma_atbt", "rt<%s, 16, 64, col>", "rt<%s, 32, 16, row>", "rt<%s, 16, 64, row>", "rt<%s, 32, 16, col>" },
};

static const char *mma_program(char *buf, size_t size, const char *acc, const MmaForm *m, const char *ta, const char *tb,
                               const char *elem)
{
    char a[64], b[64], body[512];
    snprintf(a, sizeof a, ta, elem);
    snprintf(b, sizeof b, tb, elem);
    snprintf(body, sizeof body, "%s acc = zeros();\n%s a = zeros();\n%s b = zeros();\n%s(acc, a, b);", acc, a, b, m->name);
    return tth_kernel_with(buf, size, "", body);
}

START_TEST(mma_every_form_accepts_its_layouts)
{
    static const char *const elems[] = { "bf16", "f16", "f32" };
    char buf[2048];
    for (size_t f = 0; f < sizeof mma_forms / sizeof mma_forms[0]; f++)
        for (size_t e = 0; e < 3; e++)
            assert_ok(mma_program(buf, sizeof buf, "rt<f32, 64, 32>", &mma_forms[f], mma_forms[f].a_ok, mma_forms[f].b_ok,
                                  elems[e]));
}
END_TEST

START_TEST(mma_wrong_layout_one_error)
{
    char buf[2048];
    for (size_t f = 0; f < sizeof mma_forms / sizeof mma_forms[0]; f++) {
        const MmaForm *m = &mma_forms[f];
        const char *combos[3][2] = { { m->a_bad, m->b_ok }, { m->a_ok, m->b_bad }, { m->a_bad, m->b_bad } };
        for (int c = 0; c < 3; c++) {
            const char *src = mma_program(buf, sizeof buf, "rt<f32, 64, 32>", m, combos[c][0], combos[c][1], "bf16");
            Run r;
            tth_run(&r, src);
            expect_count(&r, 1);
            msg_has(&r, 0, m->name);
            msg_has(&r, 0, "layout");
            /* reported at the operand: A when A is wrong, else B */
            uint32_t at = tth_offset_of(src, combos[c][0] == m->a_bad ? "a, b)" : "b)", 0);
            ck_assert_msg(tth_diag(&r, 0)->span.begin == at, "%s combo %d: error at %u, want %u", m->name, c,
                          tth_diag(&r, 0)->span.begin, at);
            tth_done(&r);
        }
        /* the accumulator must be row layout (and f32) */
        const char *src = mma_program(buf, sizeof buf, "rt<f32, 64, 32, col>", m, m->a_ok, m->b_ok, "bf16");
        Run r;
        tth_run(&r, src);
        expect_count(&r, 1);
        msg_has(&r, 0, m->name);
        msg_has(&r, 0, "layout");
        expected_is(&r, 0, "rt<f32, 64, 32, row>");
        tth_done(&r);
    }
}
END_TEST

START_TEST(mma_other_errors)
{
    char buf[2048];
    /* bf16 accumulator */
    assert_errors(mma_program(buf, sizeof buf, "rt<bf16, 64, 32>", &mma_forms[0], mma_forms[0].a_ok, mma_forms[0].b_ok, "bf16"),
                  1, "accumulator of mma_ab must be an f32 tile");
    /* A and B element types differ */
    assert_errors(tth_kernel_with(buf, sizeof buf, "",
                              "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<f16, 16, 32, col> b; mma_ab(acc, a, b);"),
                  1, "A and B of mma_ab have different element types");
    /* inner dimension */
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<bf16, 32, 16, row> b; mma_abt(acc, a, b);"));
    expect_count(&r, 0);
    tth_done(&r);
    assert_errors(tth_kernel_with(buf, sizeof buf, "",
                              "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<bf16, 32, 32, col> b; mma_ab(acc, a, b);"),
                  1, "inner dimensions of mma_ab do not match", "K = 16", "K = 32");
    /* accumulator not mutable */
    assert_errors(tth_kernel_with(buf, sizeof buf, "",
                              "let acc = zeros<rt<f32, 64, 32>>(); rt<bf16, 64, 16> a; rt<bf16, 16, 32, col> b; mma_ab(acc, a, b);"),
                  1, "accumulator of mma_ab must be a mutable variable");
}
END_TEST

/* ---------------------------------------------------------------- shapes */

START_TEST(reductions_give_vectors_of_the_right_length)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64> t = zeros();\n"
                          "rv<f32, 32> r = row_sum(t); rv<f32, 64> c = col_max(t);\n"
                          "rv<f32, 32> r2 = row_max(t); rv<f32, 64> c2 = col_sum(t);"));
    Run r;
    const char *src = tth_kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t = zeros();\nrv<f32, 64> r = row_sum(t);");
    tth_run(&r, src);
    expect_count(&r, 1);
    expected_is(&r, 0, "rv<f32, 64>");
    found_is(&r, 0, "rv<f32, 32>");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "row_sum", 0));
    tth_done(&r);
    /* element type is kept */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64> t; rv<f32, 32> r = row_sum(t);"), 1,
                  "has type rv<bf16, 32>, but rv<f32, 32> is needed");
}
END_TEST

START_TEST(broadcasts_check_vector_length)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64> t; rv<f32, 32> r; rv<f32, 64> c;\n"
                          "t = add_row(t, r); t = mul_col(t, c); t = sub_row(t, row_max(t)); t = div_col(t, col_sum(t));"));
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rv<f32, 64> c; t = add_row(t, c);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "add_row needs one value per row");
    expected_is(&r, 0, "rv<f32, 32>");
    found_is(&r, 0, "rv<f32, 64>");
    tth_done(&r);
}
END_TEST

START_TEST(transpose_swaps_dims)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64, col> t; rt<bf16, 64, 32, col> u = transpose(t);"));
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64, col> t; rt<bf16, 32, 64, col> u = transpose(t);"));
    expect_count(&r, 1);
    found_is(&r, 0, "rt<bf16, 64, 32, col>");
    tth_done(&r);
    /* the layout tag is kept */
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rt<f32, 64, 32, col> u = transpose(t);"), 1,
                  "has type rt<f32, 64, 32, row>");
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rv<f32, 32> v; rv<f32, 32> w = transpose(v);"), 1,
                  "transpose must be a register tile");
}
END_TEST

START_TEST(convert_element_keeps_shape_and_layout)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64, col> t; rt<bf16, 32, 64, col> h = convert<bf16>(t);\n"
                          "rv<f32, 32> v; rv<f16, 32> w = convert<f16>(v); i32 q = convert<i32>(s);"));
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64, col> t; rt<bf16, 32, 64> h = convert<bf16>(t);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "has type rt<bf16, 32, 64, col>, but rt<bf16, 32, 64, row> is needed");
    tth_done(&r);
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rt<f32, 32, 64> u = convert<i32>(t);"), 1,
                  "cannot convert to i32");
}
END_TEST

START_TEST(convert_to_full_tile_type)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "",
                          "rt<f32, 64, 64> t = zeros(); rt<bf16, 64, 64, col> h = convert<rt<bf16, 64, 64, col>>(t);\n"
                          "rt<f32, 64, 64, col> c = convert<rt<f32, 64, 64, col>>(t);"));
    Run r;
    tth_run(&r, tth_kernel_with(buf, sizeof buf, "",
                        "rt<f32, 64, 64> t; rt<bf16, 64, 32, col> h = convert<rt<bf16, 64, 32, col>>(t);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "convert cannot change a tile's shape");
    found_is(&r, 0, "rt<bf16, 64, 32, col>");
    tth_done(&r);
}
END_TEST

START_TEST(default_layout_is_row)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> a; rt<f32, 16, 16, row> b = a; a = b + a;"));
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> a; rt<f32, 16, 16, col> b; a = a + b;"), 1,
                  "operands of add have different layouts");
}
END_TEST

/* ---------------------------------------------------------------- symbolic sizes */

START_TEST(helper_sizes_unify_as_polynomials)
{
    /* 2*N with N := Q equals Q + Q */
    assert_ok("fn h(gl<f32, M, N> x, gl<f32, M, 2*N> y) { }\n"
              "kernel k(gl<f32, P, Q> A, gl<f32, P, Q + Q> B) { h(A, B); }\n");
    /* (M + 1) * K in the kernel, P*Q + Q in the helper */
    assert_ok("fn h(gl<f32, P> x, gl<f32, Q> y, gl<f32, P*Q + Q> z) { }\n"
              "kernel k(gl<f32, M> a, gl<f32, K> b, gl<f32, (M + 1) * K> c) { h(a, b, c); }\n");
}
END_TEST

START_TEST(helper_size_mismatch_names_the_dimension)
{
    const char *src = "fn h(gl<f32, M, N> x, gl<f32, M, 2*N> y) { }\n"
                      "kernel k(gl<f32, P, Q> A, gl<f32, P, Q + Q> B) { h(A, A); }\n";
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "dimension 1 of argument 2 of 'h' does not match");
    expected_is(&r, 0, "2*Q (from gl<f32, M, 2*N>)");
    found_is(&r, 0, "Q (in gl<f32, P, Q>)");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "A);", 0));
    tth_done(&r);
    /* M bound twice: from P (A's rows) and then compared with K */
    assert_errors("fn h(gl<f32, M, N> x, gl<f32, M, N> y) { }\n"
                  "kernel k(gl<f32, P, Q> A, gl<f32, K, Q> B) { h(A, B); }\n",
                  1, "dimension 0 of argument 2 of 'h' does not match");
    /* element type and rank must match exactly */
    assert_errors("fn h(gl<bf16, M> x) { }\nkernel k(gl<f32, P> A) { h(A); }\n", 1,
                  "argument 1 of 'h' has type gl<f32, P>, but gl<bf16, M> is needed");
}
END_TEST

START_TEST(size_only_in_compound_dim_cannot_be_bound)
{
    const char *src = "kernel k(gl<f32, M, 2*N> A) { }\n";
    Run r;
    tth_run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(tth_diag(&r, 0)->message, "size 'N' cannot be bound at launch");
    ck_assert_uint_eq(tth_diag(&r, 0)->span.begin, tth_offset_of(src, "N>", 0));
    tth_done(&r);
    /* alone somewhere is enough */
    assert_ok("kernel k(gl<f32, M, 2*N> A, gl<f32, N> B) { }\n");
    assert_errors("kernel k(gl<f32, M * N> A, gl<f32, M> B) { }\n", 1, "size 'N' cannot be bound at launch");
    /* a helper's sizes must likewise be inferable from its arguments */
    const char *helper = "fn h(gl<f32, M, 2*N> x) { }\nkernel k(gl<f32, P, Q> A) { h(A); }\n";
    Run q;
    tth_run(&q, helper);
    expect_count(&q, 1);
    msg_has(&q, 0, "size 'N' cannot be");
    ck_assert_uint_eq(tth_diag(&q, 0)->span.begin, tth_offset_of(helper, "N>", 0));
    tth_done(&q);
}
END_TEST

START_TEST(sizes_are_uniform_i32)
{
    char buf[2048];
    assert_ok(tth_kernel_with(buf, sizeof buf, "grid(cdiv(N, 64), cdiv(M, 64)) warps(4)",
                          "i32 rows = M; for (i in 0 .. cdiv(N, 64)) { sync(); } if (M > 64) { sync(); }"));
    assert_errors(tth_kernel_with(buf, sizeof buf, "", "M = 3;"), 1, "cannot assign to 'M'");
}
END_TEST

Suite *tk_suite_types_shapes(void)
{
    Suite *suite = suite_create("types_shapes");

    TCase *mma = tcase_create("mma");
    tcase_add_test(mma, mma_every_form_accepts_its_layouts);
    tcase_add_test(mma, mma_wrong_layout_one_error);
    tcase_add_test(mma, mma_other_errors);
    suite_add_tcase(suite, mma);

    TCase *shapes = tcase_create("shapes");
    tcase_add_test(shapes, reductions_give_vectors_of_the_right_length);
    tcase_add_test(shapes, broadcasts_check_vector_length);
    tcase_add_test(shapes, transpose_swaps_dims);
    tcase_add_test(shapes, convert_element_keeps_shape_and_layout);
    tcase_add_test(shapes, convert_to_full_tile_type);
    tcase_add_test(shapes, default_layout_is_row);
    suite_add_tcase(suite, shapes);

    TCase *sizes = tcase_create("sizes");
    tcase_add_test(sizes, helper_sizes_unify_as_polynomials);
    tcase_add_test(sizes, helper_size_mismatch_names_the_dimension);
    tcase_add_test(sizes, size_only_in_compound_dim_cannot_be_bound);
    tcase_add_test(sizes, sizes_are_uniform_i32);
    suite_add_tcase(suite, sizes);

    return suite;
}
