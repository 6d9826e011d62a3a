/* test_interp_bounds.c — the error bounds of the reference interpreter
 * (tir_interp_run_bounded, lower/interp/tir_interp_bounds.c): what a compiled kernel
 * may differ from the interpreter by, element by element.
 *
 * Each test runs a small kernel on chosen values and checks the bound
 * against the formula of docs/ARCHITECTURE.md ("Error bounds") computed here
 * by hand: exact data movement and masks give 0, an f32 result u·|r|
 * (u = 2^-24), a bf16 result of a correctly rounded op on exact inputs 0, an
 * inexact bf16 result its ulp on top, an mma 2(K+2)u·Σ|a||b|; and the
 * comparisons and conversions the bounds cannot decide mark the run
 * unreliable. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "lower.h"
#include "tir_bind.h"
#include "tir_interp.h"

#define U 0x1p-24

typedef struct {
    TkFront fe;
    TirModule m;
} Prog;

static const TirFunc *load_kernel(Prog *p, const char *src)
{
    memset(p, 0, sizeof *p);
    ck_assert_int_eq(tk_front_load_memory(&p->fe, "bounds.tk", src, strlen(src)), 0);
    unsigned errors = tk_front_parse(&p->fe);
    if (!errors) errors = tk_front_check(&p->fe);
    if (errors) tk_diags_print_text(&p->fe.diags, stderr);
    ck_assert_uint_eq(errors, 0);
    ck_assert_int_eq(tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items), 0);
    ck_assert_ptr_nonnull(p->m.funcs);
    return p->m.funcs;
}

/* Runs kernel f on 2-D tensors of rows × cols (every parameter a tensor of
 * that shape unless it is a scalar, which gets `scalar`); vals/errs are the
 * caller's, per parameter. */
static int run(const TirFunc *f, double **vals, double **errs, double scalar, int64_t rows, int64_t cols, TirInterpBounds *b)
{
    TkArg args[8];
    double scal[8];
    static double dummy;
    ck_assert_uint_le(f->nparams, 8);
    for (unsigned p = 0; p < f->nparams; p++) {
        memset(&args[p], 0, sizeof args[p]);
        scal[p] = scalar;
        if (f->params[p].type->kind == TK_TY_GL) {
            args[p].data = &dummy;
            args[p].rank = f->params[p].type->rank;
            args[p].shape[0] = args[p].rank == 1 ? cols : rows;
            args[p].shape[1] = cols;
        } else {
            args[p].data = &scal[p];
        }
    }
    int64_t sizes[TK_MAX_SIZES];
    char err[512];
    ck_assert_msg(tir_bind_sizes(f, args, f->nparams, sizes, err, sizeof err) == 0, "%s", err);
    b->err = errs;
    int rc = tir_interp_run_bounded(f, vals, b, scal, sizes, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    return rc;
}

/* Two 16×16 tensors: X (input, filled with fill(i)), Y (output, zeros); error arrays zero. */
typedef struct {
    double x[256], y[256], ex[256], ey[256];
    double *vals[3], *errs[3];
} Two;

static void two_init(Two *t, double (*fill)(int))
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 256; i++) t->x[i] = fill(i);
    t->vals[0] = t->x, t->vals[1] = t->y, t->vals[2] = NULL;
    t->errs[0] = t->ex, t->errs[1] = t->ey, t->errs[2] = NULL;
}

static double ramp(int i) { return (i - 128) / 64.0; }   /* exact in bf16 and f32 */

START_TEST(data_movement_is_exact)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y) {\n"
                                         "    rt<f32, 16, 16, col> t = load(X, 0, 0);\n"
                                         "    store(Y, transpose(mask_cols(t, 3, 0.5)), 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 0);
    for (int i = 0; i < 256; i++) ck_assert_double_eq(t.ey[i], 0);
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(input_errors_propagate_and_masks_drop_them)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    store(Y, mask_cols(neg(t), 3, 0.5), 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    for (int i = 0; i < 256; i++) t.ex[i] = 0.25;   /* the input is known only to ±0.25 */
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0, 16, 16, &b);
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) ck_assert_double_eq(t.ey[r * 16 + c], c < 3 ? 0.25 : 0.0);   /* neg adds nothing */
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(f32_and_bf16_arithmetic)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, gl<bf16, M, N> Z, gl<bf16, M, N> E) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    store(Y, t * t + t, 0, 0);\n"
                                         "    rt<bf16, 16, 16> h = convert<bf16>(t);\n"
                                         "    store(Z, h * h, 0, 0);\n"
                                         "    store(E, exp(h), 0, 0);\n"
                                         "}\n");
    double x[256], y[256] = { 0 }, z[256] = { 0 }, e[256] = { 0 }, ex[256] = { 0 }, ey[256] = { 0 }, ez[256] = { 0 }, ee[256] = { 0 };
    for (int i = 0; i < 256; i++) x[i] = ramp(i);
    double *vals[] = { x, y, z, e }, *errs[] = { ex, ey, ez, ee };
    TirInterpBounds b;
    run(f, vals, errs, 0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 0);
    for (int i = 0; i < 256; i++) {
        double v = x[i], sq = v * v;
        /* t·t: u·|t²|; + t: its error plus u·|t² + t| (both f32 results; the interpreter keeps doubles) */
        double want = U * sq + U * (fabs(sq + v) + U * sq);
        ck_assert_msg(fabs(ey[i] - want) <= 1e-3 * want + 1e-300, "Y[%d]: bound %g, want %g", i, ey[i], want);
        /* bf16 h·h of exact bf16 inputs: the kernel rounds the same f32 product the same way */
        ck_assert_double_eq(ez[i], 0);
        /* exp is a polynomial: its bf16 result may round to a neighbour */
        double r = e[i];
        ck_assert_msg(ee[i] > 0x1p-9 * r && ee[i] < 0x1p-6 * r + 0x1p-120, "E[%d] = %g: bound %g", i, r, ee[i]);
    }
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(f32_transcendentals_get_twice_their_measured_ulps)
{
    /* exp ≤ 1 ulp, tanh ≤ 2, sigmoid ≤ 3 (tests/math): the bound of an exact f32
     * input's result is twice that, 4·ulps·u·|r| (an ulp ≤ 2u·|r|), plus 2^-126 */
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> E, gl<f32, M, N> T, gl<f32, M, N> S) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    store(E, exp(t), 0, 0);\n"
                                         "    store(T, tanh(t), 0, 0);\n"
                                         "    store(S, sigmoid(t), 0, 0);\n"
                                         "}\n");
    static double x[256], e[256], t[256], sg[256], ex[256], ee[256], et[256], es[256];
    for (int i = 0; i < 256; i++) x[i] = ramp(i), ex[i] = 0;
    double *vals[] = { x, e, t, sg }, *errs[] = { ex, ee, et, es };
    TirInterpBounds b;
    run(f, vals, errs, 0, 16, 16, &b);
    const double *res[] = { e, t, sg }, *bound[] = { ee, et, es };
    const double ulps[] = { 1, 2, 3 };
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 256; i++) {
            double want = 4 * ulps[k] * U * fabs(res[k][i]) + 0x1p-126;
            ck_assert_msg(fabs(bound[k][i] - want) <= 1e-12 * want, "fn %d, element %d: bound %g, want %g", k, i, bound[k][i], want);
        }
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(mma_bound_grows_with_depth)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> A, gl<f32, M, N> B, gl<f32, M, N> C) {\n"
                                         "    rt<f32, 16, 16> acc = zeros();\n"
                                         "    rt<f32, 16, 16> a = load(A, 0, 0);\n"
                                         "    rt<f32, 16, 16, col> b = load(B, 0, 0);\n"
                                         "    mma_ab(acc, a, b);\n"
                                         "    mma_ab(acc, a, b);\n"
                                         "    store(C, acc, 0, 0);\n"
                                         "}\n");
    double a[256], bb[256], c[256] = { 0 }, ea[256] = { 0 }, eb[256] = { 0 }, ec[256] = { 0 };
    for (int i = 0; i < 256; i++) a[i] = ramp(i), bb[i] = ramp((i * 7) % 256);
    double *vals[] = { a, bb, c }, *errs[] = { ea, eb, ec };
    TirInterpBounds b;
    run(f, vals, errs, 0, 16, 16, &b);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double sabs = 0;
            for (int k = 0; k < 16; k++) sabs += fabs(a[i * 16 + k] * bb[k * 16 + j]);
            /* first product: 2·(K+2)·u·Σ|a||b| (+ K·2^-126); the second adds as much again, on top of |acc| + its bound */
            double e1 = 2 * 18 * U * sabs + 16 * 0x1p-126;
            double acc1 = 0;
            for (int k = 0; k < 16; k++) acc1 += a[i * 16 + k] * bb[k * 16 + j];
            double e2 = e1 + 2 * 18 * U * (fabs(acc1) + e1 + sabs) + 16 * 0x1p-126;
            double got = ec[i * 16 + j];   /* stored as it is: f32 → f32 */
            ck_assert_msg(fabs(got - e2) <= 1e-9 * e2 + 1e-300, "C[%d, %d]: bound %g, want %g", i, j, got, e2);
        }
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(undecidable_comparison_is_unreliable)
{
    Prog p;
    /* exp(t) against itself: equal in the interpreter, within each other's error in a kernel */
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    let a = exp(t);\n"
                                         "    f32 p = a[1, 2];\n"
                                         "    f32 q = a[1, 2];\n"
                                         "    if (p < q) {\n"
                                         "        store(Y, t, 0, 0);\n"
                                         "    }\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 1);
    ck_assert_msg(strstr(b.why, "BINARY") && strstr(b.why, "comparing"), "why: %s", b.why);
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(decided_comparison_and_exact_conversion_are_reliable)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    let a = exp(t);\n"
                                         "    f32 p = a[1, 2];\n"
                                         "    i32 n = convert<i32>(s);\n"
                                         "    if (p > 0.0) {\n"
                                         "        store(Y, mask_rows(t, n, 0.0), 0, 0);\n"
                                         "    }\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 3.0, 16, 16, &b);
    ck_assert_msg(b.unreliable == 0, "why: %s", b.why);
    ck_assert_double_eq(t.y[3 * 16], 0.0);
    ck_assert_double_eq(t.y[2 * 16 + 1], t.x[2 * 16 + 1]);
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(inexact_float_to_int_is_unreliable)
{
    Prog p;
    /* exp(0) = 1 but a kernel's exp may give 1 - ulp: the integer part is not known */
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) {\n"
                                         "    i32 n = convert<i32>(exp(s));\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    store(Y, mask_rows(t, n, 0.0), 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0.0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 1);
    ck_assert_msg(strstr(b.why, "CAST"), "why: %s", b.why);
    tk_front_free(&p.fe);
}
END_TEST

START_TEST(division_near_zero_has_no_bound)
{
    Prog p;
    /* x / (t - t·1): a divisor within its own error of 0 */
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    let d = exp(t) - exp(t);\n"
                                         "    store(Y, t / d, 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 1);
    ck_assert(isinf(t.ey[5]));
    tk_front_free(&p.fe);
}
END_TEST

/* A scalar f32 product is correctly rounded: bound u·|r|; fill and store add
 * nothing. Scalars default to 1 elsewhere, where arithmetic is exact
 * (planted-bug seed 2, #45). */
START_TEST(scalar_arithmetic_rounds_like_tiles)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) {\n"
                                         "    f32 q = s * s;\n"
                                         "    rt<f32, 16, 16> y = fill(q);\n"
                                         "    store(Y, y, 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    double s = 1 + 0x1p-20;   /* s·s = 1 + 2^-19 + 2^-40: not an f32 */
    run(f, t.vals, t.errs, s, 16, 16, &b);
    ck_assert_msg(b.unreliable == 0, "why: %s", b.why);
    double want = U * (s * s);
    for (int i = 0; i < 256; i++)
        ck_assert_msg(fabs(t.ey[i] - want) <= 1e-12 * want, "Y[%d]: bound %g, want %g", i, t.ey[i], want);
    tk_front_free(&p.fe);
}
END_TEST

/* != on two values whose bounds overlap cannot be decided: the run is marked
 * unreliable, as for < and > (undecidable_comparison_is_unreliable). */
START_TEST(undecidable_inequality_is_unreliable)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    let a = exp(t);\n"
                                         "    f32 p = a[1, 2];\n"
                                         "    f32 q = a[1, 2];\n"
                                         "    if (p != q) {\n"
                                         "        store(Y, t, 0, 0);\n"
                                         "    }\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0, 16, 16, &b);
    ck_assert_int_eq(b.unreliable, 1);
    ck_assert_msg(strstr(b.why, "BINARY") && strstr(b.why, "comparing"), "why: %s", b.why);
    tk_front_free(&p.fe);
}
END_TEST

/* fill(scalar) gives every element the scalar's bound, the first one too:
 * exp(s) of an exact s is within 2 ulps, 4·u·|r| + 2^-126 (planted-bug seed 2, #62). */
START_TEST(fill_of_an_inexact_scalar_bounds_every_element)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, f32 s) {\n"
                                         "    store(Y, fill<rt<f32, 16, 16>>(exp(s)), 0, 0);\n"
                                         "}\n");
    Two t;
    two_init(&t, ramp);
    TirInterpBounds b;
    run(f, t.vals, t.errs, 0.5, 16, 16, &b);
    ck_assert_msg(b.unreliable == 0, "why: %s", b.why);
    double want = 4 * U * exp(0.5) + 0x1p-126;
    for (int i = 0; i < 256; i++) {
        ck_assert_double_eq(t.y[i], exp(0.5));
        ck_assert_msg(fabs(t.ey[i] - want) <= 1e-12 * want, "Y[%d]: bound %g, want %g", i, t.ey[i], want);
    }
    tk_front_free(&p.fe);
}
END_TEST

/* An exact infinity absorbs an inexact finite operand: inexact + inf is inf,
 * max(inexact, inf) is inf, both exactly, and the run stays reliable
 * (planted-bug seed 2, #82). */
START_TEST(inexact_finite_with_exact_infinity_is_exact)
{
    Prog p;
    const TirFunc *f = load_kernel(&p, "kernel k(gl<f32, M, N> X, gl<f32, M, N> Y, gl<f32, M, N> Z) {\n"
                                         "    rt<f32, 16, 16> t = load(X, 0, 0);\n"
                                         "    let e = exp(t);\n"
                                         "    store(Y, e + inf, 0, 0);\n"
                                         "    store(Z, max(exp(t), inf), 0, 0);\n"
                                         "}\n");
    double x[256], y[256] = { 0 }, z[256] = { 0 }, ex[256] = { 0 }, ey[256], ez[256];
    for (int i = 0; i < 256; i++) x[i] = ramp(i), ey[i] = ez[i] = -1;
    double *vals[] = { x, y, z }, *errs[] = { ex, ey, ez };
    TirInterpBounds b;
    run(f, vals, errs, 0, 16, 16, &b);
    ck_assert_msg(b.unreliable == 0, "why: %s", b.why);
    for (int i = 0; i < 256; i++) {
        ck_assert(isinf(y[i]) && y[i] > 0 && isinf(z[i]) && z[i] > 0);
        ck_assert_double_eq(ey[i], 0);
        ck_assert_double_eq(ez[i], 0);
    }
    tk_front_free(&p.fe);
}
END_TEST

Suite *tk_suite_interp_bounds(void)
{
    Suite *s = suite_create("interp_bounds");
    TCase *c = tcase_create("bounds");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, data_movement_is_exact);
    tcase_add_test(c, input_errors_propagate_and_masks_drop_them);
    tcase_add_test(c, f32_and_bf16_arithmetic);
    tcase_add_test(c, f32_transcendentals_get_twice_their_measured_ulps);
    tcase_add_test(c, mma_bound_grows_with_depth);
    tcase_add_test(c, undecidable_comparison_is_unreliable);
    tcase_add_test(c, decided_comparison_and_exact_conversion_are_reliable);
    tcase_add_test(c, inexact_float_to_int_is_unreliable);
    tcase_add_test(c, division_near_zero_has_no_bound);
    tcase_add_test(c, scalar_arithmetic_rounds_like_tiles);
    tcase_add_test(c, undecidable_inequality_is_unreliable);
    tcase_add_test(c, fill_of_an_inexact_scalar_bounds_every_element);
    tcase_add_test(c, inexact_finite_with_exact_infinity_is_exact);
    suite_add_tcase(s, c);
    return s;
}
