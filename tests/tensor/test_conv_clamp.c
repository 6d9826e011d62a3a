/* test_conv_clamp.c — tk_conv_opts.clamp (relu6, F.hardtanh, ONNX Clip) on every
 * convolution path: the stdlib kernels' store (dense implicit gemm with 32- and
 * 64-channel chunks, 1×1, depthwise 3×3 and 5×5 with dividing and ragged channel
 * blocks, the image stem), the im2col-gemm stem and the plain loop (dilated,
 * conv1d grouped, conv_transpose2d), which clamp after.
 *
 * Each case checks, in f32 and bf16:
 *   - against a double loop (independent of the kernels): relu/clamp applied in
 *     double to the double sum; f32 within 2e-6·√K (relative and absolute, K the
 *     products per output, the f32 accumulation error of values of size √K), bf16
 *     within one rounding of the result (rtol 2^-7) plus that;
 *   - the fused clamp is bit for bit the unfused result clamped afterwards
 *     (tk_clamp_): clamping and rounding to the dtype commute, so any difference
 *     is an element the kernel clamped wrongly;
 *   - an open clamp (±inf) and no clamp give the same bits, with and without relu
 *     (the relu and no-activation results are unchanged by the clamp's code);
 *   - a NaN in x stays NaN through the clamp in every output that reads it;
 *   - 1 and 2 threads give the same bits.
 * Bounds: relu6 [0, 6] and [-s/4, s/2] with s = √K (the outputs' scale, inputs
 * N(0, 1)), so both sides clip and values pass between; relu with the clamp;
 * [s/2, -s/4] (min > max gives max everywhere, as torch.clamp and ONNX Clip). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef enum { CONV2D, CONV1D, CONVT } Op;

typedef struct {
    const char *what;
    Op op;
    int64_t n, c, h, w, oc, k, stride, pad, groups, dil;
} Case;

static const Case cases[] = {
    { "dense 3x3, C 20 (32-channel chunks)", CONV2D, 2, 20, 9, 11, 17, 3, 1, 1, 1, 1 },
    { "dense 3x3 stride 2, C 70 OC 65 (ragged 64-chunks and blocks)", CONV2D, 1, 70, 13, 11, 65, 3, 2, 1, 1, 1 },
    { "1x1 (the 1x1 kernel)", CONV2D, 2, 24, 7, 5, 40, 1, 1, 0, 1, 1 },
    { "depthwise 3x3, C 48 (CB 48)", CONV2D, 2, 48, 10, 7, 48, 3, 1, 1, 48, 1 },
    { "depthwise 3x3 stride 2, C 17 (CB 16, ragged)", CONV2D, 1, 17, 11, 12, 17, 3, 2, 1, 17, 1 },
    { "depthwise 5x5 (the general-window loop)", CONV2D, 1, 32, 9, 10, 32, 5, 1, 2, 32, 1 },
    { "stem: 3 channels, 3x3 stride 2 (the stem kernel)", CONV2D, 1, 3, 23, 19, 16, 3, 2, 1, 1, 1 },
    { "stem: 4 channels, 8x8 stride 2 (im2col + gemm: taller than the stem kernel's 7 rows)", CONV2D, 1, 4, 23, 19, 16, 8, 2, 1, 1, 1 },
    { "dilated 3x3 (the plain loop)", CONV2D, 1, 5, 9, 8, 6, 3, 1, 2, 1, 2 },
    { "conv1d grouped (the plain loop)", CONV1D, 2, 6, 1, 17, 9, 3, 1, 1, 3, 1 },
    { "conv_transpose2d stride 2 (its loop)", CONVT, 1, 6, 5, 6, 4, 3, 2, 1, 1, 1 },
};
#define NCASES (sizeof cases / sizeof cases[0])

static tk_tensor *randn(int ndim, const int64_t *shape, uint64_t seed)
{
    tk_tensor *t;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, ndim, shape, seed, &t));
    return t;
}

static tk_tensor *to(const tk_tensor *t, tk_dtype d)
{
    tk_tensor *r;
    TKT_OK(tk_to_dtype(tkt_ctx, t, d, &r));
    return r;
}

static tk_conv_opts opts_of(const Case *c)
{
    tk_conv_opts o = { .stride = { c->stride, c->stride }, .padding = { c->pad, c->pad }, .dilation = { c->dil, c->dil },
                       .groups = c->groups };
    return o;
}

static tk_status run(const Case *c, const tk_tensor *x, const tk_tensor *w, const tk_tensor *b, const tk_conv_opts *o, tk_tensor **y)
{
    if (c->op == CONV1D) return tk_conv1d(tkt_ctx, x, w, b, o, y);
    if (c->op == CONVT) return tk_conv_transpose2d(tkt_ctx, x, w, b, o, y);
    return tk_conv2d(tkt_ctx, x, w, b, o, y);
}

static void make_inputs(const Case *c, unsigned seed, tk_tensor **x, tk_tensor **w, tk_tensor **b)
{
    if (c->op == CONV1D) {
        *x = randn(3, (int64_t[]){ c->n, c->c, c->w }, seed);
        *w = randn(3, (int64_t[]){ c->oc, c->c / c->groups, c->k }, seed + 1);
    } else if (c->op == CONVT) {
        *x = randn(4, (int64_t[]){ c->n, c->c, c->h, c->w }, seed);
        *w = randn(4, (int64_t[]){ c->c, c->oc / c->groups, c->k, c->k }, seed + 1);
    } else {
        *x = randn(4, (int64_t[]){ c->n, c->c, c->h, c->w }, seed);
        *w = randn(4, (int64_t[]){ c->oc, c->c / c->groups, c->k, c->k }, seed + 1);
    }
    *b = randn(1, (int64_t[]){ c->oc }, seed + 2);
}

/* products summed per output */
static int64_t reduction_size(const Case *c)
{
    int64_t taps = c->op == CONV1D ? c->k : c->k * c->k;
    return c->c / c->groups * taps;   /* conv_transpose: at most that many per output */
}

static double *as_doubles(const tk_tensor *t)
{
    tk_tensor *f = to(t, TK_DTYPE_F32), *fc;
    TKT_OK(tk_contiguous(tkt_ctx, f, &fc));
    int64_t n = tk_tensor_numel(fc);
    float *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
    ck_assert(v && d);
    TKT_OK(tk_to_data(tkt_ctx, fc, v, (size_t)n * sizeof *v));
    for (int64_t i = 0; i < n; i++) d[i] = v[i];
    free(v);
    TKT_RELEASE(f, fc);
    return d;
}

static double activate(double y, const tk_conv_opts *o)
{
    if (o->relu) y = y > 0 ? y : 0;
    if (o->clamp && !isnan(y)) y = y < o->clamp_min ? o->clamp_min : y;
    if (o->clamp && !isnan(y)) y = y > o->clamp_max ? o->clamp_max : y;
    return y;
}

/* The conv2d / conv1d (H = 1) in double: x [N, C, H, W], w [OC, C/g, KH, KW], symmetric padding. */
static tk_tensor *reference(const Case *c, const tk_tensor *x, const tk_tensor *w, const tk_tensor *b, const tk_conv_opts *o,
                            const tk_tensor *like)
{
    double *xd = as_doubles(x), *wd = as_doubles(w), *bd = as_doubles(b);
    int64_t kh = c->op == CONV1D ? 1 : c->k, kw = c->k, h = c->op == CONV1D ? 1 : c->h, pad_h = c->op == CONV1D ? 0 : c->pad;
    int64_t oh = (h + 2 * pad_h - c->dil * (kh - 1) - 1) / (c->op == CONV1D ? 1 : c->stride) + 1;
    int64_t ow = (c->w + 2 * c->pad - c->dil * (kw - 1) - 1) / c->stride + 1, cg = c->c / c->groups, og = c->oc / c->groups;
    int64_t total = c->n * c->oc * oh * ow;
    float *y = malloc((size_t)total * sizeof *y);
    ck_assert(y);
    for (int64_t n = 0; n < c->n; n++)
        for (int64_t oc = 0; oc < c->oc; oc++)
            for (int64_t i = 0; i < oh; i++)
                for (int64_t j = 0; j < ow; j++) {
                    double s = bd[oc];
                    for (int64_t ci = 0; ci < cg; ci++)
                        for (int64_t a = 0; a < kh; a++)
                            for (int64_t e = 0; e < kw; e++) {
                                int64_t ih = i * (c->op == CONV1D ? 1 : c->stride) - pad_h + a * c->dil;
                                int64_t iw = j * c->stride - c->pad + e * c->dil;
                                if (ih < 0 || ih >= h || iw < 0 || iw >= c->w) continue;
                                s += xd[((n * c->c + oc / og * cg + ci) * h + ih) * c->w + iw] * wd[((oc * cg + ci) * kh + a) * kw + e];
                            }
                    y[((n * c->oc + oc) * oh + i) * ow + j] = (float)activate(s, o);
                }
    tk_tensor *r;
    TKT_OK(tk_from_data(tkt_ctx, y, TK_DTYPE_F32, tk_tensor_ndim(like), tk_tensor_shape(like), &r));
    ck_assert_int_eq(tk_tensor_numel(r), total);
    free(xd), free(wd), free(bd), free(y);
    return r;
}

/* The bounds of variant v: relu6, a window around 0 of the outputs' scale, relu
 * with that window, and that window reversed (min > max: every element is max). */
#define NVARIANTS 4
static tk_conv_opts with_clamp(tk_conv_opts o, const Case *c, int v)
{
    float s = (float)sqrt((double)reduction_size(c));
    o.clamp = true;
    o.relu = v == 2;
    o.clamp_min = v == 0 ? 0.0f : v == 3 ? s / 2 : -s / 4;
    o.clamp_max = v == 0 ? 6.0f : v == 3 ? -s / 4 : s / 2;
    return o;
}

START_TEST(clamp_matches_double_loop_on_every_path)
{
    const Case *c = &cases[_i];
    tk_tensor *x, *w, *b;
    make_inputs(c, 100 + 10 * (unsigned)_i, &x, &w, &b);
    double k = (double)reduction_size(c);
    for (int bf = 0; bf < 2; bf++) {
        tk_dtype d = bf ? TK_DTYPE_BF16 : TK_DTYPE_F32;
        tk_tensor *xd = to(x, d), *wdt = to(w, d), *bdt = to(b, d);
        for (int v = 0; v < NVARIANTS; v++) {
            tk_conv_opts o = with_clamp(opts_of(c), c, v);
            tk_tensor *y = NULL;
            TKT_OK(run(c, xd, wdt, bdt, &o, &y));
            char label[200];
            snprintf(label, sizeof label, "%s, %s, clamp [%g, %g]%s", c->what, bf ? "bf16" : "f32", o.clamp_min, o.clamp_max,
                     o.relu ? " after relu" : "");
            if (c->op != CONVT) {   /* conv_transpose's values are test_conv's; its clamp is checked below */
                tk_tensor *want = reference(c, xd, wdt, bdt, &o, y), *yf = to(y, TK_DTYPE_F32);
                tkt_expect_close(yf, want, bf ? 1.0 / 128 + 2e-6 * sqrt(k) : 2e-6 * sqrt(k), 2e-6 * sqrt(k), true, label);
                TKT_RELEASE(want, yf);
            }
            /* the fused clamp = the unfused result clamped after, bit for bit */
            tk_conv_opts plain = o;
            plain.clamp = false;
            tk_tensor *after = NULL;
            TKT_OK(run(c, xd, wdt, bdt, &plain, &after));
            TKT_OK(tk_clamp_(tkt_ctx, after, &(tk_clamp_opts){ .has_min = true, .min = o.clamp_min, .has_max = true, .max = o.clamp_max }));
            tkt_expect_equal(y, after, label);
            TKT_RELEASE(y, after);
        }
        TKT_RELEASE(xd, wdt, bdt);
    }
    TKT_RELEASE(x, w, b);
}
END_TEST

/* relu and no activation keep their bits: an open clamp (±inf) changes nothing. */
START_TEST(open_clamp_keeps_relu_and_identity_bits)
{
    const Case *c = &cases[_i];
    tk_tensor *x, *w, *b;
    make_inputs(c, 200 + 10 * (unsigned)_i, &x, &w, &b);
    for (int bf = 0; bf < 2; bf++) {
        tk_dtype d = bf ? TK_DTYPE_BF16 : TK_DTYPE_F32;
        tk_tensor *xd = to(x, d), *wdt = to(w, d), *bdt = to(b, d);
        for (int relu = 0; relu < 2; relu++) {
            tk_conv_opts o = opts_of(c), open = o;
            o.relu = open.relu = relu;
            open.clamp = true, open.clamp_min = -INFINITY, open.clamp_max = INFINITY;
            tk_tensor *y0 = NULL, *y1 = NULL;
            TKT_OK(run(c, xd, wdt, bdt, &o, &y0));
            TKT_OK(run(c, xd, wdt, bdt, &open, &y1));
            char label[200];
            snprintf(label, sizeof label, "%s, %s, relu %d: clamp [-inf, inf]", c->what, bf ? "bf16" : "f32", relu);
            tkt_expect_equal(y1, y0, label);
            TKT_RELEASE(y0, y1);
        }
        TKT_RELEASE(xd, wdt, bdt);
    }
    TKT_RELEASE(x, w, b);
}
END_TEST

/* A NaN in x: every output whose window reads it is NaN after the clamp (ONNX
 * Clip; relu would make it 0), the others are the double loop's. */
START_TEST(nan_stays_nan_through_the_clamp)
{
    const Case *c = &cases[_i];
    if (c->op == CONVT) return;   /* no double loop here for the transpose */
    tk_tensor *x, *w, *b;
    make_inputs(c, 300 + 10 * (unsigned)_i, &x, &w, &b);
    tk_tensor *xc;
    TKT_OK(tk_contiguous(tkt_ctx, x, &xc));
    float *xv = tk_tensor_data(xc);
    int64_t hw = (c->op == CONV1D ? 1 : c->h) * c->w;
    xv[hw / 2] = NAN;                       /* channel 0 of image 0, mid-image */
    xv[(c->c - 1) * hw + hw - 1] = NAN;     /* the last channel's last pixel */
    double k = (double)reduction_size(c);
    for (int bf = 0; bf < 2; bf++) {
        tk_dtype d = bf ? TK_DTYPE_BF16 : TK_DTYPE_F32;
        tk_tensor *xd = to(xc, d), *wdt = to(w, d), *bdt = to(b, d), *y = NULL;
        tk_conv_opts o = with_clamp(opts_of(c), c, 1);
        TKT_OK(run(c, xd, wdt, bdt, &o, &y));
        tk_tensor *want = reference(c, xd, wdt, bdt, &o, y), *yf = to(y, TK_DTYPE_F32), *nans = NULL;
        char label[200];
        snprintf(label, sizeof label, "%s, %s, NaN in x, clamp [%g, %g]", c->what, bf ? "bf16" : "f32", o.clamp_min, o.clamp_max);
        tkt_expect_close(yf, want, bf ? 1.0 / 128 + 2e-6 * sqrt(k) : 2e-6 * sqrt(k), 2e-6 * sqrt(k), true, label);   /* NaN matches NaN only */
        TKT_OK(tk_unary(tkt_ctx, TK_ISNAN, want, &nans));
        double count;
        tk_tensor *sum = NULL;
        TKT_OK(tk_sum(tkt_ctx, nans, NULL, &sum));
        TKT_OK(tk_item(tkt_ctx, sum, NULL, &count));
        ck_assert_msg(count >= 1, "%s: the reference has no NaN to check", label);
        TKT_RELEASE(xd, wdt, bdt, y, want, yf, nans, sum);
    }
    TKT_RELEASE(x, w, b, xc);
}
END_TEST

START_TEST(clamp_same_bits_on_1_and_2_threads)
{
    const Case *c = &cases[_i];
    tk_tensor *x, *w, *b;
    make_inputs(c, 400 + 10 * (unsigned)_i, &x, &w, &b);
    for (int bf = 0; bf < 2; bf++) {
        tk_dtype d = bf ? TK_DTYPE_BF16 : TK_DTYPE_F32;
        tk_tensor *xd = to(x, d), *wdt = to(w, d), *bdt = to(b, d), *one = NULL, *two = NULL;
        tk_conv_opts o = with_clamp(opts_of(c), c, 1);
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(run(c, xd, wdt, bdt, &o, &one));
        TKT_OK(tk_context_set_threads(tkt_ctx, 2));
        TKT_OK(run(c, xd, wdt, bdt, &o, &two));
        tkt_expect_equal(one, two, c->what);
        TKT_RELEASE(xd, wdt, bdt, one, two);
    }
    TKT_RELEASE(x, w, b);
}
END_TEST

START_TEST(clamp_errors)
{
    tk_tensor *x = randn(4, (int64_t[]){ 1, 2, 5, 5 }, 1), *w = randn(4, (int64_t[]){ 3, 2, 3, 3 }, 2), *y = NULL;
    tk_conv_opts o = { .clamp = true, .clamp_min = NAN, .clamp_max = 6 };
    TKT_FAILS(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y), TK_ERR_INVALID_ARGUMENT, "clamp");
    ck_assert_ptr_null(y);
    o.clamp_min = 0, o.clamp_max = NAN;
    tk_tensor *wt = randn(4, (int64_t[]){ 2, 3, 3, 3 }, 3);
    TKT_FAILS(tk_conv_transpose2d(tkt_ctx, x, wt, NULL, &o, &y), TK_ERR_INVALID_ARGUMENT, "tk_conv_transpose2d: clamp");
    tk_tensor_release(wt);
    /* lo > hi: every element is hi (torch.clamp, ONNX Clip) */
    o.clamp_min = 1, o.clamp_max = -1;
    TKT_OK(tk_conv2d(tkt_ctx, x, w, NULL, &o, &y));
    double lo, hi;
    tk_tensor *mn = NULL, *mx = NULL;
    TKT_OK(tk_reduce(tkt_ctx, TK_MIN, y, NULL, &mn));
    TKT_OK(tk_reduce(tkt_ctx, TK_MAX, y, NULL, &mx));
    TKT_OK(tk_item(tkt_ctx, mn, NULL, &lo));
    TKT_OK(tk_item(tkt_ctx, mx, NULL, &hi));
    ck_assert(lo == -1 && hi == -1);
    TKT_RELEASE(x, w, y, mn, mx);
}
END_TEST

static Suite *conv_clamp_suite(void)
{
    Suite *s = suite_create("tensor_conv_clamp");
    TCase *c = tkt_case("conv_clamp");
    tcase_add_loop_test(c, clamp_matches_double_loop_on_every_path, 0, NCASES);
    tcase_add_loop_test(c, open_clamp_keeps_relu_and_identity_bits, 0, NCASES);
    tcase_add_loop_test(c, nan_stays_nan_through_the_clamp, 0, NCASES);
    tcase_add_loop_test(c, clamp_same_bits_on_1_and_2_threads, 0, NCASES);
    tcase_add_test(c, clamp_errors);
    suite_add_tcase(s, c);
    return s;
}

TKT_MAIN(conv_clamp_suite)
