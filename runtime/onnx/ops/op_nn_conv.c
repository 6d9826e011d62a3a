/* op_nn_conv.c — ONNX Conv and ConvTranspose (1-d and 2-d) on tk_conv1d,
 * tk_conv2d and tk_conv_transpose2d. ONNX pads may differ at the two ends
 * of an axis where the runtime pads both ends alike: such pads are applied
 * to the input first with tk_pad (Conv), or the transposed convolution is
 * run unpadded and its result cropped or extended with tk_pad (ConvTranspose).
 * The runtime has no 3-d convolution: a 3-d Conv is a sum over the depth
 * taps of 2-d convolutions (each batched over the output depths), and a 3-d
 * ConvTranspose a sum of 2-d transposed convolutions placed at their depth
 * offsets. */
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define MAX_SPATIAL 3

/* Python's floor division (pads may come out negative). */
static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The geometry of one node: per spatial axis, begin and end pads. */
typedef struct {
    int nsp;
    int64_t stride[MAX_SPATIAL], dil[MAX_SPATIAL], kernel[MAX_SPATIAL];
    int64_t pad_begin[MAX_SPATIAL], pad_end[MAX_SPATIAL];
    int64_t out_pad[MAX_SPATIAL];
    int64_t want[MAX_SPATIAL];   /* ConvTranspose: the output size output_shape or auto_pad sets; 0: from the pads */
    int64_t group;
} ConvGeom;

const char *tko_nn_check_conv(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    int c, rank = tko_nn_known_rank(m, n, 1);
    tko_attr_ints(n, "kernel_shape", &c);
    if (rank > 2 + MAX_SPATIAL) c = rank - 2;
    if (c > MAX_SPATIAL) return tko_nn_why(why, len, "%d-d convolution is not supported (1-d to 3-d are)", c);
    const char *ap = tko_attr_string(n, "auto_pad", "NOTSET");
    if (strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID"))
        return tko_nn_why(why, len, "auto_pad='%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", ap);
    return NULL;
}

/* Reads strides, dilations, group, pads (or auto_pad) of a Conv or
 * ConvTranspose node for input x and weight w. */
static tk_status read_geom(TkoOpCtx *oc, const tk_tensor *x, const tk_tensor *w, bool transpose, ConvGeom *g)
{
    int nd = tk_tensor_ndim(x);
    if (nd < 3 || tk_tensor_ndim(w) != nd)
        return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d and W %d-d; both must be [N, C, spatial...] of one rank", nd, tk_tensor_ndim(w));
    g->nsp = nd - 2;
    if (g->nsp > MAX_SPATIAL)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "%d-d convolution is not supported (1-d to 3-d are)", g->nsp);
    int64_t v[2 * MAX_SPATIAL];
    int c;
    tk_status s;
    const int64_t *xs = tk_tensor_shape(x), *ws = tk_tensor_shape(w);
    for (int i = 0; i < g->nsp; i++) {
        g->stride[i] = g->dil[i] = 1;
        g->kernel[i] = ws[2 + i];
        g->pad_begin[i] = g->pad_end[i] = g->out_pad[i] = g->want[i] = 0;
    }
    if ((s = tko_nn_attr_ints(oc, "strides", v, MAX_SPATIAL, &c))) return s;
    for (int i = 0; i < c && i < g->nsp; i++) g->stride[i] = v[i];
    if ((s = tko_nn_attr_ints(oc, "dilations", v, MAX_SPATIAL, &c))) return s;
    for (int i = 0; i < c && i < g->nsp; i++) g->dil[i] = v[i];
    if ((s = tko_nn_attr_ints(oc, "kernel_shape", v, MAX_SPATIAL, &c))) return s;
    for (int i = 0; i < c && i < g->nsp; i++)
        if (v[i] != g->kernel[i])
            return tko_fail(oc, TK_ERR_SHAPE, "kernel_shape[%d] = %lld but W's spatial dim is %lld", i, (long long)v[i],
                            (long long)g->kernel[i]);
    g->group = tko_attr_int(oc->node, "group", 1);
    if (g->group < 1 || xs[1] % g->group || (transpose ? ws[0] != xs[1] : ws[1] * g->group != xs[1]))
        return tko_fail(oc, TK_ERR_SHAPE, "X [%lld channels] does not fit W [%lld, %lld, ...] with group %lld", (long long)xs[1],
                        (long long)ws[0], (long long)ws[1], (long long)g->group);
    for (int i = 0; i < g->nsp; i++)
        if (g->stride[i] < 1 || g->dil[i] < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "strides and dilations must be >= 1");
    if (transpose) {
        if ((s = tko_nn_attr_ints(oc, "output_padding", v, MAX_SPATIAL, &c))) return s;
        for (int i = 0; i < c && i < g->nsp; i++) g->out_pad[i] = v[i];
    }
    const char *ap = tko_attr_string(oc->node, "auto_pad", "NOTSET");
    bool same = strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0, upper = strcmp(ap, "SAME_UPPER") == 0;
    int nos;
    int64_t outshape[MAX_SPATIAL];
    if ((s = tko_nn_attr_ints(oc, "output_shape", outshape, MAX_SPATIAL, &nos))) return s;
    if (transpose && (nos || same)) {
        /* the pads that give output_shape (default: input · stride) */
        for (int i = 0; i < g->nsp; i++) {
            int64_t want = nos ? outshape[nos - g->nsp + i] : xs[2 + i] * g->stride[i];
            int64_t total = g->stride[i] * (xs[2 + i] - 1) + g->out_pad[i] + (g->kernel[i] - 1) * g->dil[i] + 1 - want;
            if (total < 0) total = 0;   /* a larger output_shape extends the end with zeros (and the bias) */
            int64_t half = floordiv(total, 2);
            g->want[i] = want;
            g->pad_begin[i] = upper ? half : total - half;
            g->pad_end[i] = upper ? total - half : half;
        }
        return TK_OK;
    }
    if (same && !transpose) {
        for (int i = 0; i < g->nsp; i++) {
            int64_t in = xs[2 + i], out = (in + g->stride[i] - 1) / g->stride[i];
            int64_t need = (out - 1) * g->stride[i] + (g->kernel[i] - 1) * g->dil[i] + 1 - in;
            if (need < 0) need = 0;
            g->pad_begin[i] = upper ? need / 2 : (need + 1) / 2;
            g->pad_end[i] = need - g->pad_begin[i];
        }
        return TK_OK;
    }
    if (strcmp(ap, "VALID") == 0) return TK_OK;
    if ((s = tko_nn_attr_ints(oc, "pads", v, 2 * MAX_SPATIAL, &c))) return s;
    if (c && c != 2 * g->nsp) return tko_fail(oc, TK_ERR_SHAPE, "pads has %d values, %d expected", c, 2 * g->nsp);
    for (int i = 0; i < c / 2; i++) g->pad_begin[i] = v[i], g->pad_end[i] = v[g->nsp + i];
    return TK_OK;
}

/* b as [OC, 1, ...] for adding to [N, OC, spatial...] (nsp spatial dims). */
static tk_status bias_view(TkoOpCtx *oc, const tk_tensor *b, int nsp, tk_tensor **out)
{
    int64_t shape[1 + MAX_SPATIAL] = { tk_tensor_numel(b), 1, 1, 1 };
    return tk_reshape(oc->ctx, b, 1 + nsp, shape, out);
}

/* acc += t (acc NULL: t); takes t's reference. Depth taps add in tap order. */
static tk_status accumulate(TkoOpCtx *oc, tk_tensor **acc, tk_tensor *t)
{
    if (!*acc) {
        *acc = t;
        return TK_OK;
    }
    tk_tensor *r = NULL;
    tk_status s = tk_add(oc->ctx, *acc, t, &r);
    tk_tensor_release(*acc);
    tk_tensor_release(t);
    *acc = r;
    return s;
}

/* 3-d Conv of x padded already: for each depth tap kd, the input depths
 * kd·dd, kd·dd + sd, ... as a batch of 2-d planes [N·OD, C, H, W]
 * convolved with w[:, :, kd]; the taps summed, then [N, OC, OD, OH, OW]. */
static tk_status conv3d(TkoOpCtx *oc, const tk_tensor *xp, const tk_tensor *w, const tk_tensor *b, const ConvGeom *g, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    const int64_t *xs = tk_tensor_shape(xp);
    int64_t n = xs[0], c = xs[1], span = (g->kernel[0] - 1) * g->dil[0] + 1;
    if (xs[2] < span)
        return tkr_error(ctx, TK_ERR_SHAPE, "the depth window (%lld) is larger than the padded input (%lld)", (long long)span,
                         (long long)xs[2]);
    int64_t od = (xs[2] - span) / g->stride[0] + 1;
    tk_conv_opts o = { .stride = { g->stride[1], g->stride[2] }, .dilation = { g->dil[1], g->dil[2] }, .groups = g->group };
    tk_tensor *acc = NULL, *t[8] = { 0 };
    tk_status s = TK_OK;
    for (int64_t kd = 0; kd < g->kernel[0] && !s; kd++) {
        tko_nn_release(t, 4);
        tk_tensor *y = NULL;
        int64_t start = kd * g->dil[0];
        if (!(s = tk_slice(ctx, xp, 2, start, start + (od - 1) * g->stride[0] + 1, g->stride[0], &t[0])) &&
            !(s = tk_permute(ctx, t[0], (int[]){ 0, 2, 1, 3, 4 }, &t[1])) &&
            !(s = tk_reshape(ctx, t[1], 4, (int64_t[]){ n * od, c, xs[3], xs[4] }, &t[2])) && !(s = tk_select(ctx, w, 2, kd, &t[3])) &&
            !(s = tk_conv2d(ctx, t[2], t[3], NULL, &o, &y)))
            s = accumulate(oc, &acc, y);
    }
    tko_nn_release(t, 4);
    if (!s) {
        const int64_t *ys = tk_tensor_shape(acc);   /* [N·OD, OC, OH, OW] */
        if (!(s = tk_reshape(ctx, acc, 5, (int64_t[]){ n, od, ys[1], ys[2], ys[3] }, &t[4])) &&
            !(s = tk_permute(ctx, t[4], (int[]){ 0, 2, 1, 3, 4 }, &t[5]))) {
            if (b && !(s = bias_view(oc, b, 3, &t[6]))) s = tk_add(ctx, t[5], t[6], out);
            else if (!s) s = tk_contiguous(ctx, t[5], out);
        }
    }
    tk_tensor_release(acc);
    tko_nn_release(t, 8);
    return s;
}

/* The unpadded 3-d transposed convolution: for each depth tap kd, the 2-d
 * transposed convolution of every input depth plane with w[:, :, kd], its
 * planes spread sd apart (zeros between) and shifted to depth kd·dd; the
 * taps summed. [N, OC, (ID-1)·sd + (KD-1)·dd + 1, FH, FW]. */
static tk_status conv_transpose3d_full(TkoOpCtx *oc, const tk_tensor *x, const tk_tensor *w, const ConvGeom *g, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    const int64_t *xs = tk_tensor_shape(x);
    int64_t n = xs[0], id = xs[2], sd = g->stride[0], used = (id - 1) * sd + 1;
    int64_t dfull = used + (g->kernel[0] - 1) * g->dil[0];
    tk_conv_opts o = { .stride = { g->stride[1], g->stride[2] }, .dilation = { g->dil[1], g->dil[2] }, .groups = g->group };
    tk_tensor *acc = NULL, *planes = NULL, *t[8] = { 0 };
    int64_t fh = 0, fw = 0, oc_n = 0;
    tk_status s = tk_permute(ctx, x, (int[]){ 0, 2, 1, 3, 4 }, &t[0]);
    if (!s) s = tk_reshape(ctx, t[0], 4, (int64_t[]){ n * id, xs[1], xs[3], xs[4] }, &planes);
    tk_tensor_release(t[0]), t[0] = NULL;
    for (int64_t kd = 0; kd < g->kernel[0] && !s; kd++) {
        tko_nn_release(t, 7);
        if ((s = tk_select(ctx, w, 2, kd, &t[0])) || (s = tk_conv_transpose2d(ctx, planes, t[0], NULL, &o, &t[1]))) break;
        const int64_t *ys = tk_tensor_shape(t[1]);   /* [N·ID, OC, FH, FW] */
        oc_n = ys[1], fh = ys[2], fw = ys[3];
        int64_t m = oc_n * fh * fw, shift = kd * g->dil[0];
        if ((s = tk_reshape(ctx, t[1], 4, (int64_t[]){ n, id, 1, m }, &t[2])) ||
            (s = tk_pad(ctx, t[2], (int64_t[]){ 0, 0, 0, sd - 1 }, 4, TK_PAD_CONSTANT, 0.0, &t[3])) ||
            (s = tk_reshape(ctx, t[3], 3, (int64_t[]){ n, id * sd, m }, &t[4])) || (s = tk_slice(ctx, t[4], 1, 0, used, 1, &t[5])) ||
            (s = tk_pad(ctx, t[5], (int64_t[]){ 0, 0, shift, dfull - used - shift }, 4, TK_PAD_CONSTANT, 0.0, &t[6])))
            break;
        s = accumulate(oc, &acc, t[6]), t[6] = NULL;
    }
    tko_nn_release(t, 8);
    if (!s && !(s = tk_reshape(ctx, acc, 5, (int64_t[]){ n, dfull, oc_n, fh, fw }, &t[0])))
        s = tk_permute(ctx, t[0], (int[]){ 0, 2, 1, 3, 4 }, out);
    tko_nn_release(t, 8);
    tk_tensor_release(acc), tk_tensor_release(planes);
    return s;
}

/* Conv: asymmetric pads go onto x first; symmetric ones to the kernel call.
 * relu: a ReLU fused into the kernels' store (graph_fuse's FusedConv);
 * clip (NULL: none): a Clip to [clip[0], clip[1]] fused there likewise
 * (tk_conv_opts.clamp; NaN stays NaN, as ONNX Clip);
 * channels_last: a 2-d result left in NHWC memory for consumers that read it
 * in place (tk_conv_opts.channels_last). 3-d convs apply both after. */
tk_status tko_nn_run_conv_with(TkoOpCtx *oc, bool relu, const float *clip, bool channels_last)
{
    const tk_tensor *x = oc->in[0], *w = oc->in[1], *b = oc->nin > 2 ? oc->in[2] : NULL;
    ConvGeom g;
    tk_status s = read_geom(oc, x, w, false, &g);
    if (s) return s;
    tk_conv_opts o = { .groups = g.group, .relu = relu && g.nsp < 3, .channels_last = channels_last && g.nsp == 2,
                       .clamp = clip && g.nsp < 3, .clamp_min = clip ? clip[0] : 0, .clamp_max = clip ? clip[1] : 0 };
    bool symmetric = g.nsp < 3;   /* 3-d pads x first always */
    for (int i = 0; i < g.nsp && g.nsp < 3; i++) {
        o.stride[i] = g.stride[i], o.dilation[i] = g.dil[i];
        symmetric = symmetric && g.pad_begin[i] == g.pad_end[i] && g.pad_begin[i] >= 0;
    }
    tk_tensor *padded = NULL;
    if (symmetric) for (int i = 0; i < g.nsp; i++) o.padding[i] = g.pad_begin[i];
    else {
        int64_t pads[2 * MAX_SPATIAL];   /* tk_pad: the last dim first */
        for (int i = 0; i < g.nsp; i++) {
            pads[2 * i] = g.pad_begin[g.nsp - 1 - i];
            pads[2 * i + 1] = g.pad_end[g.nsp - 1 - i];
        }
        if ((s = tko_nn_wrap(oc, tk_pad(oc->ctx, x, pads, 2 * g.nsp, TK_PAD_CONSTANT, 0.0, &padded)))) return s;
        x = padded;
    }
    if (g.nsp == 1) s = tk_conv1d(oc->ctx, x, w, b, &o, &oc->out[0]);
    else if (g.nsp == 2) s = tk_conv2d(oc->ctx, x, w, b, &o, &oc->out[0]);
    else s = conv3d(oc, x, w, b, &g, &oc->out[0]);
    if (!s && relu && g.nsp == 3) s = tk_unary_(oc->ctx, TK_RELU, oc->out[0]);
    if (!s && clip && g.nsp == 3) {
        tk_clamp_opts c = { .has_min = true, .min = clip[0], .has_max = true, .max = clip[1] };
        s = tk_clamp_(oc->ctx, oc->out[0], &c);
    }
    tk_tensor_release(padded);
    return tko_nn_wrap(oc, s);
}

tk_status tko_nn_run_conv(TkoOpCtx *oc)
{
    return tko_nn_run_conv_with(oc, false, NULL, false);
}

/* ConvTranspose: the unpadded transposed convolution, then its borders
 * cropped by the pads (or extended where pads are negative or output_padding
 * reaches past them), then the bias. 1-d runs as 2-d with a unit height. */
tk_status tko_nn_run_conv_transpose(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *w = oc->in[1], *b = oc->nin > 2 ? oc->in[2] : NULL;
    ConvGeom g;
    tk_status s = read_geom(oc, x, w, true, &g);
    if (s) return s;
    tk_tensor *t[6] = { 0 };   /* x 2-d, w 2-d, full, cropped, bias [OC, 1, ...] */
    if (g.nsp == 1) {
        if ((s = tk_unsqueeze(oc->ctx, x, 2, &t[0])) || (s = tk_unsqueeze(oc->ctx, w, 2, &t[1]))) goto done;
        x = t[0], w = t[1];
    }
    tk_conv_opts o = { .groups = g.group };
    int off = g.nsp == 1 ? 1 : 0;   /* 1-d: index 0 is the unit height */
    for (int i = 0; i < g.nsp && g.nsp < 3; i++)   /* 3-d sets its own in conv_transpose3d_full */
        o.stride[off + i] = g.stride[i], o.dilation[off + i] = g.dil[i];
    if (off) o.stride[0] = o.dilation[0] = 1;
    if ((s = g.nsp == 3 ? conv_transpose3d_full(oc, x, w, &g, &t[2]) : tk_conv_transpose2d(oc->ctx, x, w, NULL, &o, &t[2])))
        goto done;
    int64_t pads[2 * MAX_SPATIAL];   /* tk_pad: the last dim first; negative amounts crop */
    for (int i = 0; i < g.nsp; i++) {
        int a = g.nsp - 1 - i;
        pads[2 * i] = -g.pad_begin[a];
        int64_t full = (tk_tensor_shape(oc->in[0])[2 + a] - 1) * g.stride[a] + (g.kernel[a] - 1) * g.dil[a] + 1;
        pads[2 * i + 1] = g.want[a] ? g.want[a] - (full - g.pad_begin[a]) : g.out_pad[a] - g.pad_end[a];
    }
    if ((s = tk_pad(oc->ctx, t[2], pads, 2 * g.nsp, TK_PAD_CONSTANT, 0.0, &t[3]))) goto done;
    tk_tensor *y = t[3];
    if (g.nsp == 1) {
        if ((s = tk_squeeze(oc->ctx, y, 2, &t[4]))) goto done;
        y = t[4];
    }
    if (b) {
        if ((s = bias_view(oc, b, g.nsp, &t[5]))) goto done;
        s = tk_add(oc->ctx, y, t[5], &oc->out[0]);
    } else s = tk_contiguous(oc->ctx, y, &oc->out[0]);
done:
    tko_nn_release(t, 6);
    if (s) return tko_nn_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}
