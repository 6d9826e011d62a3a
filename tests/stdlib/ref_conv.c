/* ref_conv.c — double-precision references of the conv kernels (stdlib-kernels/conv2d.tk).
 * See reference.h. Written from the definitions in conv2d.tk's header (NHWC, zero
 * padding, s = stride, p = pad, act = relu if use_relu, then clamped to [lo, hi] if
 * use_clamp, a NaN staying NaN):
 *   dense:     Y[n][oh][ow][oc] = act(bias[oc] + Σ_{kh,kw,c} X[n][oh·s+kh−p][ow·s+kw−p][c] · Wt[kh][kw][c][oc])
 *   depthwise: Y[n][oh][ow][c]  = act(bias[c]  + Σ_{kh,kw}   X[n][oh·s+kh−p][ow·s+kw−p][c] · Wd[kh][kw][c])
 * with X outside [0, H) × [0, W) taken as 0, for every (oh, ow) of Y's shape.
 * The 1×1 and stem kernels take views of the same memory: conv2d_1x1_nhwc_* is
 * Y[p][oc] = act(bias[oc] + Σ_c X[p][c] · Wt[c][oc]) over P = N·H·W pixels, and
 * conv2d_stem_nhwc_* reads X as [N][H][W·C] (element iw·C + c of image row ih)
 * and the weights as Wk[KH·KW·C][OC], with C and KH given as scalars. */
#include <math.h>

#include "reference.h"

/* X[n][ih][iw][c], or 0 outside the image (the zero padding) */
static double x_at(const TkRefTensor *X, int64_t n, int64_t ih, int64_t iw, int64_t c)
{
    int64_t H = X->shape[1], W = X->shape[2], C = X->shape[3];
    if (ih < 0 || ih >= H || iw < 0 || iw >= W) return 0.0;
    return X->data[((n * H + ih) * W + iw) * C + c];
}

/* The kernels' activation, from the scalars use_relu, use_clamp, lo, hi. */
typedef struct {
    bool relu, clamp;
    double lo, hi;
} Act;

static Act act_of(TkRefCall *call)
{
    return (Act){ tk_ref_scalar(call, "use_relu") != 0, tk_ref_scalar(call, "use_clamp") != 0, tk_ref_scalar(call, "lo"),
                  tk_ref_scalar(call, "hi") };
}

/* relu, then the clamp as torch.clamp: min(max(y, lo), hi), NaN passing through */
static double act_apply(Act a, double y)
{
    if (a.relu) y = tk_ref_relu(y);
    if (a.clamp && !isnan(y)) y = y < a.lo ? a.lo : y;
    if (a.clamp && !isnan(y)) y = y > a.hi ? a.hi : y;
    return y;
}

static const char *conv(TkRefCall *call, bool depthwise)
{
    TkRefTensor *X = tk_ref_tensor(call, "X"), *Y = tk_ref_tensor(call, "Y");
    TkRefTensor *Wt = tk_ref_tensor(call, depthwise ? "Wd" : "Wt");
    const double *bias = tk_ref_data(call, "bias");
    int64_t stride = (int64_t)tk_ref_scalar(call, "stride"), pad = (int64_t)tk_ref_scalar(call, "pad");
    Act act = act_of(call);
    if (X->rank != 4 || Y->rank != 4 || Wt->rank != (depthwise ? 3u : 4u)) return "unexpected tensor ranks";

    int64_t N = X->shape[0], C = X->shape[3];
    int64_t KH = Wt->shape[0], KW = Wt->shape[1];
    int64_t OH = Y->shape[1], OW = Y->shape[2], OC = Y->shape[3];
    for (int64_t n = 0; n < N; n++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++)
                for (int64_t o = 0; o < OC; o++) {
                    double s = bias[o];
                    for (int64_t kh = 0; kh < KH; kh++)
                        for (int64_t kw = 0; kw < KW; kw++) {
                            int64_t ih = oh * stride + kh - pad, iw = ow * stride + kw - pad;
                            if (depthwise) {
                                s += x_at(X, n, ih, iw, o) * Wt->data[(kh * KW + kw) * C + o];
                            } else {
                                for (int64_t c = 0; c < C; c++)
                                    s += x_at(X, n, ih, iw, c) * Wt->data[((kh * KW + kw) * C + c) * OC + o];
                            }
                        }
                    Y->data[((n * OH + oh) * OW + ow) * OC + o] = act_apply(act, s);
                }
    return NULL;
}

/* The stem kernel's X is [N, H, W·C] and its weights Wk [KH·KW·C, OC], with C =
 * `channels` and KH = `kernel_h`: the dense formula with W = WC / C, KW = KK / (KH·C). */
static const char *ref_stem(TkRefCall *call)
{
    TkRefTensor *X = tk_ref_tensor(call, "X"), *Wk = tk_ref_tensor(call, "Wk"), *Y = tk_ref_tensor(call, "Y");
    const double *bias = tk_ref_data(call, "bias");
    int64_t C = (int64_t)tk_ref_scalar(call, "channels"), KH = (int64_t)tk_ref_scalar(call, "kernel_h");
    int64_t stride = (int64_t)tk_ref_scalar(call, "stride"), pad = (int64_t)tk_ref_scalar(call, "pad");
    Act act = act_of(call);
    if (X->rank != 3 || Wk->rank != 2 || Y->rank != 4) return "unexpected tensor ranks";
    if (C <= 0 || KH <= 0 || X->shape[2] % C != 0 || Wk->shape[0] % (KH * C) != 0)
        return "WC is not a multiple of channels, or KK of kernel_h·channels";
    TkRefTensor x4 = *X;   /* the NHWC view of the same data */
    x4.rank = 4;
    x4.shape[2] = X->shape[2] / C;
    x4.shape[3] = C;
    int64_t N = x4.shape[0], KW = Wk->shape[0] / (KH * C);
    int64_t OH = Y->shape[1], OW = Y->shape[2], OC = Y->shape[3];
    for (int64_t n = 0; n < N; n++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++)
                for (int64_t o = 0; o < OC; o++) {
                    double s = bias[o];
                    for (int64_t kh = 0; kh < KH; kh++)
                        for (int64_t kw = 0; kw < KW; kw++)
                            for (int64_t c = 0; c < C; c++)
                                s += x_at(&x4, n, oh * stride + kh - pad, ow * stride + kw - pad, c) *
                                     Wk->data[((kh * KW + kw) * C + c) * OC + o];
                    Y->data[((n * OH + oh) * OW + ow) * OC + o] = act_apply(act, s);
                }
    return NULL;
}

/* 1×1 stride 1 over flattened pixels: a matrix product plus bias. */
static const char *ref_1x1(TkRefCall *call)
{
    TkRefTensor *X = tk_ref_tensor(call, "X"), *Wt = tk_ref_tensor(call, "Wt"), *Y = tk_ref_tensor(call, "Y");
    const double *bias = tk_ref_data(call, "bias");
    Act act = act_of(call);
    if (X->rank != 2 || Wt->rank != 2 || Y->rank != 2) return "unexpected tensor ranks";
    int64_t P = X->shape[0], C = X->shape[1], OC = Wt->shape[1];
    for (int64_t p = 0; p < P; p++)
        for (int64_t o = 0; o < OC; o++) {
            double s = bias[o];
            for (int64_t c = 0; c < C; c++) s += X->data[p * C + c] * Wt->data[c * OC + o];
            Y->data[p * OC + o] = act_apply(act, s);
        }
    return NULL;
}

static const char *ref_dense(TkRefCall *c) { return conv(c, false); }
static const char *ref_depthwise(TkRefCall *c) { return conv(c, true); }

const TkRefKernel tk_ref_conv[] = {
    { "conv2d_nhwc_f32", ref_dense },
    { "conv2d_nhwc_bf16", ref_dense },
    { "conv2d_1x1_nhwc_f32", ref_1x1 },
    { "conv2d_stem_nhwc_f32", ref_stem },
    { "conv2d_1x1_nhwc_bf16", ref_1x1 },
    { "conv2d_stem_nhwc_bf16", ref_stem },
    { "conv2d_dw_nhwc_f32", ref_depthwise },
    { "conv2d_dw_nhwc_bf16", ref_depthwise },
    { 0, 0 },
};
