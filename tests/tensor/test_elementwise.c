/* test_elementwise.c — the element-wise ops (tk/ops.h) against PyTorch:
 * every binary and unary op on f32 at ragged broadcasts, empty and 0-d
 * operands and strided views, every dtype each op takes (and the ones it
 * refuses), mixed-dtype promotion, wrapped-number scalars, NaN/inf corners,
 * in-place forms, clamp, where, the activations with a parameter; then
 * thread-count identity, aliasing, profiling and bad arguments. The cases
 * come from fixtures/fx_elementwise.py; each names its op as ASCII bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tk/dtype.h"
#include "internal.h"   /* tkr_view, for strided views over a fixture's data */

/* ------------------------------------------------------------ helpers */

static void fx_op_name(const char *c, char *buf, size_t len)
{
    tk_tensor *t = tkt_fx(c, "op");
    int64_t n = tk_tensor_numel(t);
    ck_assert_int_lt(n, (int64_t)len);
    memcpy(buf, tk_tensor_data(t), (size_t)n);
    buf[n] = 0;
    tk_tensor_release(t);
}

static int64_t fx_int(const char *c, const char *name)
{
    if (!tkt_fx_exists(c, name)) return 0;
    tk_tensor *t = tkt_fx(c, name);
    double v;
    const int64_t first[TK_MAX_DIMS] = { 0 };   /* the loader may give a 0-d array one dim */
    TKT_OK(tk_item(tkt_ctx, t, first, &v));
    tk_tensor_release(t);
    return (int64_t)v;
}

static tk_binary_op binary_by_name(const char *name)
{
    for (int op = 0; op <= TK_SHIFT_RIGHT; op++)
        if (strcmp(tk_binary_op_name((tk_binary_op)op), name) == 0) return (tk_binary_op)op;
    ck_abort_msg("no binary op named %s", name);
    return TK_ADD;
}

static tk_unary_op unary_by_name(const char *name)
{
    for (int op = 0; op <= TK_ISFINITE; op++)
        if (strcmp(tk_unary_op_name((tk_unary_op)op), name) == 0) return (tk_unary_op)op;
    ck_abort_msg("no unary op named %s", name);
    return TK_NEG;
}

/* A view of t (which it releases): 1 swaps the last two dims (a transpose),
 * 2 takes every other element of the last dim; 0 returns t. */
static tk_tensor *view_of(tk_tensor *t, int64_t kind)
{
    if (kind == 0) return t;
    int nd = tk_tensor_ndim(t);
    int64_t shape[TK_MAX_DIMS], strides[TK_MAX_DIMS];
    memcpy(shape, tk_tensor_shape(t), (size_t)nd * sizeof *shape);
    memcpy(strides, tk_tensor_strides(t), (size_t)nd * sizeof *strides);
    if (kind == 1) {
        ck_assert_int_ge(nd, 2);
        int64_t s = shape[nd - 1], st = strides[nd - 1];
        shape[nd - 1] = shape[nd - 2], strides[nd - 1] = strides[nd - 2];
        shape[nd - 2] = s, strides[nd - 2] = st;
    } else {
        shape[nd - 1] = (shape[nd - 1] + 1) / 2;
        strides[nd - 1] *= 2;
    }
    tk_tensor *v;
    TKT_OK(tkr_view(tkt_ctx, t, nd, shape, strides, tk_tensor_offset(t), &v));
    ck_assert(!tk_tensor_is_contiguous(v));
    tk_tensor_release(t);
    return v;
}

static void expect_result(const tk_tensor *got, const tk_tensor *want, const char *label)
{
    double rtol, atol;
    tkt_tolerance(tk_tensor_dtype(want), &rtol, &atol);
    tkt_expect_close(got, want, rtol, atol, true, label);
}

static bool can_cast(tk_dtype from, tk_dtype to)
{
    bool ffloat = tk_dtype_is_float(from), tfloat = tk_dtype_is_float(to);
    if (ffloat && !tfloat) return false;
    return !(from != TK_DTYPE_BOOL && !ffloat && to == TK_DTYPE_BOOL);
}

static bool same_shape(const tk_tensor *a, const tk_tensor *b)
{
    if (tk_tensor_ndim(a) != tk_tensor_ndim(b)) return false;
    for (int d = 0; d < tk_tensor_ndim(a); d++)
        if (tk_tensor_shape(a)[d] != tk_tensor_shape(b)[d]) return false;
    return true;
}

/* In-place a = op(a, b) (b NULL: the scalar s): it works when the result
 * fits a (PyTorch's canCast, same shape) and matches `want` rounded to a's
 * dtype, or fails naming the reason and leaves a alone. */
static void check_inplace(tk_binary_op op, const tk_tensor *a, const tk_tensor *b, double s, const tk_tensor *want, const char *label)
{
    tk_tensor *c;
    TKT_OK(tk_clone(tkt_ctx, a, &c));
    tk_status st = b ? tk_binary_(tkt_ctx, op, c, b) : tk_binary_scalar_(tkt_ctx, op, c, s);
    char l[160];
    snprintf(l, sizeof l, "%s in place", label);
    if (!can_cast(tk_tensor_dtype(want), tk_tensor_dtype(a))) {
        ck_assert_msg(st == TK_ERR_DTYPE, "%s: status %d, want TK_ERR_DTYPE", l, (int)st);
        ck_assert_ptr_nonnull(strstr(tk_last_error(tkt_ctx), "cannot be written"));
    } else if (!same_shape(a, want)) {
        ck_assert_msg(st == TK_ERR_SHAPE, "%s: status %d, want TK_ERR_SHAPE", l, (int)st);
        ck_assert_ptr_nonnull(strstr(tk_last_error(tkt_ctx), "is not a's shape"));
    } else {
        ck_assert_msg(st == TK_OK, "%s: %s", l, tk_last_error(tkt_ctx));
        tk_tensor *w;
        TKT_OK(tk_to_dtype(tkt_ctx, want, tk_tensor_dtype(a), &w));
        expect_result(c, w, l);
        tk_tensor_release(w);
    }
    tk_tensor_release(c);
}

/* ------------------------------------------------------------ fixtures */

START_TEST(binary_matches_torch)
{
    int cases = 0, refused = 0;
    for (int k = 0;; k++) {
        char c[32], name[32], label[96];
        snprintf(c, sizeof c, "bin_%d", k);
        if (!tkt_fx_exists(c, "op")) break;
        fx_op_name(c, name, sizeof name);
        tk_binary_op op = binary_by_name(name);
        tk_tensor *a = view_of(tkt_fx(c, "a"), fx_int(c, "view_a")), *b = view_of(tkt_fx(c, "b"), fx_int(c, "view_b")), *got = NULL;
        snprintf(label, sizeof label, "%s: %s(%s, %s)", c, name, tk_dtype_name(tk_tensor_dtype(a)), tk_dtype_name(tk_tensor_dtype(b)));
        if (fx_int(c, "err")) {
            TKT_FAILS(tk_binary(tkt_ctx, op, a, b, &got), TK_ERR_DTYPE, name);
            ck_assert_ptr_null(got);
            refused++;
        } else {
            tk_tensor *want = tkt_fx(c, "out");
            tk_status st = tk_binary(tkt_ctx, op, a, b, &got);
            ck_assert_msg(st == TK_OK, "%s: %s", label, tk_last_error(tkt_ctx));
            expect_result(got, want, label);
            check_inplace(op, a, b, 0, want, label);
            TKT_RELEASE(got, want);
        }
        TKT_RELEASE(a, b);
        cases++;
    }
    ck_assert_int_ge(cases, 400);
    ck_assert_int_ge(refused, 20);
}
END_TEST

START_TEST(scalar_matches_torch)
{
    int cases = 0;
    for (int k = 0;; k++) {
        char c[32], name[32], label[96];
        snprintf(c, sizeof c, "sc_%d", k);
        if (!tkt_fx_exists(c, "op")) break;
        fx_op_name(c, name, sizeof name);
        tk_binary_op op = binary_by_name(name);
        tk_tensor *a = tkt_fx(c, "a"), *st = tkt_fx(c, "s"), *want = tkt_fx(c, "out"), *got;
        double s;
        const int64_t first[TK_MAX_DIMS] = { 0 };
        TKT_OK(tk_item(tkt_ctx, st, first, &s));
        snprintf(label, sizeof label, "%s: %s(%s, %g)", c, name, tk_dtype_name(tk_tensor_dtype(a)), s);
        tk_status r = tk_binary_scalar(tkt_ctx, op, a, s, &got);
        ck_assert_msg(r == TK_OK, "%s: %s", label, tk_last_error(tkt_ctx));
        expect_result(got, want, label);
        check_inplace(op, a, NULL, s, want, label);
        TKT_RELEASE(a, st, want, got);
        cases++;
    }
    ck_assert_int_ge(cases, 20);
}
END_TEST

START_TEST(unary_matches_torch)
{
    int cases = 0, refused = 0;
    for (int k = 0;; k++) {
        char c[32], name[32], label[96];
        snprintf(c, sizeof c, "un_%d", k);
        if (!tkt_fx_exists(c, "op")) break;
        fx_op_name(c, name, sizeof name);
        tk_unary_op op = unary_by_name(name);
        tk_tensor *x = view_of(tkt_fx(c, "x"), fx_int(c, "view_x")), *got = NULL;
        snprintf(label, sizeof label, "%s: %s(%s)", c, name, tk_dtype_name(tk_tensor_dtype(x)));
        if (fx_int(c, "err")) {
            TKT_FAILS(tk_unary(tkt_ctx, op, x, &got), TK_ERR_DTYPE, name);
            ck_assert_ptr_null(got);
            refused++;
        } else {
            tk_tensor *want = tkt_fx(c, "out"), *inplace;
            tk_status st = tk_unary(tkt_ctx, op, x, &got);
            ck_assert_msg(st == TK_OK, "%s: %s", label, tk_last_error(tkt_ctx));
            expect_result(got, want, label);
            /* in place: only where the result fits x's dtype */
            TKT_OK(tk_clone(tkt_ctx, x, &inplace));
            st = tk_unary_(tkt_ctx, op, inplace);
            if (can_cast(tk_tensor_dtype(want), tk_tensor_dtype(x))) {
                ck_assert_msg(st == TK_OK, "%s in place: %s", label, tk_last_error(tkt_ctx));
                tk_tensor *w;
                TKT_OK(tk_to_dtype(tkt_ctx, want, tk_tensor_dtype(x), &w));
                expect_result(inplace, w, label);
                tk_tensor_release(w);
            } else {
                ck_assert_msg(st == TK_ERR_DTYPE, "%s in place: status %d", label, (int)st);
            }
            TKT_RELEASE(got, want, inplace);
        }
        tk_tensor_release(x);
        cases++;
    }
    ck_assert_int_ge(cases, 500);
    ck_assert_int_ge(refused, 8);
}
END_TEST

START_TEST(activations_clamp_where)
{
    tk_tensor *x = tkt_fx("leaky_relu", "x"), *want = tkt_fx("leaky_relu", "out"), *got;
    TKT_OK(tk_leaky_relu(tkt_ctx, x, 0.1, &got));
    expect_result(got, want, "leaky_relu");
    TKT_RELEASE(x, want, got);
    x = tkt_fx("leaky_relu", "x16"), want = tkt_fx("leaky_relu", "out16");
    TKT_OK(tk_leaky_relu(tkt_ctx, x, 0.1, &got));
    expect_result(got, want, "leaky_relu f16");
    TKT_RELEASE(x, want, got);
    x = tkt_fx("elu", "x"), want = tkt_fx("elu", "out");
    TKT_OK(tk_elu(tkt_ctx, x, 0.7, &got));
    expect_result(got, want, "elu");
    TKT_RELEASE(x, want, got);
    x = tkt_fx("elu", "xi"), want = tkt_fx("elu", "outi");   /* ints compute in f32 */
    TKT_OK(tk_elu(tkt_ctx, x, 0.7, &got));
    expect_result(got, want, "elu of i32");
    TKT_RELEASE(x, want, got);

    const struct {
        const char *x, *out;
        tk_clamp_opts o;
    } cl[] = {
        { "x", "both", { true, true, -1.5, 2.0 } },      { "x", "lo", { true, false, -0.5, 0 } },
        { "x", "hi", { false, true, 0, 0.25 } },         { "x", "crossed", { true, true, 2.0, -1.0 } },
        { "xi", "xi_int", { true, true, -5, 7 } },       { "xi", "xi_float", { true, true, -5.5, 7.5 } },
        { "xb", "xb_int", { true, true, 0, 1 } },        { "xh", "xh_out", { true, true, -1.5, 2.0 } },
    };
    for (unsigned i = 0; i < sizeof cl / sizeof *cl; i++) {
        x = tkt_fx("clamp", cl[i].x), want = tkt_fx("clamp", cl[i].out);
        TKT_OK(tk_clamp(tkt_ctx, x, &cl[i].o, &got));
        expect_result(got, want, cl[i].out);
        tk_tensor *c;
        TKT_OK(tk_clone(tkt_ctx, x, &c));
        if (tk_tensor_dtype(want) == tk_tensor_dtype(x)) {
            TKT_OK(tk_clamp_(tkt_ctx, c, &cl[i].o));
            expect_result(c, want, cl[i].out);
        } else {   /* i32 clamped at 7.5 is f32; bool clamped at ints is i64 */
            TKT_FAILS(tk_clamp_(tkt_ctx, c, &cl[i].o), TK_ERR_DTYPE, "tk_clamp_");
        }
        TKT_RELEASE(x, want, got, c);
    }

    tk_tensor *cond = tkt_fx("where", "cond"), *a = tkt_fx("where", "a"), *b = tkt_fx("where", "b");
    want = tkt_fx("where", "out");
    TKT_OK(tk_where(tkt_ctx, cond, a, b, &got));
    expect_result(got, want, "where [3,1,4] ? [5,1] f32 : [4] i32");
    TKT_RELEASE(cond, a, b, want, got);
    cond = tkt_fx("where", "condf"), a = tkt_fx("where", "ah"), b = tkt_fx("where", "bi8"), want = tkt_fx("where", "outf");
    TKT_OK(tk_where(tkt_ctx, cond, a, b, &got));   /* a float condition: NaN is true */
    expect_result(got, want, "where f32 cond, f16 : i8");
    TKT_RELEASE(cond, a, b, want, got);
}
END_TEST

/* ------------------------------------------------------------ semantics by hand */

/* The dense bf16 loops (elementwise_bf16.c) against PyTorch's f32-then-round:
 * the arithmetic bit for bit (a contiguous and a broadcast operand); the math
 * within one bf16 ulp (rtol 2⁻⁷: our f32 exp and erfc are ~1e-7 off, so only
 * a value within that of a rounding boundary may round the other way), with
 * at most 1% of the elements off at all, and NaN/±inf/±0 where torch has them.
 * gelu and gelu_tanh also get atol 1e-6: torch's 1 + erf(z) and 1 + tanh(y)
 * cancel to 0 once the tail drops below f32's epsilon (x below about -5.4),
 * where we return the tiny true value (|x|·3e-8 at most). */
START_TEST(bf16_dense_loops_match_torch)
{
    const char *c = "bf16_dense";
    tk_tensor *x = tkt_fx(c, "x"), *y = tkt_fx(c, "y"), *s = tkt_fx(c, "s");
    ck_assert_int_eq(tk_tensor_dtype(x), TK_DTYPE_BF16);
    const char *un[] = { "exp", "sigmoid", "silu", "tanh", "gelu", "gelu_tanh" };
    for (int i = 0; i < 6; i++) {
        char name[32];
        snprintf(name, sizeof name, "un_%s", un[i]);
        tk_tensor *want = tkt_fx(c, name), *got;
        TKT_OK(tk_unary(tkt_ctx, unary_by_name(un[i]), x, &got));
        double atol = i >= 4 ? 1e-6 : 1e-38;
        tkt_expect_close(got, want, 1.0 / 128, atol, true, name);
        const uint16_t *g = tk_tensor_data(got), *w = tk_tensor_data(want);
        int64_t off = 0, n = tk_tensor_numel(want);
        for (int64_t j = 0; j < n; j++) off += g[j] != w[j] && fabs(tk_bf16_to_f32(g[j]) - tk_bf16_to_f32(w[j])) > atol;
        ck_assert_msg(off * 100 <= n, "%s: %lld of %lld elements differ from torch's bits", name, (long long)off, (long long)n);
        TKT_RELEASE(want, got);
    }
    const char *bin[] = { "add", "sub", "mul", "div" };
    for (int i = 0; i < 4; i++) {
        char name[32];
        tk_tensor *want, *got;
        snprintf(name, sizeof name, "bin_%s", bin[i]);
        want = tkt_fx(c, name);
        TKT_OK(tk_binary(tkt_ctx, binary_by_name(bin[i]), x, y, &got));
        tkt_expect_close(got, want, 0, 0, true, name);   /* exact; NaN matches NaN */
        TKT_RELEASE(want, got);
        snprintf(name, sizeof name, "scal_%s", bin[i]);
        want = tkt_fx(c, name);
        TKT_OK(tk_binary(tkt_ctx, binary_by_name(bin[i]), x, s, &got));
        tkt_expect_close(got, want, 0, 0, true, name);
        TKT_RELEASE(want, got);
    }
    TKT_RELEASE(x, y, s);
}
END_TEST

/* 1M elements over several pieces: the same bits on 1 and 2 threads. */
START_TEST(thread_count_identity)
{
    tk_tensor *x, *y, *h, *r1[7], *r2[7];
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 1000, 1000 }, 5, &x));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 1000 }, 6, &y));
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_BF16, &h));
    for (int t = 1; t <= 2; t++) {
        tk_tensor **r = t == 1 ? r1 : r2;
        TKT_OK(tk_context_set_threads(tkt_ctx, t));
        TKT_OK(tk_add(tkt_ctx, x, y, &r[0]));
        TKT_OK(tk_unary(tkt_ctx, TK_GELU, x, &r[1]));
        TKT_OK(tk_binary(tkt_ctx, TK_MUL, h, y, &r[2]));   /* bf16 × f32 through the buffers */
        TKT_OK(tk_unary(tkt_ctx, TK_GELU, h, &r[5]));      /* the dense bf16 loops: a ragged end in each piece */
        TKT_OK(tk_binary(tkt_ctx, TK_ADD, h, h, &r[6]));
        TKT_OK(tk_binary(tkt_ctx, TK_GT, x, y, &r[3]));
        TKT_OK(tk_where(tkt_ctx, r[3], x, h, &r[4]));
    }
    for (int i = 0; i < 7; i++) {
        char l[32];
        snprintf(l, sizeof l, "op %d, 1 vs 2 threads", i);
        tkt_expect_equal(r1[i], r2[i], l);
        TKT_RELEASE(r1[i], r2[i]);
    }
    TKT_RELEASE(x, y, h);
}
END_TEST

/* b aliasing a: the same tensor, and a transposed view of a's own storage. */
START_TEST(inplace_aliasing)
{
    tk_tensor *a, *want, *t, *c;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 37, 37 }, 9, &a));
    TKT_OK(tk_add(tkt_ctx, a, a, &want));
    TKT_OK(tk_add_(tkt_ctx, a, a));
    tkt_expect_equal(a, want, "a += a");
    tk_tensor_release(want);
    t = view_of(tk_tensor_retain(a), 1);
    TKT_OK(tk_clone(tkt_ctx, t, &c));
    TKT_OK(tk_mul(tkt_ctx, a, c, &want));   /* a * a.T from a copy of a.T */
    TKT_OK(tk_mul_(tkt_ctx, a, t));         /* a *= a.T reading a while writing it */
    tkt_expect_equal(a, want, "a *= a.T");
    TKT_RELEASE(a, want, t, c);
}
END_TEST

START_TEST(integer_corners)
{
    tk_tensor *a, *z, *got = NULL;
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 7, -7, 1, -1 }, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &a));
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 3, 0, 1, 2 }, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &z));
    TKT_FAILS(tk_binary(tkt_ctx, TK_FLOOR_DIVIDE, a, z, &got), TK_ERR_INVALID_ARGUMENT, "division by zero");
    TKT_FAILS(tk_binary(tkt_ctx, TK_REMAINDER, a, z, &got), TK_ERR_INVALID_ARGUMENT, "ZeroDivisionError");
    TKT_FAILS(tk_binary_scalar(tkt_ctx, TK_FMOD, a, 0, &got), TK_ERR_INVALID_ARGUMENT, "tk_fmod");
    TKT_FAILS(tk_binary_scalar(tkt_ctx, TK_POW, a, -1, &got), TK_ERR_INVALID_ARGUMENT, "negative integer powers");
    ck_assert_ptr_null(got);
    /* an in-place division by zero leaves a untouched */
    TKT_FAILS(tk_binary_(tkt_ctx, TK_FLOOR_DIVIDE, a, z), TK_ERR_INVALID_ARGUMENT, "tk_floor_divide_");
    ck_assert_int_eq(((int32_t *)tk_tensor_data(a))[0], 7);
    /* true division of ints gives f32, ±inf at zero */
    TKT_OK(tk_div(tkt_ctx, a, z, &got));
    ck_assert_int_eq(tk_tensor_dtype(got), TK_DTYPE_F32);
    ck_assert(isinf(((float *)tk_tensor_data(got))[1]) && ((float *)tk_tensor_data(got))[1] < 0);
    tk_tensor_release(got);
    /* shifts past the width: left gives 0 (PyTorch >= 2.1; 1.13 is undefined), right gives the sign */
    tk_tensor *sh;
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ 32, -1, 40, 31 }, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &sh));
    TKT_OK(tk_binary(tkt_ctx, TK_SHIFT_LEFT, a, sh, &got));
    const int32_t *g = tk_tensor_data(got);
    ck_assert(g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == INT32_MIN);
    tk_tensor_release(got);
    TKT_OK(tk_binary(tkt_ctx, TK_SHIFT_RIGHT, a, sh, &got));
    g = tk_tensor_data(got);
    ck_assert(g[0] == 0 && g[1] == -1 && g[2] == 0 && g[3] == -1);
    tk_tensor_release(got);
    /* INT64_MIN // -1 wraps instead of trapping */
    tk_tensor *m, *neg1;
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ INT64_MIN }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &m));
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ -1 }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &neg1));
    TKT_OK(tk_binary(tkt_ctx, TK_FLOOR_DIVIDE, m, neg1, &got));
    ck_assert(((int64_t *)tk_tensor_data(got))[0] == INT64_MIN);
    TKT_RELEASE(got, a, z, sh, m, neg1);
}
END_TEST

START_TEST(profile_records_one_op_per_call)
{
    tk_profile_enable(tkt_ctx, true);
    tk_tensor *a, *r;
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 8 }, &a));
    TKT_OK(tk_add(tkt_ctx, a, a, &r));
    tk_tensor_release(r);
    TKT_OK(tk_add(tkt_ctx, a, a, &r));
    tk_tensor_release(r);
    TKT_OK(tk_unary_(tkt_ctx, TK_EXP, a));
    tk_profile_record recs[16];
    size_t n = tk_profile_records(tkt_ctx, recs, 16);
    int add = 0, exp_ = 0;
    for (size_t i = 0; i < n && i < 16; i++) {
        if (strcmp(recs[i].name, "tk_add") == 0) add = (int)recs[i].count;
        if (strcmp(recs[i].name, "tk_exp_") == 0) exp_ = (int)recs[i].count;
    }
    ck_assert_int_eq(add, 2);
    ck_assert_int_eq(exp_, 1);
    tk_tensor_release(a);
}
END_TEST

START_TEST(bad_arguments)
{
    tk_tensor *f, *g, *i, *e, *got = (tk_tensor *)1;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, &f));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 2, 4 }, &g));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &i));
    ck_assert_int_eq(tk_add(NULL, f, f, &got), TK_ERR_INVALID_ARGUMENT);
    TKT_FAILS(tk_add(tkt_ctx, NULL, f, &got), TK_ERR_INVALID_ARGUMENT, "a");
    ck_assert_ptr_null(got);
    TKT_FAILS(tk_add(tkt_ctx, f, NULL, &got), TK_ERR_INVALID_ARGUMENT, "b is NULL");
    TKT_FAILS(tk_add(tkt_ctx, f, f, NULL), TK_ERR_INVALID_ARGUMENT, "out is NULL");
    TKT_FAILS(tk_add(tkt_ctx, f, g, &got), TK_ERR_SHAPE, "[3, 4]");
    TKT_FAILS(tk_add_(tkt_ctx, f, g), TK_ERR_SHAPE, "do not broadcast");
    TKT_FAILS(tk_binary(tkt_ctx, TK_BITWISE_AND, f, f, &got), TK_ERR_DTYPE, "f32");
    TKT_FAILS(tk_binary(tkt_ctx, TK_SHIFT_LEFT, i, f, &got), TK_ERR_DTYPE, "tk_shift_left");
    TKT_FAILS(tk_binary_scalar(tkt_ctx, TK_SHIFT_RIGHT, f, 1, &got), TK_ERR_DTYPE, "integer");
    TKT_FAILS(tk_binary(tkt_ctx, (tk_binary_op)99, f, f, &got), TK_ERR_INVALID_ARGUMENT, "99");
    TKT_FAILS(tk_binary(tkt_ctx, (tk_binary_op)-1, f, f, &got), TK_ERR_INVALID_ARGUMENT, "not a tk_binary_op");
    TKT_FAILS(tk_unary(tkt_ctx, (tk_unary_op)77, f, &got), TK_ERR_INVALID_ARGUMENT, "not a tk_unary_op");
    TKT_FAILS(tk_unary(tkt_ctx, TK_EXP, NULL, &got), TK_ERR_INVALID_ARGUMENT, "tk_exp");
    TKT_FAILS(tk_unary(tkt_ctx, TK_BITWISE_NOT, f, &got), TK_ERR_DTYPE, "integer or bool");
    ck_assert_str_eq(tk_binary_op_name(TK_FLOOR_DIVIDE), "floor_divide");
    ck_assert_str_eq(tk_unary_op_name(TK_GELU_TANH), "gelu_tanh");
    ck_assert_str_eq(tk_binary_op_name((tk_binary_op)99), "?");
    /* in place: a result that does not fit a, broadcast growth, a read-only or expanded target */
    TKT_FAILS(tk_binary_scalar_(tkt_ctx, TK_ADD, i, 0.5), TK_ERR_DTYPE, "f32");   /* 0.5 makes it f32 */
    TKT_FAILS(tk_add_(tkt_ctx, i, f), TK_ERR_DTYPE, "i32");
    TKT_FAILS(tk_unary_(tkt_ctx, TK_EXP, i), TK_ERR_DTYPE, "tk_exp_");
    TKT_FAILS(tk_add_(tkt_ctx, i, f), TK_ERR_DTYPE, "cannot be written");
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &e));
    TKT_FAILS(tk_add_(tkt_ctx, e, f), TK_ERR_SHAPE, "is not a's shape");
    tk_tensor *ro, *ex;
    float buf[4] = { 0 };
    TKT_OK(tk_from_blob(tkt_ctx, buf, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, NULL, TK_BLOB_READONLY, NULL, NULL, &ro));
    TKT_FAILS(tk_mul_(tkt_ctx, ro, e), TK_ERR_INVALID_ARGUMENT, "read-only");
    TKT_OK(tk_from_blob(tkt_ctx, buf, TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, (int64_t[]){ 0, 1 }, 0, NULL, NULL, &ex));
    TKT_FAILS(tk_add_(tkt_ctx, ex, f), TK_ERR_INVALID_ARGUMENT, "expanded");
    /* clamp and where */
    TKT_FAILS(tk_clamp(tkt_ctx, f, NULL, &got), TK_ERR_INVALID_ARGUMENT, "opts");
    TKT_FAILS(tk_clamp(tkt_ctx, f, &(tk_clamp_opts){ 0 }, &got), TK_ERR_INVALID_ARGUMENT, "neither");
    TKT_FAILS(tk_where(tkt_ctx, NULL, f, f, &got), TK_ERR_INVALID_ARGUMENT, "cond");
    TKT_FAILS(tk_where(tkt_ctx, g, f, i, &got), TK_ERR_SHAPE, "tk_where");
    TKT_FAILS(tk_leaky_relu(tkt_ctx, f, 0.1, NULL), TK_ERR_INVALID_ARGUMENT, "out");
    ck_assert_ptr_null(got);
    TKT_RELEASE(f, g, i, e, ro, ex);
}
END_TEST

static Suite *elementwise_suite(void)
{
    Suite *s = suite_create("tensor_elementwise");
    TCase *tc = tkt_case("elementwise");
    tcase_add_test(tc, binary_matches_torch);
    tcase_add_test(tc, scalar_matches_torch);
    tcase_add_test(tc, unary_matches_torch);
    tcase_add_test(tc, bf16_dense_loops_match_torch);
    tcase_add_test(tc, activations_clamp_where);
    tcase_add_test(tc, thread_count_identity);
    tcase_add_test(tc, inplace_aliasing);
    tcase_add_test(tc, integer_corners);
    tcase_add_test(tc, profile_records_one_op_per_call);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(elementwise_suite)
