/* test_types.c — the checker's type rules, through the front-end API
 * (lang/front.h) and the type API (lang/types.h): type construction and
 * printing, implicit conversions, constant folding, mma layouts, shapes,
 * symbolic sizes, interval analysis, uniformity, and error recovery.
 *
 * Each program is checked from a string; tests assert the exact number of
 * errors and what the first one says (message, expected/found, position). A
 * program expected to fail in the checker must not fail in the parser, so a
 * typo in a test cannot pass for the error under test. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "front.h"
#include "shape.h"
#include "types.h"

/* ---------------------------------------------------------------- harness */

typedef struct {
    TkFront f;
    const char *src;
    unsigned parse_errors;   /* lexer + parser */
    unsigned errors;         /* after the checker, all stages */
} Run;

static void run(Run *r, const char *src)
{
    r->src = src;
    ck_assert_int_eq(tk_front_load_memory(&r->f, "test.tk", src, strlen(src)), 0);
    r->parse_errors = tk_front_parse(&r->f);
    r->errors = tk_front_check(&r->f);
}

static void done(Run *r) { tk_front_free(&r->f); }

/* Every diagnostic, for failure messages. */
static const char *dump(const Run *r)
{
    static char buf[8192];
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < r->f.diags.count && len < sizeof buf; i++) {
        const TkDiag *g = &r->f.diags.items[i];
        uint32_t line, col;
        tk_source_position(&r->f.src, g->span.begin, &line, &col);
        int n = snprintf(buf + len, sizeof buf - len, "  %u:%u: %s [expected: %s] [found: %s]\n", line, col, g->message,
                         g->expected ? g->expected : "-", g->found ? g->found : "-");
        if (n < 0) break;
        len += (size_t)n;
    }
    return buf;
}

static const TkDiag *diag(const Run *r, unsigned i)
{
    ck_assert_msg(i < r->f.diags.count, "no diagnostic #%u; have:\n%s", i, dump(r));
    return &r->f.diags.items[i];
}

/* The program parses cleanly and has exactly n errors in all. */
static void expect_count_at(Run *r, unsigned n, int line)
{
    ck_assert_msg(r->parse_errors == 0, "line %d: unexpected syntax error(s) in\n%s\n%s", line, r->src, dump(r));
    ck_assert_msg(r->errors == n, "line %d: expected %u error(s), got %u in\n%s\n%s", line, n, r->errors, r->src, dump(r));
}
#define expect_count(r, n) expect_count_at((r), (n), __LINE__)

static void assert_ok_at(const char *src, int line)
{
    Run r;
    run(&r, src);
    expect_count_at(&r, 0, line);
    done(&r);
}
#define assert_ok(src) assert_ok_at((src), __LINE__)

static void has_text_at(const Run *r, const char *what, const char *text, const char *needle, int line)
{
    ck_assert_msg(text != NULL, "line %d: the %s is missing; diagnostics:\n%s", line, what, dump(r));
    ck_assert_msg(strstr(text, needle) != NULL, "line %d: %s \"%s\" does not contain \"%s\"", line, what, text, needle);
}
#define msg_has(r, i, needle) has_text_at((r), "message", diag((r), (i))->message, (needle), __LINE__)

/* Exactly n errors, and the first one's message contains every needle. */
static void assert_errors_at(const char *src, unsigned n, const char *const *needles, int line)
{
    Run r;
    run(&r, src);
    expect_count_at(&r, n, line);
    for (const char *const *p = needles; *p; p++) has_text_at(&r, "message", diag(&r, 0)->message, *p, line);
    done(&r);
}
#define assert_errors(src, n, ...) assert_errors_at((src), (n), (const char *const[]){ __VA_ARGS__, NULL }, __LINE__)

static void assert_field_eq_at(const char *what, const char *text, const char *want, int line)
{
    ck_assert_msg(text != NULL, "line %d: %s missing (want \"%s\")", line, what, want);
    ck_assert_msg(strcmp(text, want) == 0, "line %d: %s is \"%s\", want \"%s\"", line, what, text, want);
}
#define expected_is(r, i, want) assert_field_eq_at("expected", diag((r), (i))->expected, (want), __LINE__)
#define found_is(r, i, want) assert_field_eq_at("found", diag((r), (i))->found, (want), __LINE__)

/* Byte offset of the n-th (0-based) occurrence of needle in src. */
static uint32_t offset_of(const char *src, const char *needle, int n)
{
    const char *p = src;
    for (;;) {
        p = strstr(p, needle);
        ck_assert_msg(p != NULL, "\"%s\" not in the test source", needle);
        if (n-- == 0) return (uint32_t)(p - src);
        p++;
    }
}

/* A kernel around a body: gl tensors X (f32, M×N) and B (bf16, M×N), f32 s. */
static const char *kernel_with(char *buf, size_t size, const char *attrs, const char *body)
{
    int n = snprintf(buf, size, "kernel k(gl<f32, M, N> X, gl<bf16, M, N> B, f32 s) %s {\n%s\n}\n", attrs, body);
    ck_assert(n > 0 && (size_t)n < size);
    return buf;
}

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

/* ---------------------------------------------------------------- implicit conversions */

START_TEST(widenings_are_implicit)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "i32 a = 7; i64 b = a; b = a;\n"
                          "f16 h = 1.5; f32 f = h; f = h;\n"
                          "bf16 g = 2.5; f32 e = g;\n"
                          "i64 w = a + b; f32 v = g * f;"));
    /* helper arguments and returned values widen too */
    assert_ok("fn wide(i64 x, f32 y) -> f32 { bf16 z = 1.0; return z; }\n"
              "kernel k(gl<f32, N> X) { i32 a = 1; f16 h = 1.0; f32 r = wide(a, h); }\n");
    /* but the scalar of a tile-scalar operation is not widened: it must be the element type */
    assert_errors(kernel_with(buf, sizeof buf, "", "bf16 g = 1.0; rt<f32, 16, 16> t = zeros(); t = t * g;"), 1,
                  "scalar operand of mul has type bf16, but the tile holds f32");
}
END_TEST

START_TEST(untyped_int_to_float_when_exact)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "f32 a = 16777216; f32 b = 16777218; f32 c = -16777216; f32 d = 1099511627776;\n"
                          "bf16 e = 256; bf16 f = 65280; f16 g = 2048; f16 h = 65504; f16 i = -65504;"));
}
END_TEST

START_TEST(untyped_float_to_any_float)
{
    char buf[2048];
    /* float literals round to nearest even: 0.1 is not exact in bf16 and that is fine */
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "bf16 a = 1.5; bf16 b = 0.1; bf16 c = -inf; f16 d = 65504.0; f32 e = 1e-45;\n"
                          "rt<bf16, 16, 16> t = fill(0.3); t = t * 0.5;"));
}
END_TEST

static void assert_narrowing(const char *decls, const char *from, const char *to)
{
    char body[512], buf[2048];
    snprintf(body, sizeof body, "%s", decls);
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", body));
    expect_count(&r, 1);
    char want[128];
    snprintf(want, sizeof want, "has type %s, but %s is needed", from, to);
    msg_has(&r, 0, want);
    expected_is(&r, 0, to);
    found_is(&r, 0, from);
    ck_assert_ptr_nonnull(diag(&r, 0)->hint);
    ck_assert_ptr_nonnull(strstr(diag(&r, 0)->hint, "convert<"));
    done(&r);
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
    run(&r, kernel_with(buf, sizeof buf, "", "bool p = true; i32 n = p;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "has type bool, but i32 is needed");
    ck_assert_ptr_nonnull(diag(&r, 0)->hint);
    ck_assert_ptr_null(strstr(diag(&r, 0)->hint, "convert<"));
    done(&r);
    run(&r, kernel_with(buf, sizeof buf, "", "i32 n = 3; bool p = n; bool q = 1;"));
    expect_count(&r, 2);
    for (unsigned i = 0; i < 2; i++) {
        msg_has(&r, i, "but bool is needed");
        ck_assert_ptr_null(strstr(diag(&r, i)->hint, "convert<"));
        ck_assert_ptr_nonnull(strstr(diag(&r, i)->hint, "x != 0"));
    }
    done(&r);
}
END_TEST

START_TEST(inexact_int_constant_rejected)
{
    char buf[2048];
    const char *src = kernel_with(buf, sizeof buf, "", "f32 z = 16777217;");
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "16777217 is not exactly representable in f32");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "16777217", 0));
    ck_assert_uint_eq(diag(&r, 0)->span.end, offset_of(src, "16777217", 0) + 8);
    done(&r);
    assert_errors(kernel_with(buf, sizeof buf, "", "bf16 b = 257;"), 1, "257", "bf16");
    assert_errors(kernel_with(buf, sizeof buf, "", "f16 h = 65536;"), 1, "65536", "f16");
}
END_TEST

START_TEST(float_constant_to_int_rejected)
{
    char buf[2048];
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "i32 q = 3.0;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "float constant");
    msg_has(&r, 0, "i32");
    expected_is(&r, 0, "i32");
    done(&r);
}
END_TEST

START_TEST(int_constant_out_of_range_rejected)
{
    char buf[2048];
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "i32 q = 5000000000;"));
    expect_count(&r, 1);
    msg_has(&r, 0, "5000000000 does not fit in i32");
    found_is(&r, 0, "5000000000");
    done(&r);
    /* fits in i64; and i32's own extremes fit */
    assert_ok(kernel_with(buf, sizeof buf, "", "i64 w = 5000000000; i32 lo = -2147483648; i32 hi = 2147483647;"));
    /* a let of an untyped constant becomes i32 */
    assert_errors(kernel_with(buf, sizeof buf, "", "let big = 5000000000;"), 1, "does not fit in i32");
    assert_errors(kernel_with(buf, sizeof buf, "", "i32 o = 2147483647 + 1;"), 1, "2147483648", "i32");
}
END_TEST

START_TEST(binary_operands_widen_or_fail)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "", "i32 a = 1; i64 b = 2; i64 c = a + b; i64 d = b * a; bool p = a < b;"));
    assert_errors(kernel_with(buf, sizeof buf, "", "i32 a = 1; i64 b = 2; i32 c = a + b;"), 1, "has type i64, but i32 is needed");
    assert_errors(kernel_with(buf, sizeof buf, "", "f16 h = 1.0; bf16 g = 1.0; f32 x = h + g;"), 1,
                  "different types: f16 and bf16");
    assert_errors(kernel_with(buf, sizeof buf, "", "i32 a = 1; f32 x = s + a;"), 1, "different types: f32 and i32");
}
END_TEST

START_TEST(compound_assignment_keeps_type)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "", "i64 w = 1; i32 n = 2; w += n; f32 f = 1.0; bf16 g = 1.0; f *= g;"));
    Run r;
    const char *src = kernel_with(buf, sizeof buf, "", "i64 w = 1; i32 n = 2; n += w;");
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "would change the type of its target");
    expected_is(&r, 0, "i32");
    found_is(&r, 0, "i64");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "+=", 0));
    done(&r);
}
END_TEST

/* ---------------------------------------------------------------- constants */

START_TEST(folded_constant_as_tile_dim)
{
    /* 2 * 3 + 1 = 7; 7 * 16 = 112 */
    assert_ok("const A = 2 * 3 + 1;\n"
              "kernel k(gl<f32, N> X) { rt<f32, A * 16, 16> t = zeros(); rt<f32, 112, 16> u = t; }\n");
    Run r;
    run(&r, "const A = 2 * 3 + 1;\n"
            "kernel k(gl<f32, N> X) { rt<f32, A * 16, 16> t = zeros(); rt<f32, 96, 16> u = t; }\n");
    expect_count(&r, 1);
    found_is(&r, 0, "rt<f32, 112, 16, row>");
    expected_is(&r, 0, "rt<f32, 96, 16, row>");
    done(&r);
    /* local constants and parenthesised dims */
    assert_ok("kernel k(gl<f32, N> X) { const R = 32; rt<f32, (R + R) * 2, R - 16> t = zeros(); rt<f32, 128, 16> u = t; }");
}
END_TEST

START_TEST(constant_division_by_zero)
{
    const char *src = "const Z = 1 / 0;\n";
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(diag(&r, 0)->message, "division by zero");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "0", 0));
    done(&r);
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
    run(&r, src);
    ck_assert_uint_ge(r.parse_errors, 1);
    ck_assert_str_eq(diag(&r, 0)->message, "unexpected '('");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "(100", 0));
    done(&r);
    /* but a const may hold a folded cdiv: ceil(100 / 32) * 16 = 64 */
    assert_ok("const C = cdiv(100, 32) * 16;\n"
              "kernel k(gl<f32, N> X) { rt<f32, C, 16> t = zeros(); rt<f32, 64, 16> u = t; }\n");
    assert_errors("const C = cdiv(96, 32) * 16;\n"
                  "kernel k(gl<f32, N> X) { rt<f32, C, 16> t = zeros(); rt<f32, 64, 16> u = t; }\n",
                  1, "rt<f32, 48, 16, row>");
    /* nor is division */
    Run q;
    run(&q, "kernel k(gl<f32, N> X) { rt<f32, 64 / 2, 16> t = zeros(); }\n");
    ck_assert_uint_ge(q.parse_errors, 1);
    ck_assert_str_eq(diag(&q, 0)->message, "unexpected '/'");
    done(&q);
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
    assert_ok(kernel_with(buf, sizeof buf, "", "st<f32, 1024, 16> S; rt<f32, 256, 16> t; rv<f32, 256> v; sv<f32, 1024> w;"));
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 24, 16> t;"), 1, "24 is not a positive multiple of 16");
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 16, 272> t;"), 1, "272", "up to 256");
    assert_errors(kernel_with(buf, sizeof buf, "", "st<f32, 1040, 16> S;"), 1, "1040", "up to 1024");
    assert_errors(kernel_with(buf, sizeof buf, "", "rv<f32, 0> v;"), 1, "not a positive multiple of 16");
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<i32, 16, 16> t;"), 1, "element type must be a float type");
}
END_TEST

START_TEST(constant_used_before_declaration)
{
    Run r;
    const char *src = "kernel k(gl<f32, N> X) { i32 a = C; }\nconst C = 4;\n";
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "'C'");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "C;", 0));
    done(&r);
    /* functions, unlike constants, may be used before they are defined */
    assert_ok("kernel k(gl<f32, N> X) { i32 a = later(); }\nfn later() -> i32 { return 1; }\n");
}
END_TEST

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
    return kernel_with(buf, size, "", body);
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
            run(&r, src);
            expect_count(&r, 1);
            msg_has(&r, 0, m->name);
            msg_has(&r, 0, "layout");
            /* reported at the operand: A when A is wrong, else B */
            uint32_t at = offset_of(src, combos[c][0] == m->a_bad ? "a, b)" : "b)", 0);
            ck_assert_msg(diag(&r, 0)->span.begin == at, "%s combo %d: error at %u, want %u", m->name, c,
                          diag(&r, 0)->span.begin, at);
            done(&r);
        }
        /* the accumulator must be row layout (and f32) */
        const char *src = mma_program(buf, sizeof buf, "rt<f32, 64, 32, col>", m, m->a_ok, m->b_ok, "bf16");
        Run r;
        run(&r, src);
        expect_count(&r, 1);
        msg_has(&r, 0, m->name);
        msg_has(&r, 0, "layout");
        expected_is(&r, 0, "rt<f32, 64, 32, row>");
        done(&r);
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
    assert_errors(kernel_with(buf, sizeof buf, "",
                              "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<f16, 16, 32, col> b; mma_ab(acc, a, b);"),
                  1, "A and B of mma_ab have different element types");
    /* inner dimension */
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<bf16, 32, 16, row> b; mma_abt(acc, a, b);"));
    expect_count(&r, 0);
    done(&r);
    assert_errors(kernel_with(buf, sizeof buf, "",
                              "rt<f32, 64, 32> acc; rt<bf16, 64, 16> a; rt<bf16, 32, 32, col> b; mma_ab(acc, a, b);"),
                  1, "inner dimensions of mma_ab do not match", "K = 16", "K = 32");
    /* accumulator not mutable */
    assert_errors(kernel_with(buf, sizeof buf, "",
                              "let acc = zeros<rt<f32, 64, 32>>(); rt<bf16, 64, 16> a; rt<bf16, 16, 32, col> b; mma_ab(acc, a, b);"),
                  1, "accumulator of mma_ab must be a mutable variable");
}
END_TEST

/* ---------------------------------------------------------------- shapes */

START_TEST(reductions_give_vectors_of_the_right_length)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64> t = zeros();\n"
                          "rv<f32, 32> r = row_sum(t); rv<f32, 64> c = col_max(t);\n"
                          "rv<f32, 32> r2 = row_max(t); rv<f32, 64> c2 = col_sum(t);"));
    Run r;
    const char *src = kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t = zeros();\nrv<f32, 64> r = row_sum(t);");
    run(&r, src);
    expect_count(&r, 1);
    expected_is(&r, 0, "rv<f32, 64>");
    found_is(&r, 0, "rv<f32, 32>");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "row_sum", 0));
    done(&r);
    /* element type is kept */
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64> t; rv<f32, 32> r = row_sum(t);"), 1,
                  "has type rv<bf16, 32>, but rv<f32, 32> is needed");
}
END_TEST

START_TEST(broadcasts_check_vector_length)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64> t; rv<f32, 32> r; rv<f32, 64> c;\n"
                          "t = add_row(t, r); t = mul_col(t, c); t = sub_row(t, row_max(t)); t = div_col(t, col_sum(t));"));
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rv<f32, 64> c; t = add_row(t, c);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "add_row needs one value per row");
    expected_is(&r, 0, "rv<f32, 32>");
    found_is(&r, 0, "rv<f32, 64>");
    done(&r);
}
END_TEST

START_TEST(transpose_swaps_dims)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64, col> t; rt<bf16, 64, 32, col> u = transpose(t);"));
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "rt<bf16, 32, 64, col> t; rt<bf16, 32, 64, col> u = transpose(t);"));
    expect_count(&r, 1);
    found_is(&r, 0, "rt<bf16, 64, 32, col>");
    done(&r);
    /* the layout tag is kept */
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rt<f32, 64, 32, col> u = transpose(t);"), 1,
                  "has type rt<f32, 64, 32, row>");
    assert_errors(kernel_with(buf, sizeof buf, "", "rv<f32, 32> v; rv<f32, 32> w = transpose(v);"), 1,
                  "transpose must be a register tile");
}
END_TEST

START_TEST(convert_element_keeps_shape_and_layout)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "rt<f32, 32, 64, col> t; rt<bf16, 32, 64, col> h = convert<bf16>(t);\n"
                          "rv<f32, 32> v; rv<f16, 32> w = convert<f16>(v); i32 q = convert<i32>(s);"));
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64, col> t; rt<bf16, 32, 64> h = convert<bf16>(t);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "has type rt<bf16, 32, 64, col>, but rt<bf16, 32, 64, row> is needed");
    done(&r);
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 32, 64> t; rt<f32, 32, 64> u = convert<i32>(t);"), 1,
                  "cannot convert to i32");
}
END_TEST

START_TEST(convert_to_full_tile_type)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "rt<f32, 64, 64> t = zeros(); rt<bf16, 64, 64, col> h = convert<rt<bf16, 64, 64, col>>(t);\n"
                          "rt<f32, 64, 64, col> c = convert<rt<f32, 64, 64, col>>(t);"));
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "",
                        "rt<f32, 64, 64> t; rt<bf16, 64, 32, col> h = convert<rt<bf16, 64, 32, col>>(t);"));
    expect_count(&r, 1);
    msg_has(&r, 0, "convert cannot change a tile's shape");
    found_is(&r, 0, "rt<bf16, 64, 32, col>");
    done(&r);
}
END_TEST

START_TEST(default_layout_is_row)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> a; rt<f32, 16, 16, row> b = a; a = b + a;"));
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> a; rt<f32, 16, 16, col> b; a = a + b;"), 1,
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
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "dimension 1 of argument 2 of 'h' does not match");
    expected_is(&r, 0, "2*Q (from gl<f32, M, 2*N>)");
    found_is(&r, 0, "Q (in gl<f32, P, Q>)");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "A);", 0));
    done(&r);
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
    run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(diag(&r, 0)->message, "size 'N' cannot be bound at launch");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "N>", 0));
    done(&r);
    /* alone somewhere is enough */
    assert_ok("kernel k(gl<f32, M, 2*N> A, gl<f32, N> B) { }\n");
    assert_errors("kernel k(gl<f32, M * N> A, gl<f32, M> B) { }\n", 1, "size 'N' cannot be bound at launch");
    /* a helper's sizes must likewise be inferable from its arguments */
    const char *helper = "fn h(gl<f32, M, 2*N> x) { }\nkernel k(gl<f32, P, Q> A) { h(A); }\n";
    Run q;
    run(&q, helper);
    expect_count(&q, 1);
    msg_has(&q, 0, "size 'N' cannot be");
    ck_assert_uint_eq(diag(&q, 0)->span.begin, offset_of(helper, "N>", 0));
    done(&q);
}
END_TEST

START_TEST(sizes_are_uniform_i32)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "grid(cdiv(N, 64), cdiv(M, 64)) warps(4)",
                          "i32 rows = M; for (i in 0 .. cdiv(N, 64)) { sync(); } if (M > 64) { sync(); }"));
    assert_errors(kernel_with(buf, sizeof buf, "", "M = 3;"), 1, "cannot assign to 'M'");
}
END_TEST

/* ---------------------------------------------------------------- intervals */

static const char *subtile_program(char *buf, size_t size, int warps)
{
    char attrs[32];
    snprintf(attrs, sizeof attrs, "warps(%d)", warps);
    /* S is a 2×1 grid of 32×64 sub-tiles */
    return kernel_with(buf, size, attrs,
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
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sub-tile coordinate may be out of bounds for st<f32, 64, 64>");
    expected_is(&r, 0, "a coordinate in [0, 1]");
    found_is(&r, 0, "a coordinate in [0, 3]");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "i, 0)", 0));
    done(&r);
}
END_TEST

START_TEST(loop_variable_interval)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "",
                          "rt<f32, 64, 16> t = zeros();\nfor (j in 0 .. 4) { t[j * 16, 0] = 1.0; f32 v = t[j * 16 + 15, 15]; }"));
    const char *src = kernel_with(buf, sizeof buf, "", "rt<f32, 64, 16> t = zeros();\nfor (j in 0 .. 5) { t[j * 16, 0] = 1.0; }");
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "row index may be out of bounds for rt<f32, 64, 16, row>");
    expected_is(&r, 0, "an index in [0, 63]");
    found_is(&r, 0, "an index in [0, 64]");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "j * 16", 0));
    done(&r);
}
END_TEST

START_TEST(unknown_ranges_are_rejected)
{
    char buf[2048];
    /* a mutable variable has no interval, even if never reassigned */
    Run r;
    run(&r, kernel_with(buf, sizeof buf, "", "rt<f32, 16, 16> t; i32 i = 0; f32 v = t[i, 0];"));
    expect_count(&r, 1);
    msg_has(&r, 0, "row index may be out of bounds");
    found_is(&r, 0, "an index whose range is not known at compile time");
    done(&r);
    /* nor do block.x, sizes, or loops with a size as bound */
    assert_errors(kernel_with(buf, sizeof buf, "", "rv<f32, 16> v; f32 a = v[block.x];"), 1, "index may be out of bounds");
    assert_errors(kernel_with(buf, sizeof buf, "", "rv<f32, 16> v; for (i in 0 .. N) { v[i] = 0.0; }"), 1,
                  "index may be out of bounds");
    /* an i32 interval that leaves the i32 range proves nothing: (big + 1) wraps at run time */
    Run w;
    run(&w, kernel_with(buf, sizeof buf, "",
                        "rt<f32, 16, 16> t; let big = 2147483647; let idx = (big + 1) / 1073741824; t[idx - 2, 0] = 1.0;"));
    expect_count(&w, 1);
    msg_has(&w, 0, "row index may be out of bounds");
    found_is(&w, 0, "an index whose range is not known at compile time");
    done(&w);
    /* negative is out of bounds too */
    assert_errors(kernel_with(buf, sizeof buf, "warps(2)", "rv<f32, 16> v; f32 a = v[warp.id - 1];"), 1,
                  "index may be out of bounds");
}
END_TEST

START_TEST(modulo_and_let_intervals)
{
    char buf[2048];
    /* from LANGUAGE.md §7.3 */
    assert_ok(kernel_with(buf, sizeof buf, "warps(4)",
                          "rt<f32, 64, 64> t = zeros();\nf32 corner = t[63, 63];\nlet w = warp.id;\n"
                          "for (i in 0 .. 16) { t[16 * w + i, 2 * i] = 0.0; }\n"
                          "rv<f32, 64> r = row_sum(t);\nf32 first = r[(w + 5) % 64];"));
    /* % by a constant bounds any non-negative value */
    assert_ok(kernel_with(buf, sizeof buf, "warps(16)", "rv<f32, 16> v; let j = (warp.id * 1000) % 16; v[j] = 1.0;"));
    assert_errors(kernel_with(buf, sizeof buf, "warps(16)", "rv<f32, 16> v; v[warp.id * 2] = 1.0;"), 1,
                  "index may be out of bounds");
}
END_TEST

/* ---------------------------------------------------------------- uniformity */

START_TEST(sync_under_uniform_condition)
{
    char buf[2048];
    assert_ok(kernel_with(buf, sizeof buf, "grid(4) warps(4)",
                          "if (block.x == 0) { sync(); }\n"
                          "if (s > 0.0) { sync(); } else { sync(); }\n"
                          "for (i in 0 .. M) { sync(); }\n"
                          "let lead = warp.id == 0; if (lead) { rt<f32, 16, 16> t = zeros(); }"));
}
END_TEST

START_TEST(sync_under_warp_id_condition)
{
    char buf[2048];
    const char *src = kernel_with(buf, sizeof buf, "warps(4)", "if (warp.id == 0) { sync(); }");
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sync() must be reached by every warp of the block");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "sync", 0));
    ck_assert_ptr_nonnull(strstr(diag(&r, 0)->found, "a condition at line 2"));
    done(&r);
    /* through a let, and in the else branch */
    assert_errors(kernel_with(buf, sizeof buf, "warps(4)", "let w = warp.id; if (w < 2) { } else { sync(); }"), 1,
                  "sync() must be reached by every warp");
    /* a loop whose bound varies */
    Run q;
    run(&q, kernel_with(buf, sizeof buf, "warps(4)", "for (i in 0 .. warp.id) { sync(); }"));
    expect_count(&q, 1);
    ck_assert_ptr_nonnull(strstr(diag(&q, 0)->found, "loop"));
    ck_assert_ptr_nonnull(strstr(diag(&q, 0)->found, "bounds"));
    done(&q);
}
END_TEST

START_TEST(uniformity_fixpoint_sees_later_assignments)
{
    char buf[2048];
    /* v is assigned a varying value after the if; flow-insensitively v is varying */
    const char *src = kernel_with(buf, sizeof buf, "warps(4)",
                                  "i32 v = 0;\nif (v > 0) { sync(); }\nfor (j in 0 .. 4) { v = warp.id; }");
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "sync()");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "sync", 0));
    done(&r);
    /* the same shape with a uniform assignment is fine */
    assert_ok(kernel_with(buf, sizeof buf, "warps(4)", "i32 v = 0;\nif (v > 0) { sync(); }\nfor (j in 0 .. 4) { v = j + M; }"));
    /* a chain through another variable, both after the use */
    assert_errors(kernel_with(buf, sizeof buf, "warps(4)", "i32 a = 0; i32 b = 0;\nif (a > 0) { sync(); }\na = b; b = warp.id;"),
                  1, "sync()");
    /* assigned a uniform value, but under a varying condition */
    assert_errors(kernel_with(buf, sizeof buf, "warps(4)", "i32 v = 0;\nif (warp.id == 0) { v = 1; }\nif (v > 0) { sync(); }"),
                  1, "sync()");
    /* a tile element is varying */
    assert_errors(kernel_with(buf, sizeof buf, "warps(4)", "rt<f32, 16, 16> t; f32 x = 0.0; x = t[0, 0];\nif (x > 0.0) { sync(); }"),
                  1, "sync()");
}
END_TEST

START_TEST(collectives_and_helpers_need_uniform_flow)
{
    char buf[2048];
    assert_errors(kernel_with(buf, sizeof buf, "warps(4)", "st<f32, 64, 64> S;\nif (warp.id == 0) { S = load(X, 0, 0); }"), 1,
                  "load on shared memory is block-collective");
    /* a per-warp store into an st is fine there */
    assert_ok(kernel_with(buf, sizeof buf, "warps(4)",
                          "st<f32, 64, 64> S;\nif (warp.id == 0) { rt<f32, 16, 64> p = zeros(); store(S, p, warp.id, 0); }"));
    /* a helper that syncs, called under a varying condition: the error is at the call */
    const char *src = "fn barrier() { sync(); }\n"
                      "kernel k(gl<f32, N> X) warps(4) { barrier(); if (warp.id == 1) { barrier(); } }\n";
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    msg_has(&r, 0, "helper 'barrier'");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "barrier()", 2));
    done(&r);
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
    const char *src = kernel_with(buf, sizeof buf, "", "i32 a = foo;\ni32 b = foo + 1;\nf32 c = convert<f32>(foo * 2);");
    Run r;
    run(&r, src);
    expect_count(&r, 1);
    ck_assert_str_eq(diag(&r, 0)->message, "unknown name 'foo'");
    ck_assert_uint_eq(diag(&r, 0)->span.begin, offset_of(src, "foo", 0));
    ck_assert_uint_eq(diag(&r, 0)->span.end, offset_of(src, "foo", 0) + 3);
    done(&r);
}
END_TEST

START_TEST(error_type_silences_dependents)
{
    char buf[2048];
    /* x gets the error type; every use of it, and of y, stays quiet */
    assert_errors(kernel_with(buf, sizeof buf, "",
                              "let x = foo + 1;\nlet y = x * 2;\nf32 z = y;\nrt<f32, 16, 16> t; t = t + x; bf16 h = y;\n"
                              "if (x > 0) { sync(); }"),
                  1, "unknown name 'foo'");
    /* an ill-typed operand silences the operator around it */
    assert_errors(kernel_with(buf, sizeof buf, "", "f16 h = 1.0; bf16 g = 1.0; f32 r = (h + g) * 2.0 + s;"), 1, "different types");
    /* a bad tile type: the variable is declared and later uses are quiet */
    assert_errors(kernel_with(buf, sizeof buf, "", "rt<f32, 17, 16> t;\nt = t * 2.0;\nrv<f32, 16> r = row_sum(t);"), 1, "17");
}
END_TEST

Suite *tk_suite_types(void)
{
    Suite *suite = suite_create("types");

    TCase *api = tcase_create("type_api");
    tcase_add_test(api, format_tiles_and_vectors);
    tcase_add_test(api, format_scalars);
    tcase_add_test(api, format_gl_with_size_names);
    tcase_add_test(api, type_equal_tiles);
    tcase_add_test(api, type_equal_gl_is_polynomial);
    tcase_add_test(api, kind_predicates);
    tcase_add_test(api, scalar_singletons_and_with_elem);
    suite_add_tcase(suite, api);

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
