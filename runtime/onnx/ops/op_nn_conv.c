/* op_nn_conv.c — ONNX Conv and ConvTranspose (1-d and 2-d) on tk_conv1d,
 * tk_conv2d and tk_conv_transpose2d. ONNX pads may differ at the two ends
 * of an axis where the runtime pads both ends alike: such pads are applied
 * to the input first with tk_pad (Conv), or the transposed convolution is
 * run unpadded and its result cropped or extended with tk_pad (ConvTranspose).
 * 3-d convolutions are refused at load: the runtime has no conv3d. */
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define MAX_SPATIAL 2

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
    int64_t group;
} ConvGeom;

const char *tko_nn_check_conv(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    int c, rank = tko_nn_known_rank(m, n, 1);
    tko_attr_ints(n, "kernel_shape", &c);
    if (rank > 2 + MAX_SPATIAL) c = rank - 2;
    if (c > MAX_SPATIAL) return tko_nn_why(why, len, "%d-d convolution is not supported (the runtime has conv1d and conv2d)", c);
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
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "%d-d convolution is not supported (the runtime has conv1d and conv2d)", g->nsp);
    int64_t v[2 * MAX_SPATIAL];
    int c;
    tk_status s;
    const int64_t *xs = tk_tensor_shape(x), *ws = tk_tensor_shape(w);
    for (int i = 0; i < g->nsp; i++) {
        g->stride[i] = g->dil[i] = 1;
        g->kernel[i] = ws[2 + i];
        g->pad_begin[i] = g->pad_end[i] = g->out_pad[i] = 0;
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
            int64_t half = floordiv(total, 2);
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

/* Conv: asymmetric pads go onto x first; symmetric ones to the kernel call. */
tk_status tko_nn_run_conv(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *w = oc->in[1], *b = oc->nin > 2 ? oc->in[2] : NULL;
    ConvGeom g;
    tk_status s = read_geom(oc, x, w, false, &g);
    if (s) return s;
    tk_conv_opts o = { .groups = g.group };
    bool symmetric = true;
    for (int i = 0; i < g.nsp; i++) {
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
        if ((s = tko_wrap(oc, tk_pad(oc->ctx, x, pads, 2 * g.nsp, TK_PAD_CONSTANT, 0.0, &padded)))) return s;
        x = padded;
    }
    if (g.nsp == 1) s = tk_conv1d(oc->ctx, x, w, b, &o, &oc->out[0]);
    else s = tk_conv2d(oc->ctx, x, w, b, &o, &oc->out[0]);
    tk_tensor_release(padded);
    return tko_wrap(oc, s);
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
    for (int i = 0; i < g.nsp; i++) o.stride[off + i] = g.stride[i], o.dilation[off + i] = g.dil[i];
    if (off) o.stride[0] = o.dilation[0] = 1;
    if ((s = tk_conv_transpose2d(oc->ctx, x, w, NULL, &o, &t[2]))) goto done;
    int64_t pads[2 * MAX_SPATIAL];   /* tk_pad: the last dim first; negative amounts crop */
    for (int i = 0; i < g.nsp; i++) {
        int a = g.nsp - 1 - i;
        pads[2 * i] = -g.pad_begin[a];
        pads[2 * i + 1] = g.out_pad[a] - g.pad_end[a];
    }
    if ((s = tk_pad(oc->ctx, t[2], pads, 2 * g.nsp, TK_PAD_CONSTANT, 0.0, &t[3]))) goto done;
    tk_tensor *y = t[3];
    if (g.nsp == 1) {
        if ((s = tk_squeeze(oc->ctx, y, 2, &t[4]))) goto done;
        y = t[4];
    }
    if (b) {
        int64_t bshape[2 + MAX_SPATIAL] = { tk_tensor_numel(b), 1, 1 };
        if ((s = tk_reshape(oc->ctx, b, 1 + g.nsp, bshape, &t[5]))) goto done;
        s = tk_add(oc->ctx, y, t[5], &oc->out[0]);
    } else s = tk_contiguous(oc->ctx, y, &oc->out[0]);
done:
    tko_nn_release(t, 6);
    if (s) return tko_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}
