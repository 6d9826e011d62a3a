/* op_nn_pool.c — ONNX MaxPool, AveragePool, LpPool (1-d and 2-d) and the
 * global pools on runtime ops.
 *
 * ONNX windows may have pads that differ at the two ends, dilations for
 * average pooling, and ceil_mode windows that overhang the padded input;
 * the runtime's pools pad symmetrically. So the input is padded explicitly
 * (to exactly the extent the output's windows cover) and pooled unpadded:
 *   MaxPool     tk_max_pool2d over x padded with -inf;
 *   AveragePool window sums by tk_conv2d with a ones kernel (the stdlib conv
 *               kernel for dilation 1) over x padded with zeros, divided by
 *               the same sums over a mask of the cells that count (in-image
 *               cells, plus the declared pads when count_include_pad);
 *   LpPool      (window sum of |x|^p)^(1/p), sums as for AveragePool.
 * The runtime pools 2-d planes: 1-d runs as planes of height 1, 3-d as a
 * pass over (H, W) and one along D. MaxPool's Indices output (1-d, 2-d) is
 * a direct loop. */
#include <math.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define MAX_SPATIAL 3

typedef enum { POOL_MAX, POOL_AVG, POOL_LP } PoolKind;

typedef struct {
    int nsp;
    int64_t in[MAX_SPATIAL], kernel[MAX_SPATIAL], stride[MAX_SPATIAL], dil[MAX_SPATIAL];
    int64_t pad_begin[MAX_SPATIAL], pad_end[MAX_SPATIAL];   /* the declared pads */
    int64_t extra[MAX_SPATIAL];                             /* cells past pad_end that ceil_mode windows reach */
    int64_t out[MAX_SPATIAL];
} PoolGeom;

const char *tko_nn_check_pool(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    int c, rank = tko_nn_known_rank(m, n, 0);
    tko_attr_ints(n, "kernel_shape", &c);
    if (c == 0) return tko_nn_why(why, len, "attribute kernel_shape is required");
    if (c > MAX_SPATIAL || rank > 2 + MAX_SPATIAL)
        return tko_nn_why(why, len, "%d-d pooling is not supported (1-d to 3-d are)", c > MAX_SPATIAL ? c : rank - 2);
    if ((c == 3 || rank == 5) && n->nout > 1 && n->outputs[1] != TKO_NO_VALUE)
        return tko_nn_why(why, len, "the Indices output of a 3-d MaxPool is not supported");
    const char *ap = tko_attr_string(n, "auto_pad", "NOTSET");
    if (strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID"))
        return tko_nn_why(why, len, "auto_pad='%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", ap);
    if (tko_attr_int(n, "storage_order", 0) != 0 && tko_attr_int(n, "storage_order", 0) != 1)
        return tko_nn_why(why, len, "storage_order must be 0 or 1");
    return NULL;
}

/* Output sizes and pads as ONNX defines them (ceil_mode: the last window
 * must start inside the input or its left pad). */
static tk_status read_geom(TkoOpCtx *oc, const tk_tensor *x, PoolGeom *g)
{
    int nd = tk_tensor_ndim(x), c;
    if (nd < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...]", nd);
    g->nsp = nd - 2;
    if (g->nsp > MAX_SPATIAL)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "%d-d pooling is not supported (1-d to 3-d are)", g->nsp);
    int64_t v[2 * MAX_SPATIAL];
    tk_status s;
    if ((s = tko_nn_attr_ints(oc, "kernel_shape", v, MAX_SPATIAL, &c))) return s;
    if (c != g->nsp) return tko_fail(oc, TK_ERR_SHAPE, "kernel_shape has %d values for %d spatial dims", c, g->nsp);
    for (int i = 0; i < g->nsp; i++) {
        g->in[i] = tk_tensor_shape(x)[2 + i];
        g->kernel[i] = v[i], g->stride[i] = g->dil[i] = 1;
        g->pad_begin[i] = g->pad_end[i] = g->extra[i] = 0;
    }
    if ((s = tko_nn_attr_ints(oc, "strides", v, MAX_SPATIAL, &c))) return s;
    for (int i = 0; i < c && i < g->nsp; i++) g->stride[i] = v[i];
    if ((s = tko_nn_attr_ints(oc, "dilations", v, MAX_SPATIAL, &c))) return s;
    for (int i = 0; i < c && i < g->nsp; i++) g->dil[i] = v[i];
    for (int i = 0; i < g->nsp; i++)
        if (g->kernel[i] < 1 || g->stride[i] < 1 || g->dil[i] < 1)
            return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "kernel_shape, strides and dilations must be >= 1");
    const char *ap = tko_attr_string(oc->node, "auto_pad", "NOTSET");
    bool ceil_mode = tko_attr_int(oc->node, "ceil_mode", 0) != 0;
    for (int i = 0; i < g->nsp; i++) {
        int64_t span = (g->kernel[i] - 1) * g->dil[i] + 1;
        if (strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0) {
            g->out[i] = (g->in[i] - 1) / g->stride[i] + 1;
            int64_t need = (g->out[i] - 1) * g->stride[i] + span - g->in[i];
            if (need < 0) need = 0;
            g->pad_begin[i] = strcmp(ap, "SAME_UPPER") == 0 ? need / 2 : need - need / 2;
            g->pad_end[i] = need - g->pad_begin[i];
            continue;
        }
        if (strcmp(ap, "NOTSET") == 0) {
            if ((s = tko_nn_attr_ints(oc, "pads", v, 2 * MAX_SPATIAL, &c))) return s;
            if (c && c != 2 * g->nsp) return tko_fail(oc, TK_ERR_SHAPE, "pads has %d values, %d expected", c, 2 * g->nsp);
            if (c) g->pad_begin[i] = v[i], g->pad_end[i] = v[g->nsp + i];
            if (g->pad_begin[i] < 0 || g->pad_end[i] < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "pads must be >= 0");
        }
        int64_t room = g->in[i] + g->pad_begin[i] + g->pad_end[i] - span;
        if (room < 0)
            return tko_fail(oc, TK_ERR_SHAPE, "the window (%lld) is larger than the padded input (%lld) along spatial dim %d",
                            (long long)span, (long long)(g->in[i] + g->pad_begin[i] + g->pad_end[i]), i);
        g->out[i] = room / g->stride[i] + 1;
        if (ceil_mode && room % g->stride[i]) {
            g->out[i]++;
            if ((g->out[i] - 1) * g->stride[i] >= g->in[i] + g->pad_begin[i]) g->out[i]--;
        }
        int64_t reach = (g->out[i] - 1) * g->stride[i] + span - (g->in[i] + g->pad_begin[i] + g->pad_end[i]);
        g->extra[i] = reach > 0 ? reach : 0;
    }
    return TK_OK;
}

/* tk_pad amounts (the last dim first) over g's spatial dims: the declared
 * pads when `declared`, the ceil_mode overhang at the end when `extra`. */
static void pad_amounts(const PoolGeom *g, bool declared, bool extra, int64_t *pads)
{
    for (int i = 0; i < g->nsp; i++) {
        int a = g->nsp - 1 - i;
        pads[2 * i] = declared ? g->pad_begin[a] : 0;
        pads[2 * i + 1] = (declared ? g->pad_end[a] : 0) + (extra ? g->extra[a] : 0);
    }
}

/* One unpadded 2-d window pass over planes [P, 1, H, W]: max pooling, or
 * window sums as a conv with a ones kernel (the stdlib conv kernel when the
 * dilation is 1). */
static tk_status pass2d(TkoOpCtx *oc, bool max, const tk_tensor *planes, const int64_t k[2], const int64_t st[2], const int64_t dl[2],
                        tk_tensor **out)
{
    if (max) {
        tk_pool_opts o = { .kernel_size = { k[0], k[1] }, .stride = { st[0], st[1] }, .dilation = { dl[0], dl[1] } };
        return tk_max_pool2d(oc->ctx, planes, &o, out);
    }
    tk_conv_opts o = { .stride = { st[0], st[1] }, .dilation = { dl[0], dl[1] }, .groups = 1 };
    tk_tensor *w = NULL;
    tk_status s = tk_ones(oc->ctx, tk_tensor_dtype(planes), 4, (int64_t[]){ 1, 1, k[0], k[1] }, &w);
    if (!s) s = tk_conv2d(oc->ctx, planes, w, NULL, &o, out);
    tk_tensor_release(w);
    return s;
}

/* The window max or sum of x [N, C, spatial...], padded already so that
 * every window lies inside it: [N, C, out...]. 1-d and 2-d are one pass over
 * [N·C, 1, H, W] planes; 3-d is a pass over (H, W) and then one along D
 * (box windows separate, for max and for sums). */
static tk_status window_op(TkoOpCtx *oc, bool max, const tk_tensor *x, const PoolGeom *g, tk_tensor **out)
{
    const int64_t *sh = tk_tensor_shape(x);
    int64_t planes = sh[0] * sh[1], oshape[2 + MAX_SPATIAL] = { sh[0], sh[1] };
    for (int i = 0; i < g->nsp; i++) oshape[2 + i] = g->out[i];
    int last = g->nsp - 1;   /* the 2-d pass covers the last one or two spatial dims */
    int64_t k[2] = { 1, g->kernel[last] }, st[2] = { 1, g->stride[last] }, dl[2] = { 1, g->dil[last] };
    int64_t in4[4] = { planes, 1, 1, sh[2 + last] };
    if (g->nsp >= 2) {
        k[0] = g->kernel[last - 1], st[0] = g->stride[last - 1], dl[0] = g->dil[last - 1];
        in4[2] = sh[1 + last];
        if (g->nsp == 3) in4[0] = planes * sh[2];
    }
    tk_tensor *t[4] = { 0 };
    tk_status s = tk_reshape(oc->ctx, x, 4, in4, &t[0]);
    if (!s) s = pass2d(oc, max, t[0], k, st, dl, &t[1]);
    if (!s && g->nsp == 3) {   /* along D: [P, 1, D, OH·OW] with a (kd, 1) window */
        int64_t hw = g->out[1] * g->out[2];
        if (!(s = tk_reshape(oc->ctx, t[1], 4, (int64_t[]){ planes, 1, sh[2], hw }, &t[2])))
            s = pass2d(oc, max, t[2], (int64_t[]){ g->kernel[0], 1 }, (int64_t[]){ g->stride[0], 1 }, (int64_t[]){ g->dil[0], 1 }, &t[3]);
        if (!s) tk_tensor_release(t[1]), t[1] = t[3], t[3] = NULL;
    }
    if (!s) s = tk_reshape(oc->ctx, t[1], 2 + g->nsp, oshape, out);
    tko_nn_release(t, 4);
    return s;
}

/* How many cells each window counts: window sums over a [1, 1, spatial...]
 * mask of ones padded with ones over the declared pads (count_include_pad)
 * or zeros, and zeros over the ceil_mode overhang (which never counts). */
static tk_status window_counts(TkoOpCtx *oc, const PoolGeom *g, tk_dtype d, bool include_pad, tk_tensor **out)
{
    int64_t shape[2 + MAX_SPATIAL] = { 1, 1 }, p1[2 * MAX_SPATIAL], p2[2 * MAX_SPATIAL];
    for (int i = 0; i < g->nsp; i++) shape[2 + i] = g->in[i];
    tk_tensor *t[3] = { 0 };
    tk_status s = tk_ones(oc->ctx, d, 2 + g->nsp, shape, &t[0]);
    if (include_pad) {
        pad_amounts(g, true, false, p1);
        pad_amounts(g, false, true, p2);
        if (!s) s = tk_pad(oc->ctx, t[0], p1, 2 * g->nsp, TK_PAD_CONSTANT, 1.0, &t[1]);
        if (!s) s = tk_pad(oc->ctx, t[1], p2, 2 * g->nsp, TK_PAD_CONSTANT, 0.0, &t[2]);
    } else {
        pad_amounts(g, true, true, p1);
        if (!s) s = tk_pad(oc->ctx, t[0], p1, 2 * g->nsp, TK_PAD_CONSTANT, 0.0, &t[2]);
    }
    if (!s) s = window_op(oc, false, t[2], g, out);
    tko_nn_release(t, 3);
    return s;
}

/* MaxPool's Indices: for each output, the flat index into X of its window's
 * first largest in-image element (storage_order 1 counts the last two dims
 * column-major). One plane per task: deterministic on any thread count. */
typedef struct {
    const tk_tensor *x;   /* contiguous, f32 or f64 view by dtype */
    tk_tensor *idx;       /* [N, C, out...] i64 */
    const PoolGeom *g;
    bool col_major;
} ArgmaxArgs;

static void argmax_planes(int64_t begin, int64_t end, void *arg)
{
    ArgmaxArgs *a = arg;
    const PoolGeom *g = a->g;
    int64_t H = g->nsp == 2 ? g->in[0] : 1, W = g->in[g->nsp - 1];
    int64_t OH = g->nsp == 2 ? g->out[0] : 1, OW = g->out[g->nsp - 1];
    int64_t kh = g->nsp == 2 ? g->kernel[0] : 1, kw = g->kernel[g->nsp - 1];
    int64_t sh = g->nsp == 2 ? g->stride[0] : 1, sw = g->stride[g->nsp - 1];
    int64_t dh = g->nsp == 2 ? g->dil[0] : 1, dw = g->dil[g->nsp - 1];
    int64_t ph = g->nsp == 2 ? g->pad_begin[0] : 0, pw = g->pad_begin[g->nsp - 1];
    tk_dtype d = a->x->dtype;
    size_t es = tk_dtype_size(d);
    const char *xp = tkr_ptr(a->x);
    int64_t *ip = (int64_t *)tkr_ptr(a->idx);
    for (int64_t p = begin; p < end; p++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++) {
                double best = -INFINITY;
                int64_t bh = -1, bw = -1;
                for (int64_t i = 0; i < kh; i++) {
                    int64_t h = oh * sh - ph + i * dh;
                    if (h < 0 || h >= H) continue;
                    for (int64_t j = 0; j < kw; j++) {
                        int64_t w = ow * sw - pw + j * dw;
                        if (w < 0 || w >= W) continue;
                        double v = tkr_load_f(xp + (size_t)((p * H + h) * W + w) * es, d);
                        if (bh < 0 || v > best || (isnan(v) && !isnan(best))) best = v, bh = h, bw = w;
                    }
                }
                int64_t flat = a->col_major ? p * H * W + bw * H + bh : (p * H + bh) * W + bw;
                ip[(p * OH + oh) * OW + ow] = bh < 0 ? -1 : flat;
            }
}

static tk_status max_pool_indices(TkoOpCtx *oc, const tk_tensor *x, const PoolGeom *g, tk_tensor **out)
{
    int64_t shape[2 + MAX_SPATIAL] = { tk_tensor_shape(x)[0], tk_tensor_shape(x)[1] };
    for (int i = 0; i < g->nsp; i++) shape[2 + i] = g->out[i];
    tk_tensor *xc = NULL;
    tk_status s = tk_contiguous(oc->ctx, x, &xc);
    if (!s) s = tkr_new(oc->ctx, TK_DTYPE_I64, 2 + g->nsp, shape, out);
    if (!s) {
        ArgmaxArgs a = { xc, *out, g, tko_attr_int(oc->node, "storage_order", 0) == 1 };
        int64_t planes = shape[0] * shape[1];
        int64_t per = (g->out[0] * (g->nsp == 2 ? g->out[1] : 1)) * g->kernel[0] * (g->nsp == 2 ? g->kernel[1] : 1);
        tkr_parallel_for(oc->ctx, planes, per > 4096 ? 1 : 4096 / (per ? per : 1), argmax_planes, &a);
    }
    tk_tensor_release(xc);
    return tko_nn_wrap(oc, s);
}

/* A 2-d max pool whose pads are equal at both ends and at most half the
 * window, as tk_max_pool2d takes them (its clipped windows are the -inf
 * padding's result): x is read in place, so a channels-last x stays
 * channels-last and nothing is padded. TK_ERR_UNSUPPORTED (no message) where
 * it does not apply. */
static tk_status direct_max_pool(TkoOpCtx *oc, const tk_tensor *x, const PoolGeom *g, tk_tensor **out)
{
    if (g->nsp != 2 || tk_tensor_ndim(x) != 4) return TK_ERR_UNSUPPORTED;
    for (int i = 0; i < 2; i++)
        if (g->pad_begin[i] != g->pad_end[i] || g->pad_begin[i] > g->kernel[i] / 2) return TK_ERR_UNSUPPORTED;
    tk_pool_opts o = { .kernel_size = { g->kernel[0], g->kernel[1] }, .stride = { g->stride[0], g->stride[1] },
                       .padding = { g->pad_begin[0], g->pad_begin[1] }, .dilation = { g->dil[0], g->dil[1] },
                       .ceil_mode = tko_attr_int(oc->node, "ceil_mode", 0) != 0 };
    tk_status s = tk_max_pool2d(oc->ctx, x, &o, out);
    if (s) return tko_nn_wrap(oc, s);
    const int64_t *ys = tk_tensor_shape(*out);
    if (ys[2] != g->out[0] || ys[3] != g->out[1]) {   /* never expected: the two size rules agree */
        tk_tensor_release(*out);
        *out = NULL;
        return TK_ERR_UNSUPPORTED;
    }
    return TK_OK;
}

tk_status tko_nn_run_pool(TkoOpCtx *oc)
{
    PoolKind kind = (PoolKind)oc->node->def->arg;
    const tk_tensor *x = oc->in[0];
    tk_dtype d = tk_tensor_dtype(x);
    PoolGeom g;
    tk_status s = read_geom(oc, x, &g);
    if (s) return s;
    bool want_indices = kind == POOL_MAX && oc->nout > 1 && oc->node->outputs[1] != TKO_NO_VALUE;
    if (want_indices && g.nsp > 2) return tko_fail(oc, TK_ERR_UNSUPPORTED, "the Indices output of a 3-d MaxPool is not supported");
    /* the runtime pools floats; the ints ONNX allows (i8, u8) are exact in f32 */
    tk_dtype work = tk_dtype_is_float(d) ? d : TK_DTYPE_F32;
    tk_tensor *t[8] = { 0 };   /* x as work, |x|, |x|^p, padded, pooled / sums, counts, result */
    int64_t pads[2 * MAX_SPATIAL];
    pad_amounts(&g, true, true, pads);
    if (kind == POOL_MAX && !want_indices && work == d && (s = direct_max_pool(oc, x, &g, &oc->out[0])) != TK_ERR_UNSUPPORTED)
        return s;
    if ((s = tko_nn_to(oc, x, work, &t[0]))) return s;
    if (kind == POOL_MAX) {
        if ((s = tk_pad(oc->ctx, t[0], pads, 2 * g.nsp, TK_PAD_CONSTANT, -INFINITY, &t[3]))) goto done;
        if ((s = window_op(oc, true, t[3], &g, &t[6]))) goto done;
    } else {
        const tk_tensor *src = t[0];
        double p = 1;
        if (kind == POOL_LP) {   /* |x|^p summed, then the p-th root */
            p = (double)tko_attr_int(oc->node, "p", 2);
            if ((s = tk_unary(oc->ctx, TK_ABS, t[0], &t[1])) || (s = tk_binary_scalar(oc->ctx, TK_POW, t[1], p, &t[2]))) goto done;
            src = t[2];
        }
        if ((s = tk_pad(oc->ctx, src, pads, 2 * g.nsp, TK_PAD_CONSTANT, 0.0, &t[3]))) goto done;
        if ((s = window_op(oc, false, t[3], &g, &t[4]))) goto done;
        if (kind == POOL_AVG) {
            bool include = tko_attr_int(oc->node, "count_include_pad", 0) != 0;
            if ((s = window_counts(oc, &g, work, include, &t[5]))) goto done;
            s = tk_div(oc->ctx, t[4], t[5], &t[6]);
        } else s = tk_binary_scalar(oc->ctx, TK_POW, t[4], 1.0 / p, &t[6]);
        if (s) goto done;
    }
    oc->out[0] = t[6], t[6] = NULL;
    if ((s = tko_nn_as_dtype(oc, &oc->out[0], d))) goto done;
    if (want_indices) s = max_pool_indices(oc, x, &g, &oc->out[1]);
done:
    tko_nn_release(t, 8);
    if (s) {
        tko_nn_release(oc->out, oc->nout);
        return tko_nn_wrap(oc, s);
    }
    return TK_OK;
}

/* GlobalAveragePool, GlobalMaxPool, GlobalLpPool: a reduction over every spatial dim, kept. */
tk_status tko_nn_run_global_pool(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), dims[TK_MAX_DIMS];
    if (nd < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...]", nd);
    for (int i = 2; i < nd; i++) dims[i - 2] = i;
    PoolKind kind = (PoolKind)oc->node->def->arg;
    tk_reduce_opts o = { .dims = dims, .ndims = nd - 2, .keepdim = true, .p = (double)tko_attr_int(oc->node, "p", 2) };
    tk_status s = tk_reduce(oc->ctx, kind == POOL_MAX ? TK_MAX : kind == POOL_LP ? TK_NORM : TK_MEAN, x, &o, &oc->out[0]);
    return tko_nn_wrap(oc, s);
}
