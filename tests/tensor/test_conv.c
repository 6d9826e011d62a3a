/* test_conv.c — conv2d, conv1d, conv_transpose2d, pooling, batch_norm,
 * group_norm and embedding against PyTorch (fixtures/fx_conv.py).
 *
 * Tolerances:
 *   - f32 convolutions on the stdlib kernels accumulate in f32: the error of a
 *     sum of K = C/groups·KH·KW products grows like √K, so rtol = atol = 2e-6·√K
 *     (values are O(1)); the plain loop (double) is well inside that.
 *   - f64 runs accumulate in double from the same (f32-representable) inputs
 *     as the f64 reference: 1e-12.
 *   - bf16 results are one rounding of an f32 sum: within 2 bf16 ulps (1/64).
 *   - f16 (and bf16 where no bf16 reference is kept) are compared with the f32
 *     op run on the same rounded inputs and rounded once: 1 ulp of the dtype.
 *   - max pooling picks an input element: exact. */
#include <math.h>
#include <string.h>

#include "harness.h"

/* ------------------------------------------------------------ helpers */

typedef enum { OP_CONV2D, OP_CONV1D, OP_CONVT } ConvKind;

static tk_conv_opts conv_opts_of(const char *c)
{
    tk_tensor *o = tkt_fx(c, "opts");
    int64_t v[9];
    TKT_OK(tk_to_data(tkt_ctx, o, v, sizeof v));
    tk_tensor_release(o);
    tk_conv_opts opts = { .stride = { v[0], v[1] }, .padding = { v[2], v[3] }, .dilation = { v[4], v[5] }, .groups = v[6],
                          .output_padding = { v[7], v[8] } };
    return opts;
}

static tk_status run_conv(ConvKind k, const tk_tensor *x, const tk_tensor *w, const tk_tensor *b, const tk_conv_opts *o, tk_tensor **out)
{
    switch (k) {
    case OP_CONV2D: return tk_conv2d(tkt_ctx, x, w, b, o, out);
    case OP_CONV1D: return tk_conv1d(tkt_ctx, x, w, b, o, out);
    default: return tk_conv_transpose2d(tkt_ctx, x, w, b, o, out);
    }
}

static tk_tensor *to(const tk_tensor *t, tk_dtype d)
{
    if (!t) return NULL;
    tk_tensor *r;
    TKT_OK(tk_to_dtype(tkt_ctx, t, d, &r));
    return r;
}

/* K of a convolution: the products summed per output (C/groups · kernel taps). */
static int64_t reduction_size(ConvKind k, const tk_tensor *w, const tk_conv_opts *o)
{
    int64_t taps = 1;
    for (int d = 2; d < tk_tensor_ndim(w); d++) taps *= tk_tensor_size(w, d);
    if (k == OP_CONVT) return tk_tensor_size(w, 0) / (o->groups ? o->groups : 1) * taps;
    return tk_tensor_size(w, 1) * taps;
}

/* The op in dtype d (f16 / bf16) against the f32 op on the same rounded inputs, rounded once. */
static void expect_half_consistent(ConvKind k, const char *c, tk_tensor *x, tk_tensor *w, tk_tensor *b, const tk_conv_opts *o,
                                   tk_dtype d)
{
    tk_tensor *xh = to(x, d), *wh = to(w, d), *bh = to(b, d), *got;
    tk_tensor *xf = to(xh, TK_DTYPE_F32), *wf = to(wh, TK_DTYPE_F32), *bf = to(bh, TK_DTYPE_F32), *ref32;
    TKT_OK(run_conv(k, xh, wh, bh, o, &got));
    TKT_OK(run_conv(k, xf, wf, bf, o, &ref32));
    tk_tensor *ref = to(ref32, d);
    double ulp = d == TK_DTYPE_F16 ? 1.0 / 1024 : 1.0 / 128;
    tkt_expect_close(got, ref, ulp, ulp * 1e-2, true, c);
    TKT_RELEASE(xh, wh, bh, got, xf, wf, bf, ref32, ref);
}

static void check_conv_cases(ConvKind k, const char *const *cases, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const char *c = cases[i];
        tk_conv_opts o = conv_opts_of(c);
        tk_tensor *x = tkt_fx(c, "x"), *w = tkt_fx(c, "w"), *b = tkt_fx_exists(c, "b") ? tkt_fx(c, "b") : NULL;
        tk_tensor *want = tkt_fx(c, "out"), *want64 = tkt_fx(c, "out64"), *got, *got64;
        double tol = 2e-6 * sqrt((double)reduction_size(k, w, &o));
        TKT_OK(run_conv(k, x, w, b, &o, &got));
        tkt_expect_close(got, want, tol, tol, true, c);
        tk_tensor *x64 = to(x, TK_DTYPE_F64), *w64 = to(w, TK_DTYPE_F64), *b64 = to(b, TK_DTYPE_F64);
        TKT_OK(run_conv(k, x64, w64, b64, &o, &got64));
        tkt_expect_close(got64, want64, 1e-12, 1e-12, true, c);
        if (tkt_fx_exists(c, "out_bf16")) {
            tk_tensor *xb = to(x, TK_DTYPE_BF16), *wb = to(w, TK_DTYPE_BF16), *bb = to(b, TK_DTYPE_BF16), *gotb;
            tk_tensor *wantb = tkt_fx(c, "out_bf16");
            TKT_OK(run_conv(k, xb, wb, bb, &o, &gotb));
            tkt_expect_close(gotb, wantb, 1.0 / 64, 1e-3, true, c);
            TKT_RELEASE(xb, wb, bb, gotb, wantb);
        } else {
            expect_half_consistent(k, c, x, w, b, &o, TK_DTYPE_BF16);
        }
        if (tk_tensor_numel(x) > 0) expect_half_consistent(k, c, x, w, b, &o, TK_DTYPE_F16);
        /* x as a non-contiguous view (NCHW over NHWC memory) gives the same bits */
        if (tkt_fx_exists(c, "x_nhwc")) {
            tk_tensor *xn = tkt_fx(c, "x_nhwc"), *xv, *gotv;
            TKT_OK(tk_permute(tkt_ctx, xn, (int[]){ 0, 3, 1, 2 }, &xv));
            ck_assert(!tk_tensor_is_contiguous(xv) || tk_tensor_numel(xv) <= 1 || tk_tensor_size(xv, 1) == 1);
            TKT_OK(run_conv(k, xv, w, b, &o, &gotv));
            tkt_expect_equal(gotv, got, c);
            TKT_RELEASE(xn, xv, gotv);
        }
        TKT_RELEASE(x, w, b, want, want64, got, got64, x64, w64, b64);
    }
}

/* ------------------------------------------------------------ convolutions */

START_TEST(conv2d_matches_torch)
{
    const char *cases[] = { "c2_resnet_3x3", "c2_resnet_3x3_s2", "c2_1x1",   "c2_1x1_s2", "c2_stem_7x7_s2", "c2_stem_uneven_pad",
                            "c2_depthwise",  "c2_depthwise_s2",  "c2_grouped", "c2_dilated", "c2_ragged",
                            "c2_uneven_stride", "c2_uneven_pad", "c2_no_pad_exact", "c2_empty_batch", "c2_grouped_wide",
                            "c2_grouped_dilated" };
    check_conv_cases(OP_CONV2D, cases, sizeof cases / sizeof *cases);
}
END_TEST

START_TEST(conv1d_matches_torch)
{
    const char *cases[] = { "c1_basic", "c1_dilated", "c1_depthwise", "c1_grouped" };
    check_conv_cases(OP_CONV1D, cases, sizeof cases / sizeof *cases);
}
END_TEST

START_TEST(conv_transpose2d_matches_torch)
{
    const char *cases[] = { "ct_s2_outpad", "ct_grouped", "ct_dilated", "ct_plain" };
    check_conv_cases(OP_CONVT, cases, sizeof cases / sizeof *cases);
}
END_TEST

/* NULL opts and a zero struct are PyTorch's defaults: c2_no_pad_exact uses them all. */
START_TEST(conv_default_opts)
{
    tk_tensor *x = tkt_fx("c2_no_pad_exact", "x"), *w = tkt_fx("c2_no_pad_exact", "w"), *b = tkt_fx("c2_no_pad_exact", "b");
    tk_tensor *want = tkt_fx("c2_no_pad_exact", "out"), *got1, *got2;
    tk_conv_opts zero = { 0 };
    TKT_OK(tk_conv2d(tkt_ctx, x, w, b, NULL, &got1));
    TKT_OK(tk_conv2d(tkt_ctx, x, w, b, &zero, &got2));
    ck_assert_int_eq(tk_tensor_size(got1, 2), 1);
    tkt_expect_close(got1, want, 1e-5, 1e-5, true, "NULL opts");
    tkt_expect_equal(got2, got1, "zero opts");
    TKT_RELEASE(x, w, b, want, got1, got2);
}
END_TEST

START_TEST(conv_errors)
{
    tk_tensor *x, *w, *wg, *b5, *xi, *wh, *x3, *out = NULL;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 2, 4, 5, 5 }, &x));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 6, 4, 3, 3 }, &w));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 6, 3, 3, 3 }, &wg));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 5 }, &b5));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I32, 4, (int64_t[]){ 2, 4, 5, 5 }, &xi));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F64, 4, (int64_t[]){ 6, 4, 3, 3 }, &wh));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 4, 5, 5 }, &x3));
    TKT_FAILS(tk_conv2d(tkt_ctx, NULL, w, NULL, NULL, &out), TK_ERR_INVALID_ARGUMENT, "x");
    ck_assert_ptr_null(out);
    TKT_FAILS(tk_conv2d(tkt_ctx, x3, w, NULL, NULL, &out), TK_ERR_SHAPE, "[4, 5, 5]");
    TKT_FAILS(tk_conv2d(tkt_ctx, xi, w, NULL, NULL, &out), TK_ERR_DTYPE, "i32");
    TKT_FAILS(tk_conv2d(tkt_ctx, x, wh, NULL, NULL, &out), TK_ERR_DTYPE, "f64");
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, b5, NULL, &out), TK_ERR_SHAPE, "bias [5]");
    TKT_FAILS(tk_conv2d(tkt_ctx, x, wg, NULL, NULL, &out), TK_ERR_SHAPE, "C/groups");
    tk_conv_opts g3 = { .groups = 3 };
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, NULL, &g3, &out), TK_ERR_SHAPE, "groups 3");
    tk_conv_opts neg = { .padding = { -1, 0 } };
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, NULL, &neg, &out), TK_ERR_INVALID_ARGUMENT, "negative");
    tk_conv_opts opad = { .output_padding = { 1, 0 } };
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, NULL, &opad, &out), TK_ERR_INVALID_ARGUMENT, "output_padding");
    tk_conv_opts dil = { .dilation = { 3, 3 } };   /* 7 taps over 5 rows */
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, NULL, &dil, &out), TK_ERR_SHAPE, "larger than the padded input");
    TKT_FAILS(tk_conv1d(tkt_ctx, x, w, NULL, NULL, &out), TK_ERR_SHAPE, "[N, C, L]");
    /* conv_transpose: w's first dim is x's channels; output_padding below stride or dilation */
    TKT_FAILS(tk_conv_transpose2d(tkt_ctx, x, w, NULL, NULL, &out), TK_ERR_SHAPE, "C = 4");
    tk_tensor *wt;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 4, 2, 3, 3 }, &wt));
    TKT_FAILS(tk_conv_transpose2d(tkt_ctx, x, wt, NULL, &opad, &out), TK_ERR_INVALID_ARGUMENT, "smaller than stride");
    tk_conv_opts bigpad = { .padding = { 9, 9 } };
    TKT_FAILS(tk_conv_transpose2d(tkt_ctx, x, wt, NULL, &bigpad, &out), TK_ERR_SHAPE, "padding 9");
    ck_assert_ptr_null(out);
    TKT_RELEASE(x, w, wg, b5, xi, wh, x3, wt);
}
END_TEST

/* ------------------------------------------------------------ pooling */

static tk_pool_opts pool_opts_of(const char *c)
{
    tk_tensor *o = tkt_fx(c, "opts");
    int64_t v[10];
    TKT_OK(tk_to_data(tkt_ctx, o, v, sizeof v));
    tk_tensor_release(o);
    tk_pool_opts p = { { v[0], v[1] }, { v[2], v[3] }, { v[4], v[5] }, { v[6], v[7] }, v[8] != 0, v[9] != 0 };
    return p;
}

START_TEST(pool_matches_torch)
{
    const char *cases[] = { "mp_resnet", "mp_ceil", "mp_ceil_pad", "mp_dilated", "mp_chw",
                            "ap_resnet_incl", "ap_resnet_excl", "ap_ceil_incl", "ap_ceil_excl", "ap_rect" };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *c = cases[i];
        bool max = c[0] == 'm';
        tk_status (*pool)(tk_context *, const tk_tensor *, const tk_pool_opts *, tk_tensor **) = max ? tk_max_pool2d : tk_avg_pool2d;
        tk_pool_opts o = pool_opts_of(c);
        tk_tensor *x = tkt_fx(c, "x"), *want = tkt_fx(c, "out"), *want64 = tkt_fx(c, "out64"), *wantb = tkt_fx(c, "out_bf16");
        tk_tensor *got, *got64, *gotb, *goth;
        TKT_OK(pool(tkt_ctx, x, &o, &got));
        tkt_expect_close(got, want, max ? 0 : 1e-6, max ? 0 : 1e-6, true, c);
        tk_tensor *x64 = to(x, TK_DTYPE_F64), *xb = to(x, TK_DTYPE_BF16), *xh = to(x, TK_DTYPE_F16);
        TKT_OK(pool(tkt_ctx, x64, &o, &got64));
        tkt_expect_close(got64, want64, 1e-13, 1e-13, true, c);
        TKT_OK(pool(tkt_ctx, xb, &o, &gotb));
        tkt_expect_close(gotb, wantb, max ? 0 : 1.0 / 128, max ? 0 : 1e-3, true, c);
        /* f16: the f32 pool of the same values, rounded once */
        tk_tensor *xhf = to(xh, TK_DTYPE_F32), *refh32;
        TKT_OK(pool(tkt_ctx, xh, &o, &goth));
        TKT_OK(pool(tkt_ctx, xhf, &o, &refh32));
        tk_tensor *refh = to(refh32, TK_DTYPE_F16);
        tkt_expect_close(goth, refh, 1.0 / 1024, 1e-4, true, c);
        if (tk_tensor_ndim(x) == 4) {   /* a non-contiguous view gives the same bits */
            tk_tensor *xn = tkt_fx(c, "x_nhwc"), *xv, *gotv;
            TKT_OK(tk_permute(tkt_ctx, xn, (int[]){ 0, 3, 1, 2 }, &xv));
            TKT_OK(pool(tkt_ctx, xv, &o, &gotv));
            tkt_expect_equal(gotv, got, c);
            TKT_RELEASE(xn, xv, gotv);
        }
        TKT_RELEASE(x, want, want64, wantb, got, got64, gotb, goth, x64, xb, xh, xhf, refh32, refh);
    }
}
END_TEST

START_TEST(adaptive_pool_matches_torch)
{
    const char *cases[] = { "aap_13_to_5x3", "aap_global", "aap_up", "amp_13x11_to_4x5", "amp_chw" };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *c = cases[i];
        bool max = c[1] == 'm';
        tk_tensor *x = tkt_fx(c, "x"), *want = tkt_fx(c, "out"), *want64 = tkt_fx(c, "out64"), *sz = tkt_fx(c, "size"), *got, *got64;
        int64_t s[2];
        TKT_OK(tk_to_data(tkt_ctx, sz, s, sizeof s));
        tk_tensor *x64 = to(x, TK_DTYPE_F64);
        if (max) {
            TKT_OK(tk_adaptive_max_pool2d(tkt_ctx, x, s[0], s[1], &got));
            TKT_OK(tk_adaptive_max_pool2d(tkt_ctx, x64, s[0], s[1], &got64));
        } else {
            TKT_OK(tk_adaptive_avg_pool2d(tkt_ctx, x, s[0], s[1], &got));
            TKT_OK(tk_adaptive_avg_pool2d(tkt_ctx, x64, s[0], s[1], &got64));
        }
        tkt_expect_close(got, want, max ? 0 : 1e-6, max ? 0 : 1e-6, true, c);
        tkt_expect_close(got64, want64, 1e-13, 1e-13, true, c);
        TKT_RELEASE(x, want, want64, sz, got, got64, x64);
    }
}
END_TEST

START_TEST(pool_errors)
{
    tk_tensor *x, *x2, *xi, *out = NULL;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, 2, 5, 5 }, &x));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 5, 5 }, &x2));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 4, (int64_t[]){ 1, 2, 5, 5 }, &xi));
    tk_pool_opts k3 = { .kernel_size = { 3, 3 } }, k0 = { 0 }, big = { .kernel_size = { 7, 7 } };
    tk_pool_opts badpad = { .kernel_size = { 3, 3 }, .padding = { 2, 0 } }, avgdil = { .kernel_size = { 2, 2 }, .dilation = { 2, 2 } };
    TKT_FAILS(tk_max_pool2d(tkt_ctx, x, NULL, &out), TK_ERR_INVALID_ARGUMENT, "kernel_size");
    ck_assert_ptr_null(out);
    TKT_FAILS(tk_max_pool2d(tkt_ctx, x2, &k3, &out), TK_ERR_SHAPE, "[5, 5]");
    TKT_FAILS(tk_avg_pool2d(tkt_ctx, xi, &k3, &out), TK_ERR_DTYPE, "i64");
    TKT_FAILS(tk_max_pool2d(tkt_ctx, x, &k0, &out), TK_ERR_INVALID_ARGUMENT, "kernel_size 0");
    TKT_FAILS(tk_max_pool2d(tkt_ctx, x, &big, &out), TK_ERR_SHAPE, "larger than x [1, 2, 5, 5]");
    TKT_FAILS(tk_avg_pool2d(tkt_ctx, x, &badpad, &out), TK_ERR_INVALID_ARGUMENT, "half");
    TKT_FAILS(tk_avg_pool2d(tkt_ctx, x, &avgdil, &out), TK_ERR_INVALID_ARGUMENT, "dilation");
    TKT_FAILS(tk_adaptive_avg_pool2d(tkt_ctx, x, -1, 2, &out), TK_ERR_INVALID_ARGUMENT, "negative");
    TKT_FAILS(tk_adaptive_max_pool2d(tkt_ctx, NULL, 1, 1, &out), TK_ERR_INVALID_ARGUMENT, "x");
    ck_assert_ptr_null(out);
    TKT_RELEASE(x, x2, xi);
}
END_TEST

/* ------------------------------------------------------------ batch_norm, group_norm */

START_TEST(batch_norm_matches_torch)
{
    const char *cases[] = { "bn_4d", "bn_2d", "bn_3d" };
    for (unsigned i = 0; i < 3; i++) {
        const char *c = cases[i];
        tk_tensor *x = tkt_fx(c, "x"), *m = tkt_fx(c, "mean"), *v = tkt_fx(c, "var"), *e = tkt_fx(c, "eps");
        tk_tensor *w = tkt_fx_exists(c, "w") ? tkt_fx(c, "w") : NULL, *b = tkt_fx_exists(c, "b") ? tkt_fx(c, "b") : NULL;
        tk_tensor *want = tkt_fx(c, "out"), *want64 = tkt_fx(c, "out64"), *wantb = tkt_fx(c, "out_bf16"), *got, *got64, *gotb;
        double eps;
        TKT_OK(tk_item(tkt_ctx, e, NULL, &eps));
        TKT_OK(tk_batch_norm(tkt_ctx, x, m, v, w, b, eps, &got));
        tkt_expect_close(got, want, 1e-5, 1e-5, true, c);   /* x·α + β in f32 */
        tk_tensor *x64 = to(x, TK_DTYPE_F64), *xb = to(x, TK_DTYPE_BF16);
        TKT_OK(tk_batch_norm(tkt_ctx, x64, m, v, w, b, eps, &got64));
        tkt_expect_close(got64, want64, 1e-12, 1e-12, true, c);
        TKT_OK(tk_batch_norm(tkt_ctx, xb, m, v, w, b, eps, &gotb));
        tkt_expect_close(gotb, wantb, 1.0 / 64, 1e-2, true, c);
        TKT_RELEASE(x, m, v, e, w, b, want, want64, wantb, got, got64, gotb, x64, xb);
    }
}
END_TEST

START_TEST(group_norm_matches_torch)
{
    const char *cases[] = { "gn_4d", "gn_one_group", "gn_per_channel", "gn_big" };
    for (unsigned i = 0; i < 4; i++) {
        const char *c = cases[i];
        tk_tensor *x = tkt_fx(c, "x"), *gt = tkt_fx(c, "groups");
        tk_tensor *w = tkt_fx_exists(c, "w") ? tkt_fx(c, "w") : NULL, *b = tkt_fx_exists(c, "b") ? tkt_fx(c, "b") : NULL;
        tk_tensor *want = tkt_fx(c, "out"), *want64 = tkt_fx(c, "out64"), *got, *got64;
        double g;
        TKT_OK(tk_item(tkt_ctx, gt, NULL, &g));
        TKT_OK(tk_group_norm(tkt_ctx, x, (int64_t)g, w, b, 1e-5, &got));
        tkt_expect_close(got, want, 1e-5, 1e-5, true, c);
        tk_tensor *x64 = to(x, TK_DTYPE_F64);
        TKT_OK(tk_group_norm(tkt_ctx, x64, (int64_t)g, w, b, 1e-5, &got64));
        tkt_expect_close(got64, want64, 1e-10, 1e-10, true, c);   /* one-pass vs two-pass statistics */
        TKT_RELEASE(x, gt, w, b, want, want64, got, got64, x64);
    }
}
END_TEST

START_TEST(norm_errors)
{
    tk_tensor *x, *c5, *c4, *x1, *ci, *out = NULL;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 2, 4, 3 }, &x));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 5 }, &c5));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &c4));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &x1));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I32, 1, (int64_t[]){ 4 }, &ci));
    TKT_FAILS(tk_batch_norm(tkt_ctx, x, c5, c4, NULL, NULL, 1e-5, &out), TK_ERR_SHAPE, "running_mean [5]");
    ck_assert_ptr_null(out);
    TKT_FAILS(tk_batch_norm(tkt_ctx, x, NULL, c4, NULL, NULL, 1e-5, &out), TK_ERR_INVALID_ARGUMENT, "running_mean");
    TKT_FAILS(tk_batch_norm(tkt_ctx, x, c4, c4, ci, NULL, 1e-5, &out), TK_ERR_DTYPE, "weight");
    TKT_FAILS(tk_batch_norm(tkt_ctx, x1, c4, c4, NULL, NULL, 1e-5, &out), TK_ERR_SHAPE, "[N, C, ...]");
    TKT_FAILS(tk_batch_norm(tkt_ctx, x, c4, c4, NULL, NULL, -1, &out), TK_ERR_INVALID_ARGUMENT, "eps");
    TKT_FAILS(tk_group_norm(tkt_ctx, x, 3, NULL, NULL, 1e-5, &out), TK_ERR_SHAPE, "groups 3");
    TKT_FAILS(tk_group_norm(tkt_ctx, x, 0, NULL, NULL, 1e-5, &out), TK_ERR_SHAPE, "groups 0");
    TKT_FAILS(tk_group_norm(tkt_ctx, x, 2, c5, NULL, 1e-5, &out), TK_ERR_SHAPE, "weight [5]");
    ck_assert_ptr_null(out);
    TKT_RELEASE(x, c5, c4, x1, ci);
}
END_TEST

/* ------------------------------------------------------------ embedding */

START_TEST(embedding_matches_torch)
{
    const char *cases[] = { "emb_2d_i64", "emb_1d_i32", "emb_0d" };
    for (unsigned i = 0; i < 3; i++) {
        tk_tensor *w = tkt_fx(cases[i], "w"), *idx = tkt_fx(cases[i], "idx"), *want = tkt_fx(cases[i], "out"), *got;
        TKT_OK(tk_embedding(tkt_ctx, w, idx, &got));
        tkt_expect_equal(got, want, cases[i]);
        TKT_RELEASE(w, idx, want, got);
    }
    /* transposed indices: the view's order, not the storage's */
    tk_tensor *w = tkt_fx("emb_2d_i64", "w"), *idx = tkt_fx("emb_2d_i64", "idx"), *it, *itc, *a, *b;
    TKT_OK(tk_transpose(tkt_ctx, idx, 0, 1, &it));
    TKT_OK(tk_clone(tkt_ctx, it, &itc));
    TKT_OK(tk_embedding(tkt_ctx, w, it, &a));
    TKT_OK(tk_embedding(tkt_ctx, w, itc, &b));
    tkt_expect_equal(a, b, "transposed indices");
    TKT_RELEASE(w, idx, it, itc, a, b);
}
END_TEST

START_TEST(embedding_errors)
{
    tk_tensor *w = tkt_fx("emb_2d_i64", "w"), *bad, *f, *out = NULL;
    int64_t v[6] = { 1, 2, 3, 4, 11, 0 };
    TKT_OK(tk_from_data(tkt_ctx, v, TK_DTYPE_I64, 2, (int64_t[]){ 2, 3 }, &bad));
    TKT_FAILS(tk_embedding(tkt_ctx, w, bad, &out), TK_ERR_INDEX, "indices[1, 1] is 11");
    ck_assert_ptr_null(out);
    int32_t neg[2] = { 0, -1 };
    tk_tensor *bneg;
    TKT_OK(tk_from_data(tkt_ctx, neg, TK_DTYPE_I32, 1, (int64_t[]){ 2 }, &bneg));
    TKT_FAILS(tk_embedding(tkt_ctx, w, bneg, &out), TK_ERR_INDEX, "is -1");
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 2 }, &f));
    TKT_FAILS(tk_embedding(tkt_ctx, w, f, &out), TK_ERR_DTYPE, "f32");
    TKT_FAILS(tk_embedding(tkt_ctx, f, bad, &out), TK_ERR_SHAPE, "[V, D]");
    ck_assert_ptr_null(out);
    TKT_RELEASE(w, bad, bneg, f);
}
END_TEST

/* ------------------------------------------------------------ threads, profile */

START_TEST(thread_identity)
{
    const char *convs[] = { "c2_resnet_3x3", "c2_grouped" };   /* the kernel and the plain loop */
    for (int i = 0; i < 2; i++) {
        tk_conv_opts o = conv_opts_of(convs[i]);
        tk_tensor *x = tkt_fx(convs[i], "x"), *w = tkt_fx(convs[i], "w"), *b = tkt_fx(convs[i], "b"), *one, *two;
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, b, &o, &one));
        TKT_OK(tk_context_set_threads(tkt_ctx, 2));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, b, &o, &two));
        tkt_expect_equal(one, two, convs[i]);
        TKT_RELEASE(x, w, b, one, two);
    }
    tk_pool_opts o = pool_opts_of("ap_resnet_excl");
    tk_tensor *x = tkt_fx("gn_big", "x"), *one, *two, *g1, *g2;
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_avg_pool2d(tkt_ctx, x, &o, &one));
    TKT_OK(tk_group_norm(tkt_ctx, x, 8, NULL, NULL, 1e-5, &g1));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_avg_pool2d(tkt_ctx, x, &o, &two));
    TKT_OK(tk_group_norm(tkt_ctx, x, 8, NULL, NULL, 1e-5, &g2));
    tkt_expect_equal(one, two, "avg_pool2d on 1 and 2 threads");
    tkt_expect_equal(g1, g2, "group_norm on 1 and 2 threads");
    TKT_RELEASE(x, one, two, g1, g2);
}
END_TEST

START_TEST(profile_records_ops)
{
    tk_profile_enable(tkt_ctx, true);
    tk_tensor *x = tkt_fx("c2_ragged", "x"), *w = tkt_fx("c2_ragged", "w"), *y, *p;
    tk_pool_opts po = { .kernel_size = { 2, 2 } };
    TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, NULL, &y));
    TKT_OK(tk_max_pool2d(tkt_ctx, y, &po, &p));
    tk_profile_record recs[32];
    size_t n = tk_profile_records(tkt_ctx, recs, 32);
    bool conv = false, pool = false;
    for (size_t i = 0; i < n && i < 32; i++) {
        conv |= strcmp(recs[i].name, "tk_conv2d") == 0 && strcmp(recs[i].kind, "op") == 0;
        pool |= strcmp(recs[i].name, "tk_max_pool2d") == 0;
    }
    ck_assert_msg(conv && pool, "tk_conv2d and tk_max_pool2d are in the profile");
    tk_profile_enable(tkt_ctx, false);
    TKT_RELEASE(x, w, y, p);
}
END_TEST

/* A weight marked constant keeps its HWIO (HWC) layout: the same result, the
 * layout not redone (a write to the weight is not seen until it is marked again). */
START_TEST(marked_weight_layout_is_kept)
{
    for (int dw = 0; dw < 2; dw++) {
        tk_tensor *x, *w, *y0, *y1, *y2, *y3, *n;
        int64_t oc = dw ? 8 : 16, ic = dw ? 1 : 8;
        tk_conv_opts o = { .padding = { 1, 1 }, .groups = dw ? 8 : 1 };
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ 2, 8, 9, 9 }, 1, &x));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ oc, ic, 3, 3 }, 2, &w));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y0));
        TKT_OK(tk_mark_weight(tkt_ctx, w));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y1));
        tkt_expect_equal(y1, y0, "marked weight");
        TKT_OK(tk_fill_(tkt_ctx, w, 0.0));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y2));
        tkt_expect_equal(y2, y0, "the kept layout, not the new values");
        TKT_OK(tk_mark_weight(tkt_ctx, w));
        TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y3));
        double mx;
        TKT_OK(tk_reduce(tkt_ctx, TK_NORM, y3, &(tk_reduce_opts){ .p = INFINITY }, &n));
        TKT_OK(tk_item(tkt_ctx, n, NULL, &mx));
        ck_assert_double_eq(mx, 0.0);
        TKT_RELEASE(x, w, y0, y1, y2, y3, n);
    }
}
END_TEST

static Suite *conv_suite(void)
{
    Suite *s = suite_create("tensor_conv");
    TCase *c = tkt_case("conv");
    tcase_add_test(c, conv2d_matches_torch);
    tcase_add_test(c, conv1d_matches_torch);
    tcase_add_test(c, conv_transpose2d_matches_torch);
    tcase_add_test(c, conv_default_opts);
    tcase_add_test(c, conv_errors);
    tcase_add_test(c, pool_matches_torch);
    tcase_add_test(c, adaptive_pool_matches_torch);
    tcase_add_test(c, pool_errors);
    tcase_add_test(c, batch_norm_matches_torch);
    tcase_add_test(c, group_norm_matches_torch);
    tcase_add_test(c, norm_errors);
    tcase_add_test(c, embedding_matches_torch);
    tcase_add_test(c, embedding_errors);
    tcase_add_test(c, thread_identity);
    tcase_add_test(c, profile_records_ops);
    tcase_add_test(c, marked_weight_layout_is_kept);
    suite_add_tcase(s, c);
    return s;
}

TKT_MAIN(conv_suite)
