/* op_ext_pool.c — MaxPool, AveragePool and LpPool over 3 (or more) spatial
 * dims, which the nn family's pools (op_nn_pool.c, 1-d and 2-d on the
 * runtime's 2-d kernels) refuse. The rows here (opset 22, the version the
 * node suite's 3-d cases use) take over those ops for that opset and hand
 * 1-d and 2-d inputs to the nn family's check and run unchanged; 3-d and
 * more run here as one loop per (n, c) plane, in double.
 *
 * Geometry as op_nn_pool.c (ONNX's rules): windows start at o * stride -
 * pad_begin; ceil_mode adds a last window only when it starts inside the
 * input or its left pad; MaxPool skips cells outside the image, AveragePool
 * divides by the in-image cells (count_include_pad: the cells inside the
 * declared pads too, never the ceil_mode overhang), LpPool sums |x|^p. */
#include <math.h>
#include <string.h>

#include "op_ext.h"
#include "op_nn_common.h"

#define POOL_SPATIAL (TK_MAX_DIMS - 2)

typedef enum { POOL_MAX, POOL_AVG, POOL_LP } PoolKind;   /* def->arg, as op_nn_pool.c */

/* True when node n's pool is one for this file: 3+ kernel dims, or an
 * input the model says has rank 5 or more. */
static bool pool_is_nd(const TkoModel *m, const TkoNode *n)
{
    int c = 0;
    tko_attr_ints(n, "kernel_shape", &c);
    return c >= 3 || tko_nn_known_rank(m, n, 0) >= 5;
}

const char *tko_check_pool_nd(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    if (!pool_is_nd(m, n)) return tko_nn_check_pool(m, n, why, len);
    int c = 0;
    tko_attr_ints(n, "kernel_shape", &c);
    const char *ap = tko_attr_string(n, "auto_pad", "NOTSET");
    if (c == 0) snprintf(why, len, "attribute kernel_shape is required");
    else if (c > POOL_SPATIAL) snprintf(why, len, "%d-d pooling: at most %d spatial dims are supported", c, POOL_SPATIAL);
    else if (strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID"))
        snprintf(why, len, "auto_pad='%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", ap);
    else if (tko_attr_int(n, "storage_order", 0) != 0 && tko_attr_int(n, "storage_order", 0) != 1)
        snprintf(why, len, "storage_order must be 0 or 1");
    else return NULL;
    return why;
}

typedef struct {
    int nsp;
    int64_t in[POOL_SPATIAL], kernel[POOL_SPATIAL], stride[POOL_SPATIAL], dil[POOL_SPATIAL];
    int64_t pad_begin[POOL_SPATIAL], pad_end[POOL_SPATIAL], out[POOL_SPATIAL];
    int64_t in_plane, out_plane, window;
    PoolKind kind;
    bool include_pad, col_major;
    double p;
    const double *x;
    double *y;
    int64_t *indices;   /* MaxPool's second output, or NULL */
} PoolNd;

static tk_status pool_geom(TkoOpCtx *oc, const tk_tensor *x, PoolNd *g)
{
    int nd = tk_tensor_ndim(x);
    g->nsp = nd - 2;
    int64_t v[2 * POOL_SPATIAL];
    tk_status s = tko_ext_ints_attr(oc, "kernel_shape", g->nsp, 0, g->kernel);
    if (!s) s = tko_ext_ints_attr(oc, "strides", g->nsp, 1, g->stride);
    if (!s) s = tko_ext_ints_attr(oc, "dilations", g->nsp, 1, g->dil);
    if (!s) s = tko_ext_ints_attr(oc, "pads", 2 * g->nsp, 0, v);
    if (s) return s;
    const char *ap = tko_attr_string(oc->node, "auto_pad", "NOTSET");
    bool ceil_mode = tko_attr_int(oc->node, "ceil_mode", 0) != 0, same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
    g->in_plane = g->out_plane = g->window = 1;
    for (int i = 0; i < g->nsp; i++) {
        g->in[i] = tk_tensor_shape(x)[2 + i];
        if (g->kernel[i] < 1 || g->stride[i] < 1 || g->dil[i] < 1)
            return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "kernel_shape, strides and dilations must be >= 1");
        int64_t span = (g->kernel[i] - 1) * g->dil[i] + 1;
        bool notset = !strcmp(ap, "NOTSET");
        g->pad_begin[i] = notset ? v[i] : 0;
        g->pad_end[i] = notset ? v[g->nsp + i] : 0;
        if (g->pad_begin[i] < 0 || g->pad_end[i] < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "pads must be >= 0");
        if (same) {
            g->out[i] = (g->in[i] - 1) / g->stride[i] + 1;
            int64_t need = (g->out[i] - 1) * g->stride[i] + span - g->in[i];
            if (need < 0) need = 0;
            g->pad_begin[i] = !strcmp(ap, "SAME_UPPER") ? need / 2 : need - need / 2;
            g->pad_end[i] = need - g->pad_begin[i];
        } else {
            int64_t room = g->in[i] + g->pad_begin[i] + g->pad_end[i] - span;
            if (room < 0)
                return tko_fail(oc, TK_ERR_SHAPE, "the window (%lld) is larger than the padded input (%lld) along spatial dim %d", (long long)span,
                                (long long)(g->in[i] + g->pad_begin[i] + g->pad_end[i]), i);
            g->out[i] = room / g->stride[i] + 1;
            if (ceil_mode && room % g->stride[i]) {
                g->out[i]++;
                if ((g->out[i] - 1) * g->stride[i] >= g->in[i] + g->pad_begin[i]) g->out[i]--;
            }
        }
        g->in_plane *= g->in[i];
        g->out_plane *= g->out[i];
        g->window *= g->kernel[i];
    }
    return TK_OK;
}

/* One output cell of plane p: its window's cells, the last dim fastest. */
static void pool_cell(const PoolNd *g, int64_t p, int64_t o)
{
    int64_t start[POOL_SPATIAL], rest = o;
    for (int d = g->nsp - 1; d >= 0; d--) {
        start[d] = rest % g->out[d] * g->stride[d] - g->pad_begin[d];
        rest /= g->out[d];
    }
    const double *x = g->x + p * g->in_plane;
    double acc = g->kind == POOL_MAX ? -INFINITY : 0;
    int64_t counted = 0, best = -1;
    for (int64_t w = 0; w < g->window; w++) {
        int64_t wr = w, off = 0, col = 0, stride = 1, pos[POOL_SPATIAL];
        bool inside = true, in_pads = true;
        for (int d = g->nsp - 1; d >= 0; d--) {
            pos[d] = start[d] + wr % g->kernel[d] * g->dil[d];
            wr /= g->kernel[d];
            inside &= pos[d] >= 0 && pos[d] < g->in[d];
            in_pads &= pos[d] >= -g->pad_begin[d] && pos[d] < g->in[d] + g->pad_end[d];
            off += pos[d] * stride;
            stride *= g->in[d];
        }
        if (g->kind == POOL_AVG && (g->include_pad ? in_pads : inside)) counted++;
        if (!inside) continue;
        double v = x[off];
        if (g->kind != POOL_MAX) {
            acc += g->kind == POOL_AVG ? v : pow(fabs(v), g->p);
            continue;
        }
        if (best >= 0 && !(v > acc) && !(isnan(v) && !isnan(acc))) continue;
        acc = v;
        best = off;
        if (g->col_major) {   /* storage_order 1: the first spatial dim fastest */
            stride = 1;
            for (int d = 0; d < g->nsp; d++) col += pos[d] * stride, stride *= g->in[d];
            best = col;
        }
    }
    double r = acc;
    if (g->kind == POOL_AVG) r = counted ? acc / (double)counted : NAN;
    else if (g->kind == POOL_LP) r = pow(acc, 1 / g->p);
    g->y[p * g->out_plane + o] = r;
    if (g->indices) g->indices[p * g->out_plane + o] = best < 0 ? -1 : p * g->in_plane + best;
}

static void pool_range(int64_t begin, int64_t end, void *arg)
{
    const PoolNd *g = arg;
    for (int64_t i = begin; i < end; i++) pool_cell(g, i / g->out_plane, i % g->out_plane);
}

tk_status tko_run_pool_nd(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    if (tk_tensor_ndim(X) < 5) return tko_nn_run_pool(oc);
    if (tk_tensor_ndim(X) - 2 > POOL_SPATIAL) return tko_fail(oc, TK_ERR_UNSUPPORTED, "X is %d-d", tk_tensor_ndim(X));
    tk_dtype d = tk_tensor_dtype(X);
    if (!tko_ext_is_float(d) && d != TK_DTYPE_I8 && d != TK_DTYPE_U8)
        return tko_fail(oc, TK_ERR_DTYPE, "X holds %s (floats, int8 or uint8 are pooled)", tk_dtype_name(d));
    PoolNd g = { .kind = (PoolKind)oc->node->def->arg };
    tk_status s = pool_geom(oc, X, &g);
    if (s) return s;
    g.include_pad = tko_attr_int(oc->node, "count_include_pad", 0) != 0;
    g.col_major = tko_attr_int(oc->node, "storage_order", 0) == 1;
    g.p = (double)tko_attr_int(oc->node, "p", 2);
    int64_t oshape[TK_MAX_DIMS] = { tk_tensor_shape(X)[0], tk_tensor_shape(X)[1] };
    for (int i = 0; i < g.nsp; i++) oshape[2 + i] = g.out[i];
    bool want_indices = g.kind == POOL_MAX && oc->nout > 1 && oc->node->outputs[1] != TKO_NO_VALUE;
    tk_tensor *hx = NULL, *y = NULL, *ind = NULL;
    double *py;
    s = tko_ext_f64(oc, 0, &hx, &g.x);
    if (!s) s = tko_ext_new_f64(oc, g.nsp + 2, oshape, &y, &py);
    if (!s && want_indices) s = tko_wrap(oc, tk_zeros(oc->ctx, TK_DTYPE_I64, g.nsp + 2, oshape, &ind));
    if (!s) {
        g.y = py;
        g.indices = ind ? (int64_t *)tkr_ptr(ind) : NULL;
        int64_t cells = oshape[0] * oshape[1] * g.out_plane;
        tkr_parallel_for(oc->ctx, cells, g.window >= 1024 ? 1 : 1024 / g.window, pool_range, &g);
        s = tko_ext_emit(oc, 0, y, d);
        y = NULL;
    }
    if (!s && ind) {
        oc->out[1] = ind;
        ind = NULL;
    }
    tk_tensor_release(hx);
    tk_tensor_release(y);
    tk_tensor_release(ind);
    return s;
}
