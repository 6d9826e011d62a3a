/* test_shape.c — symbolic dimension arithmetic (lang/shape.c). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "shape.h"

/* Size variables of a pretend kernel; extra ones (V0..) fill capacity. */
enum { VAR_M, VAR_N, VAR_K, VAR_COUNT };

static const char *var_name(void *ctx, TkSizeVar var)
{
    (void)ctx;
    static const char *const names[] = {"M", "N", "K", "A", "B", "C", "D", "E", "F", "G", "H"};
    return var < sizeof names / sizeof names[0] ? names[var] : "?";
}

static TkPoly cnst(int64_t value)
{
    TkPoly p;
    tk_poly_const(&p, value);
    return p;
}

static TkPoly var(TkSizeVar v)
{
    TkPoly p;
    tk_poly_var(&p, v);
    return p;
}

/* Test helpers that must not fail: a false return is a test failure. */
static TkPoly add(TkPoly a, TkPoly b)
{
    TkPoly out;
    ck_assert(tk_poly_add(&out, &a, &b));
    return out;
}

static TkPoly sub(TkPoly a, TkPoly b)
{
    TkPoly out;
    ck_assert(tk_poly_sub(&out, &a, &b));
    return out;
}

static TkPoly mul(TkPoly a, TkPoly b)
{
    TkPoly out;
    ck_assert(tk_poly_mul(&out, &a, &b));
    return out;
}

static void assert_formats_as(TkPoly p, const char *expected)
{
    char buf[128];
    int len = tk_poly_format(&p, var_name, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, expected);
    ck_assert_int_eq(len, (int)strlen(expected));
}

/* ---- construction and canonical form ---- */

START_TEST(const_zero_has_no_terms)
{
    TkPoly zero = cnst(0);
    ck_assert_uint_eq(zero.nterms, 0);
    int64_t value = -1;
    ck_assert(tk_poly_is_const(&zero, &value));
    ck_assert_int_eq(value, 0);
}
END_TEST

START_TEST(constructors_build_single_terms)
{
    TkPoly seven = cnst(7);
    ck_assert_uint_eq(seven.nterms, 1);
    ck_assert_int_eq(seven.terms[0].coef, 7);
    ck_assert_uint_eq(seven.terms[0].nvars, 0);

    TkPoly n = var(VAR_N);
    ck_assert_uint_eq(n.nterms, 1);
    ck_assert_int_eq(n.terms[0].coef, 1);
    ck_assert_uint_eq(n.terms[0].nvars, 1);
    ck_assert_uint_eq(n.terms[0].vars[0], VAR_N);
}
END_TEST

START_TEST(like_terms_merge)
{
    TkPoly n_plus_n = add(var(VAR_N), var(VAR_N));
    TkPoly two_n = mul(cnst(2), var(VAR_N));
    ck_assert(tk_poly_eq(&n_plus_n, &two_n));
    ck_assert_uint_eq(n_plus_n.nterms, 1);
    ck_assert_int_eq(n_plus_n.terms[0].coef, 2);
}
END_TEST

START_TEST(product_commutes)
{
    TkPoly mn = mul(var(VAR_M), var(VAR_N));
    TkPoly nm = mul(var(VAR_N), var(VAR_M));
    ck_assert(tk_poly_eq(&mn, &nm));
    /* Vars inside a term ascend whatever order they were multiplied in. */
    ck_assert_uint_eq(nm.terms[0].nvars, 2);
    ck_assert_uint_eq(nm.terms[0].vars[0], VAR_M);
    ck_assert_uint_eq(nm.terms[0].vars[1], VAR_N);
}
END_TEST

START_TEST(sum_is_order_independent)
{
    TkPoly left = add(add(cnst(1), var(VAR_K)), mul(var(VAR_N), var(VAR_M)));
    TkPoly right = add(mul(var(VAR_M), var(VAR_N)), add(var(VAR_K), cnst(1)));
    ck_assert(tk_poly_eq(&left, &right));
    ck_assert(!tk_poly_eq(&left, &(TkPoly){0}));
}
END_TEST

START_TEST(difference_of_squares)
{
    TkPoly product = mul(add(var(VAR_M), cnst(1)), sub(var(VAR_M), cnst(1)));
    TkPoly expected = sub(mul(var(VAR_M), var(VAR_M)), cnst(1));
    ck_assert(tk_poly_eq(&product, &expected));
    /* The cross terms -M and +M cancel instead of lingering as 0*M. */
    ck_assert_uint_eq(product.nterms, 2);
}
END_TEST

START_TEST(self_difference_is_zero)
{
    TkPoly x = add(mul(cnst(3), mul(var(VAR_M), var(VAR_K))), sub(var(VAR_N), cnst(4)));
    TkPoly zero = sub(x, x);
    ck_assert_uint_eq(zero.nterms, 0);
    TkPoly zero_const = cnst(0);
    ck_assert(tk_poly_eq(&zero, &zero_const));

    /* Subtracting a term whose coefficient is INT64_MIN must not negate it. */
    TkPoly min = cnst(INT64_MIN);
    TkPoly out;
    ck_assert(tk_poly_sub(&out, &min, &min));
    ck_assert_uint_eq(out.nterms, 0);
}
END_TEST

START_TEST(terms_in_canonical_order)
{
    /* (N + 1)^2 + M*K + M: higher degree first, then vars ascending, constant last. */
    TkPoly n_plus_1 = add(var(VAR_N), cnst(1));
    TkPoly p = add(add(add(cnst(0), var(VAR_M)), mul(n_plus_1, n_plus_1)),
                   mul(var(VAR_K), var(VAR_M)));
    ck_assert_uint_eq(p.nterms, 5);
    /* M*K */
    ck_assert_uint_eq(p.terms[0].nvars, 2);
    ck_assert_uint_eq(p.terms[0].vars[0], VAR_M);
    ck_assert_uint_eq(p.terms[0].vars[1], VAR_K);
    /* N*N */
    ck_assert_uint_eq(p.terms[1].nvars, 2);
    ck_assert_uint_eq(p.terms[1].vars[0], VAR_N);
    ck_assert_uint_eq(p.terms[1].vars[1], VAR_N);
    /* M, then 2*N */
    ck_assert_uint_eq(p.terms[2].vars[0], VAR_M);
    ck_assert_uint_eq(p.terms[3].vars[0], VAR_N);
    ck_assert_int_eq(p.terms[3].coef, 2);
    /* constant */
    ck_assert_uint_eq(p.terms[4].nvars, 0);
    ck_assert_int_eq(p.terms[4].coef, 1);
}
END_TEST

START_TEST(output_may_alias_inputs)
{
    TkPoly p = add(var(VAR_N), cnst(1));
    ck_assert(tk_poly_mul(&p, &p, &p));                  /* N*N + 2*N + 1 */
    TkPoly expected = add(add(mul(var(VAR_N), var(VAR_N)), mul(cnst(2), var(VAR_N))), cnst(1));
    ck_assert(tk_poly_eq(&p, &expected));

    ck_assert(tk_poly_add(&p, &p, &p));
    ck_assert(tk_poly_sub(&p, &p, &expected));           /* 2x - x = x */
    ck_assert(tk_poly_eq(&p, &expected));
}
END_TEST

/* ---- structural questions ---- */

START_TEST(is_const_sees_through_cancellation)
{
    TkPoly p = add(sub(sub(mul(cnst(2), var(VAR_N)), var(VAR_N)), var(VAR_N)), cnst(5));
    int64_t value = 0;
    ck_assert(tk_poly_is_const(&p, &value));
    ck_assert_int_eq(value, 5);
    ck_assert(tk_poly_is_const(&p, NULL));

    TkPoly n = var(VAR_N);
    TkPoly n_plus_5 = add(n, cnst(5));
    ck_assert(!tk_poly_is_const(&n, NULL));
    ck_assert(!tk_poly_is_const(&n_plus_5, NULL));
}
END_TEST

START_TEST(is_var_only_for_plain_variable)
{
    TkPoly k_again = sub(mul(cnst(2), var(VAR_K)), var(VAR_K));
    TkSizeVar found = 0;
    ck_assert(tk_poly_is_var(&k_again, &found));
    ck_assert_uint_eq(found, VAR_K);
    ck_assert(tk_poly_is_var(&k_again, NULL));

    TkPoly two_k = mul(cnst(2), var(VAR_K));
    TkPoly minus_k = sub(cnst(0), var(VAR_K));
    TkPoly k_plus_1 = add(var(VAR_K), cnst(1));
    TkPoly k_squared = mul(var(VAR_K), var(VAR_K));
    TkPoly one = cnst(1);
    ck_assert(!tk_poly_is_var(&two_k, NULL));
    ck_assert(!tk_poly_is_var(&minus_k, NULL));
    ck_assert(!tk_poly_is_var(&k_plus_1, NULL));
    ck_assert(!tk_poly_is_var(&k_squared, NULL));
    ck_assert(!tk_poly_is_var(&one, NULL));
}
END_TEST

START_TEST(uses_var_looks_inside_products)
{
    TkPoly p = add(mul(var(VAR_M), var(VAR_K)), cnst(3));
    ck_assert(tk_poly_uses_var(&p, VAR_M));
    ck_assert(tk_poly_uses_var(&p, VAR_K));
    ck_assert(!tk_poly_uses_var(&p, VAR_N));

    TkPoly cancelled = sub(add(p, var(VAR_N)), var(VAR_N));
    ck_assert(!tk_poly_uses_var(&cancelled, VAR_N));
}
END_TEST

/* ---- substitution and evaluation ---- */

START_TEST(subst_partial)
{
    /* M*N + K with N := 2 gives 2*M + K. */
    TkPoly p = add(mul(var(VAR_M), var(VAR_N)), var(VAR_K));
    TkPoly values[VAR_COUNT] = {[VAR_N] = cnst(2)};
    bool bound[VAR_COUNT] = {[VAR_N] = true};
    TkPoly out;
    ck_assert(tk_poly_subst(&out, &p, values, bound, VAR_COUNT));
    TkPoly expected = add(mul(cnst(2), var(VAR_M)), var(VAR_K));
    ck_assert(tk_poly_eq(&out, &expected));
}
END_TEST

START_TEST(subst_full_gives_constant)
{
    /* 3*M*N - K + 1 with M=2, N=5, K=7 gives 24; out aliases p. */
    TkPoly p = add(sub(mul(cnst(3), mul(var(VAR_M), var(VAR_N))), var(VAR_K)), cnst(1));
    TkPoly values[VAR_COUNT] = {cnst(2), cnst(5), cnst(7)};
    bool bound[VAR_COUNT] = {true, true, true};
    ck_assert(tk_poly_subst(&p, &p, values, bound, VAR_COUNT));
    int64_t value = 0;
    ck_assert(tk_poly_is_const(&p, &value));
    ck_assert_int_eq(value, 24);
}
END_TEST

START_TEST(subst_with_polynomials)
{
    /* N*N with N := M + 1 expands to M*M + 2*M + 1. */
    TkPoly p = mul(var(VAR_N), var(VAR_N));
    TkPoly values[VAR_COUNT] = {[VAR_N] = add(var(VAR_M), cnst(1))};
    bool bound[VAR_COUNT] = {[VAR_N] = true};
    TkPoly out;
    ck_assert(tk_poly_subst(&out, &p, values, bound, VAR_COUNT));
    assert_formats_as(out, "M*M + 2*M + 1");

    /* N - M with N := M cancels to 0. */
    TkPoly diff = sub(var(VAR_N), var(VAR_M));
    values[VAR_N] = var(VAR_M);
    ck_assert(tk_poly_subst(&out, &diff, values, bound, VAR_COUNT));
    ck_assert_uint_eq(out.nterms, 0);
}
END_TEST

START_TEST(subst_leaves_unbound_and_out_of_range_vars)
{
    /* K is index 2 but only 2 entries are passed, so K stays symbolic. */
    TkPoly p = add(mul(var(VAR_M), var(VAR_K)), var(VAR_N));
    TkPoly values[2] = {cnst(4), cnst(9)};
    bool bound[2] = {true, false};
    TkPoly out;
    ck_assert(tk_poly_subst(&out, &p, values, bound, 2));
    assert_formats_as(out, "N + 4*K");   /* same degree: N (1) before K (2) */
}
END_TEST

START_TEST(eval_all_bound)
{
    /* 2*M*N - K + 3 at M=4, N=5, K=10 is 33. */
    TkPoly p = add(sub(mul(cnst(2), mul(var(VAR_M), var(VAR_N))), var(VAR_K)), cnst(3));
    int64_t values[VAR_COUNT] = {4, 5, 10};
    int64_t out = 0;
    ck_assert(tk_poly_eval(&p, values, VAR_COUNT, &out));
    ck_assert_int_eq(out, 33);

    TkPoly zero = cnst(0);
    ck_assert(tk_poly_eval(&zero, NULL, 0, &out));
    ck_assert_int_eq(out, 0);
}
END_TEST

START_TEST(eval_missing_var_fails)
{
    TkPoly p = add(var(VAR_M), var(VAR_K));
    int64_t values[2] = {1, 2};
    int64_t out = 12345;
    ck_assert(!tk_poly_eval(&p, values, 2, &out));
    ck_assert(!tk_poly_eval(&p, NULL, 0, &out));
}
END_TEST

START_TEST(eval_overflow_fails)
{
    TkPoly square = mul(var(VAR_N), var(VAR_N));
    int64_t values[VAR_COUNT] = {0, INT64_C(1) << 32, 0};
    int64_t out;
    ck_assert(!tk_poly_eval(&square, values, VAR_COUNT, &out));

    TkPoly n_plus_1 = add(var(VAR_N), cnst(1));
    values[VAR_N] = INT64_MAX;
    ck_assert(!tk_poly_eval(&n_plus_1, values, VAR_COUNT, &out));
    values[VAR_N] = INT64_MAX - 1;
    ck_assert(tk_poly_eval(&n_plus_1, values, VAR_COUNT, &out));
    ck_assert_int_eq(out, INT64_MAX);
}
END_TEST

/* ---- overflow and capacity ---- */

START_TEST(add_sub_overflow_fails)
{
    TkPoly max = cnst(INT64_MAX), min = cnst(INT64_MIN), one = cnst(1), zero = cnst(0);
    TkPoly out;
    ck_assert(!tk_poly_add(&out, &max, &one));
    ck_assert(!tk_poly_sub(&out, &min, &one));
    ck_assert(!tk_poly_sub(&out, &zero, &min));      /* -INT64_MIN */

    TkPoly max_n = mul(max, var(VAR_N));
    TkPoly n = var(VAR_N);
    ck_assert(!tk_poly_add(&out, &max_n, &n));
    ck_assert(tk_poly_add(&out, &max, &min));
    ck_assert_int_eq(out.terms[0].coef, -1);
}
END_TEST

START_TEST(mul_overflow_fails)
{
    TkPoly big = cnst(INT64_C(1) << 32);
    TkPoly big_m = mul(big, var(VAR_M)), big_n = mul(big, var(VAR_N));
    TkPoly out;
    ck_assert(!tk_poly_mul(&out, &big_m, &big_n));
    ck_assert(!tk_poly_mul(&out, &big, &big));

    TkPoly max = cnst(INT64_MAX), minus_one = cnst(-1), min = cnst(INT64_MIN);
    ck_assert(tk_poly_mul(&out, &max, &minus_one));
    ck_assert(!tk_poly_mul(&out, &min, &minus_one));
}
END_TEST

START_TEST(too_many_terms_fails)
{
    /* (A + B + C) * (D + E + F) has 9 distinct terms; 8 fit. */
    TkPoly left = add(add(var(3), var(4)), var(5));
    TkPoly right = add(add(var(6), var(7)), var(8));
    TkPoly out;
    ck_assert(!tk_poly_mul(&out, &left, &right));

    TkPoly eight = cnst(0);
    for (TkSizeVar v = 0; v < 8; v++)
        eight = add(eight, var(v));
    ck_assert_uint_eq(eight.nterms, TK_POLY_MAX_TERMS);
    TkPoly ninth = var(8);
    ck_assert(!tk_poly_add(&out, &eight, &ninth));
}
END_TEST

START_TEST(cancelled_terms_do_not_count_against_capacity)
{
    /* (V0 + ... + V7) + (V8 - V0): 9 terms meet but only 8 remain. */
    TkPoly eight = cnst(0);
    for (TkSizeVar v = 0; v < 8; v++)
        eight = add(eight, var(v));
    TkPoly swap = sub(var(8), var(0));
    TkPoly out;
    ck_assert(tk_poly_add(&out, &eight, &swap));
    ck_assert_uint_eq(out.nterms, 8);
    ck_assert(!tk_poly_uses_var(&out, 0));
    ck_assert(tk_poly_uses_var(&out, 8));
}
END_TEST

START_TEST(too_many_var_factors_fails)
{
    TkPoly m4 = mul(mul(var(VAR_M), var(VAR_M)), mul(var(VAR_M), var(VAR_M)));
    ck_assert_uint_eq(m4.terms[0].nvars, TK_MONO_MAX_VARS);
    TkPoly n = var(VAR_N), out;
    ck_assert(!tk_poly_mul(&out, &m4, &n));

    /* Substitution can raise the degree past the limit too. */
    TkPoly values[VAR_COUNT] = {[VAR_M] = mul(var(VAR_N), var(VAR_K))};
    bool bound[VAR_COUNT] = {[VAR_M] = true};
    ck_assert(!tk_poly_subst(&out, &m4, values, bound, VAR_COUNT));
}
END_TEST

/* ---- formatting ---- */

START_TEST(format_examples)
{
    assert_formats_as(cnst(0), "0");
    assert_formats_as(cnst(64), "64");
    assert_formats_as(cnst(-7), "-7");
    assert_formats_as(var(VAR_N), "N");
    assert_formats_as(sub(cnst(0), var(VAR_N)), "-N");
    assert_formats_as(add(mul(cnst(2), var(VAR_N)), cnst(1)), "2*N + 1");
    assert_formats_as(sub(mul(var(VAR_K), var(VAR_M)), cnst(3)), "M*K - 3");
    assert_formats_as(mul(var(VAR_N), var(VAR_N)), "N*N");
    assert_formats_as(sub(sub(var(VAR_N), mul(cnst(2), mul(var(VAR_M), var(VAR_N)))), cnst(1)),
                      "-2*M*N + N - 1");
    assert_formats_as(sub(cnst(1), var(VAR_K)), "-K + 1");
    assert_formats_as(sub(var(VAR_M), cnst(1)), "M - 1");
}
END_TEST

START_TEST(format_extreme_coefficients)
{
    assert_formats_as(cnst(INT64_MIN), "-9223372036854775808");
    assert_formats_as(add(mul(cnst(INT64_MIN), var(VAR_M)), cnst(INT64_MAX)),
                      "-9223372036854775808*M + 9223372036854775807");
}
END_TEST

START_TEST(format_truncates_safely)
{
    TkPoly p = add(mul(cnst(2), var(VAR_N)), cnst(1));   /* "2*N + 1", 7 chars */
    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, NULL, 0), 7);

    char buf[12];
    memset(buf, 'X', sizeof buf);
    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, 0), 7);
    ck_assert_int_eq(buf[0], 'X');                      /* size 0: untouched */

    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, 1), 7);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(buf[1], 'X');

    memset(buf, 'X', sizeof buf);
    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, 4), 7);
    ck_assert_str_eq(buf, "2*N");
    for (size_t i = 4; i < sizeof buf; i++)
        ck_assert_int_eq(buf[i], 'X');

    /* Exactly one byte short of fitting. */
    memset(buf, 'X', sizeof buf);
    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, 7), 7);
    ck_assert_str_eq(buf, "2*N + ");
    ck_assert_int_eq(buf[7], 'X');

    ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, 8), 7);
    ck_assert_str_eq(buf, "2*N + 1");

    /* Every size: a NUL-terminated prefix, nothing written at or past bufsize. */
    for (size_t size = 1; size < sizeof buf; size++) {
        memset(buf, 'X', sizeof buf);
        ck_assert_int_eq(tk_poly_format(&p, var_name, NULL, buf, size), 7);
        size_t expect_len = size - 1 < 7 ? size - 1 : 7;
        ck_assert_uint_eq(strlen(buf), expect_len);
        ck_assert(strncmp(buf, "2*N + 1", expect_len) == 0);
        for (size_t i = size; i < sizeof buf; i++)
            ck_assert_int_eq(buf[i], 'X');
    }
}
END_TEST

Suite *tk_suite_shape(void)
{
    Suite *suite = suite_create("shape");

    TCase *canon = tcase_create("canonical");
    tcase_add_test(canon, const_zero_has_no_terms);
    tcase_add_test(canon, constructors_build_single_terms);
    tcase_add_test(canon, like_terms_merge);
    tcase_add_test(canon, product_commutes);
    tcase_add_test(canon, sum_is_order_independent);
    tcase_add_test(canon, difference_of_squares);
    tcase_add_test(canon, self_difference_is_zero);
    tcase_add_test(canon, terms_in_canonical_order);
    tcase_add_test(canon, output_may_alias_inputs);
    suite_add_tcase(suite, canon);

    TCase *query = tcase_create("query");
    tcase_add_test(query, is_const_sees_through_cancellation);
    tcase_add_test(query, is_var_only_for_plain_variable);
    tcase_add_test(query, uses_var_looks_inside_products);
    suite_add_tcase(suite, query);

    TCase *subst = tcase_create("subst_eval");
    tcase_add_test(subst, subst_partial);
    tcase_add_test(subst, subst_full_gives_constant);
    tcase_add_test(subst, subst_with_polynomials);
    tcase_add_test(subst, subst_leaves_unbound_and_out_of_range_vars);
    tcase_add_test(subst, eval_all_bound);
    tcase_add_test(subst, eval_missing_var_fails);
    tcase_add_test(subst, eval_overflow_fails);
    suite_add_tcase(suite, subst);

    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, add_sub_overflow_fails);
    tcase_add_test(limits, mul_overflow_fails);
    tcase_add_test(limits, too_many_terms_fails);
    tcase_add_test(limits, cancelled_terms_do_not_count_against_capacity);
    tcase_add_test(limits, too_many_var_factors_fails);
    suite_add_tcase(suite, limits);

    TCase *format = tcase_create("format");
    tcase_add_test(format, format_examples);
    tcase_add_test(format, format_extreme_coefficients);
    tcase_add_test(format, format_truncates_safely);
    suite_add_tcase(suite, format);

    return suite;
}
