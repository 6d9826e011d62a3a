/* test_layout.c — channels-last (NHWC) tensors: what makes them, which ops
 * keep the layout, and that every op gives the same values whatever the
 * layout of its input. The NCHW paths these are compared with are checked
 * against PyTorch in test_conv.c / test_nn.c; here a convolution is also
 * checked against a plain double loop, so a layout mix-up in both paths at
 * once would still fail. */
#include <math.h>
#include <string.h>

#include "harness.h"

static tk_tensor *randn(int ndim, const int64_t *shape, uint64_t seed)
{
    tk_tensor *t = NULL;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, ndim, shape, seed, &t));
    return t;
}

static tk_tensor *to_cl(const tk_tensor *t)
{
    tk_tensor *o = NULL;
    TKT_OK(tk_to_channels_last(tkt_ctx, t, &o));
    return o;
}

/* Element (n, c, h, w) of a 4-d f32 tensor of any strides. */
static float at4(const tk_tensor *t, int64_t n, int64_t c, int64_t h, int64_t w)
{
    const int64_t *s = tk_tensor_strides(t);
    return ((const float *)tk_tensor_data(t))[n * s[0] + c * s[1] + h * s[2] + w * s[3]];
}

START_TEST(channels_last_views_and_copies)
{
    tk_tensor *x = randn(4, (int64_t[]){ 2, 5, 3, 7 }, 1), *cl = to_cl(x), *back = NULL, *again = NULL, *v3 = NULL;
    ck_assert(!tk_tensor_is_channels_last(x));
    ck_assert(tk_tensor_is_channels_last(cl) && !tk_tensor_is_contiguous(cl));
    const int64_t *st = tk_tensor_strides(cl);
    ck_assert(st[0] == 3 * 7 * 5 && st[1] == 1 && st[2] == 7 * 5 && st[3] == 5);
    for (int64_t n = 0; n < 2; n++)
        for (int64_t c = 0; c < 5; c++)
            for (int64_t h = 0; h < 3; h++)
                for (int64_t w = 0; w < 7; w++) ck_assert(at4(cl, n, c, h, w) == at4(x, n, c, h, w));
    TKT_OK(tk_contiguous(tkt_ctx, cl, &back));
    ck_assert(tk_tensor_is_contiguous(back));
    tkt_expect_equal(back, x, "NHWC -> NCHW");
    TKT_OK(tk_to_channels_last(tkt_ctx, cl, &again));
    ck_assert(again == cl);   /* already channels-last: the same tensor */
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 2, 3, 4 }, 2, &v3));
    tk_tensor *bad = NULL;
    TKT_FAILS(tk_to_channels_last(tkt_ctx, v3, &bad), TK_ERR_SHAPE, "not 4-d");
    /* a tensor with C = 1 or H = W = 1 is both layouts at once */
    tk_tensor *c1 = randn(4, (int64_t[]){ 2, 1, 3, 3 }, 3);
    ck_assert(tk_tensor_is_channels_last(c1) && tk_tensor_is_contiguous(c1));
    TKT_RELEASE(x, cl, back, again, v3, c1);
}
END_TEST

/* tk_cat along C of channels-last inputs gives a channels-last result (PyTorch's
 * rule), along other dims too; one row-major input gives a row-major result; the
 * values always those of the row-major cat. The pieces are copied into slices of
 * a channels-last tensor (not dense: the copy picks C as its inner run). And
 * NCHW -> NHWC of 3 channels (a short innermost dim) gives the same values. */
START_TEST(cat_keeps_channels_last)
{
    tk_tensor *a = randn(4, (int64_t[]){ 2, 5, 3, 7 }, 11), *b = randn(4, (int64_t[]){ 2, 19, 3, 7 }, 12);
    tk_tensor *acl = to_cl(a), *bcl = to_cl(b), *want = NULL, *got = NULL, *mixed = NULL, *want_h = NULL, *got_h = NULL;
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ a, b }, 2, 1, &want));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ acl, bcl }, 2, 1, &got));
    ck_assert(tk_tensor_is_channels_last(got) && !tk_tensor_is_contiguous(got));
    tkt_expect_equal(got, want, "channels-last cat along C");
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ acl, b }, 2, 1, &mixed));
    ck_assert(tk_tensor_is_contiguous(mixed));
    tkt_expect_equal(mixed, want, "cat of a channels-last and a row-major input");
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ a, a }, 2, 2, &want_h));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ acl, acl }, 2, 2, &got_h));
    ck_assert(tk_tensor_is_channels_last(got_h));
    tkt_expect_equal(got_h, want_h, "channels-last cat along H");
    tk_tensor *rgb = randn(4, (int64_t[]){ 2, 3, 17, 33 }, 13), *rgb_cl = to_cl(rgb), *back = NULL;
    for (int64_t n = 0; n < 2; n++)
        for (int64_t c = 0; c < 3; c++)
            for (int64_t h = 0; h < 17; h++)
                for (int64_t w = 0; w < 33; w++) ck_assert(at4(rgb_cl, n, c, h, w) == at4(rgb, n, c, h, w));
    TKT_OK(tk_contiguous(tkt_ctx, rgb_cl, &back));
    tkt_expect_equal(back, rgb, "NHWC -> NCHW of 3 channels");
    TKT_RELEASE(a, b, acl, bcl, want, got, mixed, want_h, got_h, rgb, rgb_cl, back);
}
END_TEST

/* Element-wise results take their first full-size operand's layout; values never depend on it. */
START_TEST(elementwise_keeps_the_layout)
{
    int64_t sh[4] = { 2, 6, 5, 3 };
    tk_tensor *a = randn(4, sh, 4), *b = randn(4, sh, 5), *bias = randn(4, (int64_t[]){ 1, 6, 1, 1 }, 6);
    tk_tensor *acl = to_cl(a), *bcl = to_cl(b), *r[8] = { 0 }, *want[4] = { 0 };
    TKT_OK(tk_add(tkt_ctx, a, b, &want[0]));
    TKT_OK(tk_add(tkt_ctx, acl, bcl, &r[0]));   /* both channels-last */
    TKT_OK(tk_add(tkt_ctx, acl, b, &r[1]));     /* mixed: a's layout */
    TKT_OK(tk_add(tkt_ctx, a, bcl, &r[2]));     /* a row-major: row-major */
    ck_assert(tk_tensor_is_channels_last(r[0]) && !tk_tensor_is_contiguous(r[0]));
    ck_assert(tk_tensor_is_channels_last(r[1]) && !tk_tensor_is_contiguous(r[1]));
    ck_assert(tk_tensor_is_contiguous(r[2]));
    for (int i = 0; i < 3; i++) tkt_expect_equal(r[i], want[0], "add");
    /* a per-channel broadcast operand second, or first (then the full-size one decides) */
    TKT_OK(tk_mul(tkt_ctx, a, bias, &want[1]));
    TKT_OK(tk_mul(tkt_ctx, acl, bias, &r[3]));
    TKT_OK(tk_mul(tkt_ctx, bias, acl, &r[4]));
    ck_assert(tk_tensor_is_channels_last(r[3]) && tk_tensor_is_channels_last(r[4]));
    tkt_expect_equal(r[3], want[1], "mul by a channel vector");
    tkt_expect_equal(r[4], want[1], "channel vector times x");
    /* unary, and in place */
    TKT_OK(tk_unary(tkt_ctx, TK_RELU, a, &want[2]));
    TKT_OK(tk_unary(tkt_ctx, TK_RELU, acl, &r[5]));
    ck_assert(tk_tensor_is_channels_last(r[5]) && !tk_tensor_is_contiguous(r[5]));
    tkt_expect_equal(r[5], want[2], "relu");
    TKT_OK(tk_unary_(tkt_ctx, TK_RELU, bcl));
    TKT_OK(tk_unary(tkt_ctx, TK_RELU, b, &want[3]));
    tkt_expect_equal(bcl, want[3], "relu_ in place");
    /* where: the first full-size of a, b, cond */
    tk_tensor *cond = NULL;
    TKT_OK(tk_binary(tkt_ctx, TK_GT, acl, bias, &cond));
    TKT_OK(tk_where(tkt_ctx, cond, acl, b, &r[6]));
    ck_assert(tk_tensor_is_channels_last(r[6]));
    tk_tensor *cond_rm = NULL, *want_w = NULL;
    TKT_OK(tk_binary(tkt_ctx, TK_GT, a, bias, &cond_rm));
    TKT_OK(tk_where(tkt_ctx, cond_rm, a, b, &want_w));
    tkt_expect_equal(r[6], want_w, "where");
    TKT_RELEASE(a, b, bias, acl, bcl, cond, cond_rm, want_w);
    for (int i = 0; i < 8; i++) tk_tensor_release(r[i]);
    for (int i = 0; i < 4; i++) tk_tensor_release(want[i]);
}
END_TEST

/* conv2d of x [N, C, H, W] by w [OC, C/g, KH, KW] in double, one output element. */
static double conv_at(const tk_tensor *x, const tk_tensor *w, const tk_tensor *b, int64_t stride, int64_t pad, int64_t groups, int64_t n,
                      int64_t o, int64_t oh, int64_t ow)
{
    const int64_t *xs = tk_tensor_shape(x), *ws = tk_tensor_shape(w);
    int64_t cg = ws[1], g = o / (ws[0] / groups);
    double acc = b ? ((const float *)tk_tensor_data(b))[o] : 0.0;
    for (int64_t c = 0; c < cg; c++)
        for (int64_t i = 0; i < ws[2]; i++)
            for (int64_t j = 0; j < ws[3]; j++) {
                int64_t h = oh * stride - pad + i, v = ow * stride - pad + j;
                if (h < 0 || h >= xs[2] || v < 0 || v >= xs[3]) continue;
                acc += (double)at4(x, n, g * cg + c, h, v) * (double)at4(w, o, c, i, j);
            }
    return acc;
}

typedef struct {
    const char *what;
    int64_t n, c, h, w, oc, k, stride, pad, groups, dil;
} ConvCase;

static const ConvCase conv_cases[] = {
    { "3x3 dense (the implicit gemm kernel)", 2, 19, 11, 13, 21, 3, 1, 1, 1, 1 },
    { "3x3 stride 2", 1, 16, 15, 9, 33, 3, 2, 1, 1, 1 },
    { "1x1 (the 1x1 kernel)", 2, 24, 7, 5, 40, 1, 1, 0, 1, 1 },
    { "1x1 stride 2", 1, 24, 9, 9, 17, 1, 2, 0, 1, 1 },
    { "depthwise 3x3", 2, 12, 10, 7, 12, 3, 1, 1, 12, 1 },
    { "stem: 3 channels, 7x7 stride 2 (im2col + gemm)", 1, 3, 23, 19, 16, 7, 2, 3, 1, 1 },
    { "dilated (the plain loop)", 1, 5, 9, 8, 6, 3, 1, 2, 1, 2 },
};

/* Every conv path: x row-major or channels-last, asking for a channels-last
 * result or not, with and without the fused ReLU, gives the values of the
 * row-major call (bit for bit: the same kernels and arithmetic), which in
 * turn match the double loop; the result's layout follows the rule. */
START_TEST(conv_layouts_and_fused_relu)
{
    const ConvCase *cc = &conv_cases[_i];
    tk_tensor *x = randn(4, (int64_t[]){ cc->n, cc->c, cc->h, cc->w }, 10 + _i);
    tk_tensor *w = randn(4, (int64_t[]){ cc->oc, cc->c / cc->groups, cc->k, cc->k }, 20 + _i);
    tk_tensor *b = randn(1, (int64_t[]){ cc->oc }, 30 + _i), *xcl = to_cl(x), *ref = NULL, *ref_relu = NULL;
    tk_conv_opts o = { .stride = { cc->stride, cc->stride }, .padding = { cc->pad, cc->pad }, .dilation = { cc->dil, cc->dil },
                       .groups = cc->groups };
    TKT_OK(tk_conv2d(tkt_ctx, x, w, b, &o, &ref));
    ck_assert_msg(tk_tensor_is_contiguous(ref), "%s: a row-major x gives a row-major result", cc->what);
    const int64_t *ys = tk_tensor_shape(ref);
    double worst = 0;
    if (cc->dil == 1)
        for (int64_t n = 0; n < ys[0]; n++)
            for (int64_t oc = 0; oc < ys[1]; oc++)
                for (int64_t i = 0; i < ys[2]; i++)
                    for (int64_t j = 0; j < ys[3]; j++) {
                        double e = fabs(at4(ref, n, oc, i, j) - conv_at(x, w, b, cc->stride, cc->pad, cc->groups, n, oc, i, j));
                        if (e > worst) worst = e;
                    }
    ck_assert_msg(worst < 1e-4, "%s: off the double loop by %g", cc->what, worst);
    TKT_OK(tk_unary(tkt_ctx, TK_RELU, ref, &ref_relu));
    for (int in_cl = 0; in_cl < 2; in_cl++)
        for (int ask = 0; ask < 2; ask++)
            for (int relu = 0; relu < 2; relu++) {
                tk_conv_opts oo = o;
                oo.channels_last = ask, oo.relu = relu;
                tk_tensor *y = NULL;
                TKT_OK(tk_conv2d(tkt_ctx, in_cl ? xcl : x, w, b, &oo, &y));
                bool want_cl = in_cl || ask;
                ck_assert_msg(want_cl ? tk_tensor_is_channels_last(y) && !tk_tensor_is_contiguous(y) : tk_tensor_is_contiguous(y),
                              "%s: x %s, channels_last %d: wrong result layout", cc->what, in_cl ? "NHWC" : "NCHW", ask);
                char label[160];
                snprintf(label, sizeof label, "%s (x %s, channels_last %d, relu %d)", cc->what, in_cl ? "NHWC" : "NCHW", ask, relu);
                tkt_expect_close(y, relu ? ref_relu : ref, 0, 0, true, label);   /* exact; -0 equals 0 */
                tk_tensor_release(y);
            }
    TKT_RELEASE(x, w, b, xcl, ref, ref_relu);
}
END_TEST

/* Pools of a channels-last x: in place, channels-last results, the NCHW path's bits (NaN included). */
START_TEST(pools_read_channels_last_in_place)
{
    tk_tensor *x = randn(4, (int64_t[]){ 2, 7, 13, 11 }, 40);
    ((float *)tk_tensor_data(x))[17] = NAN;
    tk_tensor *xcl = to_cl(x);
    const tk_pool_opts opts[] = {
        { .kernel_size = { 3, 3 }, .stride = { 2, 2 }, .padding = { 1, 1 } },
        { .kernel_size = { 2, 3 }, .stride = { 2, 1 }, .padding = { 1, 0 }, .ceil_mode = true },
        { .kernel_size = { 3, 2 }, .stride = { 1, 2 }, .dilation = { 2, 1 } },
        { .kernel_size = { 3, 3 }, .stride = { 2, 2 }, .padding = { 1, 1 }, .exclude_pad = true },
    };
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        for (int avg = 0; avg < 2; avg++) {
            if (avg && opts[i].dilation[0] > 1) continue;   /* avg pooling has no dilation */
            tk_tensor *want = NULL, *got = NULL;
            TKT_OK(avg ? tk_avg_pool2d(tkt_ctx, x, &opts[i], &want) : tk_max_pool2d(tkt_ctx, x, &opts[i], &want));
            TKT_OK(avg ? tk_avg_pool2d(tkt_ctx, xcl, &opts[i], &got) : tk_max_pool2d(tkt_ctx, xcl, &opts[i], &got));
            ck_assert_msg(tk_tensor_is_channels_last(got) && !tk_tensor_is_contiguous(got), "pool %zu: result not channels-last", i);
            char label[64];
            snprintf(label, sizeof label, "%s pool %zu", avg ? "avg" : "max", i);
            tkt_expect_equal(got, want, label);
            TKT_RELEASE(want, got);
        }
    tk_tensor *want = NULL, *got = NULL;   /* adaptive forms take the same path */
    TKT_OK(tk_adaptive_avg_pool2d(tkt_ctx, x, 3, 4, &want));
    TKT_OK(tk_adaptive_avg_pool2d(tkt_ctx, xcl, 3, 4, &got));
    tkt_expect_equal(got, want, "adaptive avg pool");
    TKT_RELEASE(x, xcl, want, got);
}
END_TEST

/* Results are the same on 1 and 2 threads for the channels-last paths too. */
START_TEST(channels_last_same_bits_on_two_threads)
{
    tk_tensor *x = randn(4, (int64_t[]){ 2, 32, 17, 15 }, 50), *w = randn(4, (int64_t[]){ 48, 32, 3, 3 }, 51), *xcl = to_cl(x);
    tk_pool_opts po = { .kernel_size = { 3, 3 }, .stride = { 2, 2 }, .padding = { 1, 1 } };
    tk_conv_opts co = { .padding = { 1, 1 }, .relu = true };
    tk_tensor *r[2][3] = { { 0 } };
    for (int t = 0; t < 2; t++) {
        TKT_OK(tk_context_set_threads(tkt_ctx, t + 1));
        TKT_OK(tk_conv2d(tkt_ctx, xcl, w, NULL, &co, &r[t][0]));
        TKT_OK(tk_avg_pool2d(tkt_ctx, r[t][0], &po, &r[t][1]));
        TKT_OK(tk_add(tkt_ctx, r[t][0], r[t][0], &r[t][2]));
    }
    for (int k = 0; k < 3; k++) tkt_expect_equal(r[1][k], r[0][k], "1 vs 2 threads");
    TKT_RELEASE(x, w, xcl);
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 3; k++) tk_tensor_release(r[t][k]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_layout");
    TCase *tc = tkt_case("layout");
    tcase_add_test(tc, channels_last_views_and_copies);
    tcase_add_test(tc, cat_keeps_channels_last);
    tcase_add_test(tc, elementwise_keeps_the_layout);
    tcase_add_loop_test(tc, conv_layouts_and_fused_relu, 0, (int)(sizeof conv_cases / sizeof *conv_cases));
    tcase_add_test(tc, pools_read_channels_last_in_place);
    tcase_add_test(tc, channels_last_same_bits_on_two_threads);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
