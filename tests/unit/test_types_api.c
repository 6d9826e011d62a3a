/* test_types_api.c — the type checker: the type API (lang/types.h): printing types, equality of
 * tiles and of gl types with polynomial sizes, kind predicates, scalar singletons.
 *
 * Harness and method: types_harness.h. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"
#include "types.h"
#include "types_harness.h"

/* ---------------------------------------------------------------- type API */

static const char *fmt(const TkType *t)
{
    static char buf[256];
    int n = tk_type_format(t, buf, sizeof buf);
    ck_assert_int_eq(n, (int)strlen(buf));
    return buf;
}

START_TEST(format_tiles_and_vectors)
{
    TkArena a;
    tk_arena_init(&a);
    ck_assert_str_eq(fmt(tk_type_tile(&a, TK_TY_RT, TK_TY_BF16, 64, 32, TK_ROW)), "rt<bf16, 64, 32, row>");
    ck_assert_str_eq(fmt(tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 16, 256, TK_COL)), "rt<f32, 16, 256, col>");
    /* st has no layout, even if one is asked for */
    TkType *st = tk_type_tile(&a, TK_TY_ST, TK_TY_F16, 128, 32, TK_COL);
    ck_assert_str_eq(fmt(st), "st<f16, 128, 32>");
    ck_assert_int_eq(st->layout, TK_ROW);
    ck_assert_uint_eq(st->rank, 2);
    TkType *rv = tk_type_vec(&a, TK_TY_RV, TK_TY_F32, 64);
    ck_assert_str_eq(fmt(rv), "rv<f32, 64>");
    ck_assert_uint_eq(rv->rank, 1);
    ck_assert_str_eq(fmt(tk_type_vec(&a, TK_TY_SV, TK_TY_BF16, 1024)), "sv<bf16, 1024>");
    tk_arena_free(&a);
}
END_TEST

START_TEST(format_scalars)
{
    ck_assert_str_eq(fmt(&tk_type_i32), "i32");
    ck_assert_str_eq(fmt(&tk_type_i64), "i64");
    ck_assert_str_eq(fmt(&tk_type_bool), "bool");
    ck_assert_str_eq(fmt(&tk_type_f16), "f16");
    ck_assert_str_eq(fmt(&tk_type_bf16), "bf16");
    ck_assert_str_eq(fmt(&tk_type_void), "nothing");
    /* untyped constants say what they are, not a concrete type */
    ck_assert_ptr_nonnull(strstr(fmt(&tk_type_uint), "integer"));
    ck_assert_ptr_nonnull(strstr(fmt(&tk_type_ufloat), "float"));
    ck_assert_ptr_null(strstr(fmt(&tk_type_ufloat), "f32"));
    ck_assert_str_eq(tk_type_kind_name(TK_TY_GL), "gl");
}
END_TEST

START_TEST(format_gl_with_size_names)
{
    const char *names[] = { "M", "N", "K" };
    TkSizeNames sn = { names, 3, 3 };
    TkType gl;
    memset(&gl, 0, sizeof gl);
    gl.kind = TK_TY_GL;
    gl.elem = TK_TY_F32;
    gl.rank = 2;
    gl.size_names = &sn;
    TkPoly two;
    tk_poly_var(&gl.gdims[0], 0);                    /* M */
    tk_poly_const(&two, 2);
    tk_poly_var(&gl.gdims[1], 1);
    ck_assert(tk_poly_mul(&gl.gdims[1], &two, &gl.gdims[1]));   /* 2*N */
    ck_assert_str_eq(fmt(&gl), "gl<f32, M, 2*N>");

    /* rank 3: a constant, M*K + 1, K */
    TkPoly m, k, one;
    tk_poly_var(&m, 0);
    tk_poly_var(&k, 2);
    tk_poly_const(&one, 1);
    gl.rank = 3;
    gl.elem = TK_TY_BF16;
    tk_poly_const(&gl.gdims[0], 64);
    ck_assert(tk_poly_mul(&gl.gdims[1], &m, &k));
    ck_assert(tk_poly_add(&gl.gdims[1], &gl.gdims[1], &one));
    gl.gdims[2] = k;
    ck_assert_str_eq(fmt(&gl), "gl<bf16, 64, M*K + 1, K>");

    /* truncation: the full length is returned, the prefix is NUL-terminated */
    char small[8];
    int n = tk_type_format(&gl, small, sizeof small);
    ck_assert_int_eq(n, (int)strlen("gl<bf16, 64, M*K + 1, K>"));
    ck_assert_str_eq(small, "gl<bf16");
}
END_TEST

START_TEST(type_equal_tiles)
{
    TkArena a;
    tk_arena_init(&a);
    TkType *r1 = tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 64, 32, TK_ROW);
    TkType *r2 = tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 64, 32, TK_ROW);
    ck_assert(r1 != r2);
    ck_assert(tk_type_equal(r1, r2));
    ck_assert(!tk_type_equal(r1, tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 64, 32, TK_COL)));   /* layout */
    ck_assert(!tk_type_equal(r1, tk_type_tile(&a, TK_TY_RT, TK_TY_BF16, 64, 32, TK_ROW)));  /* element */
    ck_assert(!tk_type_equal(r1, tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 32, 64, TK_ROW)));   /* dims */
    ck_assert(!tk_type_equal(r1, tk_type_tile(&a, TK_TY_ST, TK_TY_F32, 64, 32, TK_ROW)));   /* kind */
    ck_assert(tk_type_equal(tk_type_tile(&a, TK_TY_ST, TK_TY_F32, 64, 32, TK_ROW),
                            tk_type_tile(&a, TK_TY_ST, TK_TY_F32, 64, 32, TK_COL)));         /* st: no layout */
    ck_assert(tk_type_equal(tk_type_vec(&a, TK_TY_RV, TK_TY_F16, 16), tk_type_vec(&a, TK_TY_RV, TK_TY_F16, 16)));
    ck_assert(!tk_type_equal(tk_type_vec(&a, TK_TY_RV, TK_TY_F16, 16), tk_type_vec(&a, TK_TY_SV, TK_TY_F16, 16)));
    ck_assert(!tk_type_equal(tk_type_vec(&a, TK_TY_RV, TK_TY_F16, 16), tk_type_vec(&a, TK_TY_RV, TK_TY_F16, 32)));
    /* scalars compare by kind, also copies of the singletons */
    TkType copy = tk_type_i64;
    ck_assert(tk_type_equal(&copy, &tk_type_i64));
    ck_assert(!tk_type_equal(&tk_type_i32, &tk_type_i64));
    ck_assert(!tk_type_equal(&tk_type_uint, &tk_type_i32));
    tk_arena_free(&a);
}
END_TEST

START_TEST(type_equal_gl_is_polynomial)
{
    TkType x, y;
    memset(&x, 0, sizeof x);
    x.kind = TK_TY_GL;
    x.elem = TK_TY_F32;
    x.rank = 1;
    y = x;
    TkPoly n, two;
    tk_poly_var(&n, 1);
    tk_poly_const(&two, 2);
    ck_assert(tk_poly_add(&x.gdims[0], &n, &n));     /* N + N */
    ck_assert(tk_poly_mul(&y.gdims[0], &two, &n));   /* 2*N */
    ck_assert(tk_type_equal(&x, &y));
    y.elem = TK_TY_BF16;
    ck_assert(!tk_type_equal(&x, &y));
    y.elem = TK_TY_F32;
    tk_poly_var(&y.gdims[0], 0);                     /* M */
    ck_assert(!tk_type_equal(&x, &y));
    y.gdims[0] = x.gdims[0];
    y.rank = 2;
    tk_poly_const(&y.gdims[1], 1);
    x.gdims[1] = y.gdims[1];
    ck_assert(!tk_type_equal(&x, &y));                /* rank */
}
END_TEST

START_TEST(kind_predicates)
{
    static const struct {
        TkTypeKind k;
        bool is_int, is_float, scalar, untyped, tile, vec, reg, shared;
    } rows[] = {
        { TK_TY_ERROR,  0, 0, 0, 0, 0, 0, 0, 0 },
        { TK_TY_VOID,   0, 0, 0, 0, 0, 0, 0, 0 },
        { TK_TY_BOOL,   0, 0, 1, 0, 0, 0, 0, 0 },
        { TK_TY_I32,    1, 0, 1, 0, 0, 0, 0, 0 },
        { TK_TY_I64,    1, 0, 1, 0, 0, 0, 0, 0 },
        { TK_TY_F32,    0, 1, 1, 0, 0, 0, 0, 0 },
        { TK_TY_F16,    0, 1, 1, 0, 0, 0, 0, 0 },
        { TK_TY_BF16,   0, 1, 1, 0, 0, 0, 0, 0 },
        { TK_TY_UINT,   1, 0, 1, 1, 0, 0, 0, 0 },
        { TK_TY_UFLOAT, 0, 1, 1, 1, 0, 0, 0, 0 },
        { TK_TY_RT,     0, 0, 0, 0, 1, 0, 1, 0 },
        { TK_TY_ST,     0, 0, 0, 0, 1, 0, 0, 1 },
        { TK_TY_RV,     0, 0, 0, 0, 0, 1, 1, 0 },
        { TK_TY_SV,     0, 0, 0, 0, 0, 1, 0, 1 },
        { TK_TY_GL,     0, 0, 0, 0, 0, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        TkTypeKind k = rows[i].k;
        const char *n = tk_type_kind_name(k);
        ck_assert_msg(tk_is_int(k) == rows[i].is_int, "tk_is_int(%s)", n);
        ck_assert_msg(tk_is_float(k) == rows[i].is_float, "tk_is_float(%s)", n);
        ck_assert_msg(tk_is_scalar(k) == rows[i].scalar, "tk_is_scalar(%s)", n);
        ck_assert_msg(tk_is_untyped(k) == rows[i].untyped, "tk_is_untyped(%s)", n);
        ck_assert_msg(tk_is_tile(k) == rows[i].tile, "tk_is_tile(%s)", n);
        ck_assert_msg(tk_is_vec(k) == rows[i].vec, "tk_is_vec(%s)", n);
        ck_assert_msg(tk_is_register(k) == rows[i].reg, "tk_is_register(%s)", n);
        ck_assert_msg(tk_is_shared(k) == rows[i].shared, "tk_is_shared(%s)", n);
    }
}
END_TEST

START_TEST(scalar_singletons_and_with_elem)
{
    ck_assert_ptr_eq(tk_type_scalar(TK_TY_I64), &tk_type_i64);
    ck_assert_ptr_eq(tk_type_scalar(TK_TY_BF16), &tk_type_bf16);
    ck_assert_ptr_eq(tk_type_scalar(TK_TY_UFLOAT), &tk_type_ufloat);
    ck_assert_ptr_eq(tk_type_scalar(TK_TY_RT), &tk_type_error);   /* not a scalar */
    ck_assert_ptr_eq(tk_type_with_elem(NULL, &tk_type_f32, TK_TY_F16), &tk_type_f16);

    TkArena a;
    tk_arena_init(&a);
    TkType *t = tk_type_tile(&a, TK_TY_RT, TK_TY_F32, 32, 64, TK_COL);
    TkType *h = tk_type_with_elem(&a, t, TK_TY_BF16);
    ck_assert_ptr_ne(h, t);
    ck_assert_str_eq(fmt(h), "rt<bf16, 32, 64, col>");
    ck_assert_str_eq(fmt(t), "rt<f32, 32, 64, col>");   /* the original is unchanged */
    tk_arena_free(&a);
}
END_TEST

Suite *tk_suite_types_api(void)
{
    Suite *suite = suite_create("types_api");

    TCase *api = tcase_create("type_api");
    tcase_add_test(api, format_tiles_and_vectors);
    tcase_add_test(api, format_scalars);
    tcase_add_test(api, format_gl_with_size_names);
    tcase_add_test(api, type_equal_tiles);
    tcase_add_test(api, type_equal_gl_is_polynomial);
    tcase_add_test(api, kind_predicates);
    tcase_add_test(api, scalar_singletons_and_with_elem);
    suite_add_tcase(suite, api);

    return suite;
}
