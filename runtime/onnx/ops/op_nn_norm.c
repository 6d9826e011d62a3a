/* op_nn_norm.c — ONNX normalisations on the runtime's norm ops:
 * BatchNormalization (tk_batch_norm; training_mode from batch statistics),
 * InstanceNormalization and GroupNormalization (tk_group_norm),
 * LayerNormalization (tk_layer_norm, with the Mean / InvStdDev outputs) and
 * RMSNormalization (tk_rms_norm) on the stdlib norm kernels, LRN (channel
 * window sums as a ones-kernel conv), LpNormalization and
 * MeanVarianceNormalization (reductions). The runtime's norms compute their
 * statistics in f32 or wider, which is stash_type 1, ONNX's default. */
#include <math.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ BatchNormalization */

const char *tko_nn_check_batch_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (n->opset < 14 && n->nout > 1)
        return tko_nn_why(why, len, "the training outputs of opset %d (saved mean/var) are not supported", n->opset);
    if (tko_attr_int(n, "spatial", 1) != 1) return tko_nn_why(why, len, "spatial=0 (per-element statistics) is not supported");
    return NULL;
}

/* Training mode (opset 14+): normalised with the batch's mean and population
 * variance over every dim but C; running_mean / running_var outputs are
 * input · momentum + batch · (1 - momentum). */
static tk_status batch_norm_training(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), dims[TK_MAX_DIMS], k = 0;
    for (int i = 0; i < nd; i++)
        if (i != 1) dims[k++] = i;
    double momentum = tko_attr_float(oc->node, "momentum", 0.9f), eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    tk_reduce_opts ro = { .dims = dims, .ndims = k, .population = true };
    tk_tensor *t[6] = { 0 };   /* batch mean, batch var, scaled running, scaled batch (mean, then var) */
    tk_status s = tk_reduce(oc->ctx, TK_MEAN, x, &ro, &t[0]);
    if (!s) s = tk_reduce(oc->ctx, TK_VAR, x, &ro, &t[1]);
    if (!s) s = tk_batch_norm(oc->ctx, x, t[0], t[1], oc->in[1], oc->in[2], eps, &oc->out[0]);
    for (int o = 1; o <= 2 && !s; o++) {
        if (oc->nout <= o || oc->node->outputs[o] == TKO_NO_VALUE) continue;
        tk_tensor_release(t[2]), tk_tensor_release(t[3]), t[2] = t[3] = NULL;
        if (!(s = tk_binary_scalar(oc->ctx, TK_MUL, oc->in[2 + o], momentum, &t[2])) &&
            !(s = tk_binary_scalar(oc->ctx, TK_MUL, t[o - 1], 1.0 - momentum, &t[3])) &&
            !(s = tk_add(oc->ctx, t[2], t[3], &oc->out[o])))
            s = tko_nn_as_dtype(oc, &oc->out[o], tk_tensor_dtype(oc->in[2 + o]));
    }
    tko_nn_release(t, 6);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}

tk_status tko_nn_run_batch_norm(TkoOpCtx *oc)
{
    if (oc->node->opset >= 14 && tko_attr_int(oc->node, "training_mode", 0)) return batch_norm_training(oc);
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    return tko_nn_wrap(oc, tk_batch_norm(oc->ctx, oc->in[0], oc->in[3], oc->in[4], oc->in[1], oc->in[2], eps, &oc->out[0]));
}

/* ------------------------------------------------------------ Instance / Group */

/* tk_group_norm with per-channel scale and bias; the runtime takes those in
 * f32, so for f64 they are applied after, in f64, as [C, 1, ...]. */
static tk_status group_norm_affine(TkoOpCtx *oc, const tk_tensor *x, int64_t groups, const tk_tensor *w, const tk_tensor *b, double eps,
                                   tk_tensor **out)
{
    if (tk_tensor_dtype(x) != TK_DTYPE_F64) return tk_group_norm(oc->ctx, x, groups, w, b, eps, out);
    int nd = tk_tensor_ndim(x);
    int64_t shape[TK_MAX_DIMS] = { tk_tensor_shape(x)[1] };
    for (int i = 1; i < nd - 1; i++) shape[i] = 1;
    tk_tensor *t[5] = { 0 };   /* normalised, scale and bias as [C, 1, ...], scaled */
    tk_status s = tk_group_norm(oc->ctx, x, groups, NULL, NULL, eps, &t[0]);
    if (!s) s = tk_reshape(oc->ctx, w, nd - 1, shape, &t[1]);
    if (!s) s = tk_reshape(oc->ctx, b, nd - 1, shape, &t[2]);
    if (!s) s = tk_mul(oc->ctx, t[0], t[1], &t[3]);
    if (!s) s = tk_add(oc->ctx, t[3], t[2], &t[4]);
    if (!s) s = tk_to_dtype(oc->ctx, t[4], TK_DTYPE_F64, out);
    tko_nn_release(t, 5);
    return s;
}

tk_status tko_nn_run_instance_norm(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_ndim(x) < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...]", tk_tensor_ndim(x));
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    return tko_nn_wrap(oc, group_norm_affine(oc, x, tk_tensor_shape(x)[1], oc->in[1], oc->in[2], eps, &oc->out[0]));
}

/* Opset 18 gives scale and bias per group ([G]); 21 per channel ([C]), as tk_group_norm. */
tk_status tko_nn_run_group_norm(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_ndim(x) < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...]", tk_tensor_ndim(x));
    int64_t groups = tko_attr_int(oc->node, "num_groups", 0), c = tk_tensor_shape(x)[1];
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    if (groups < 1 || c % groups)
        return tko_fail(oc, TK_ERR_SHAPE, "num_groups %lld does not divide C = %lld", (long long)groups, (long long)c);
    tk_tensor *t[4] = { 0 };
    const tk_tensor *w = oc->in[1], *b = oc->in[2];
    tk_status s = TK_OK;
    if (oc->node->opset < 21 && tk_tensor_numel(w) == groups && groups != c) {   /* each group's value repeated over its channels */
        int64_t g1[2] = { groups, 1 }, gc[2] = { groups, c / groups }, cc[1] = { c };
        tk_tensor *v = NULL, *e = NULL;
        for (int k = 0; k < 2 && !s; k++) {
            const tk_tensor *p = k ? b : w;
            if (!(s = tk_reshape(oc->ctx, p, 2, g1, &v)) && !(s = tk_expand(oc->ctx, v, 2, gc, &e)))
                s = tk_reshape(oc->ctx, e, 1, cc, &t[k]);
            tk_tensor_release(v), tk_tensor_release(e), v = e = NULL;
        }
        w = t[0], b = t[1];
    }
    if (!s) s = group_norm_affine(oc, x, groups, w, b, eps, &oc->out[0]);
    tko_nn_release(t, 4);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ Layer / RMS */

const char *tko_nn_check_stash(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr_int(n, "stash_type", 1) != 1)
        return tko_nn_why(why, len, "stash_type=%lld is not supported (statistics are computed in f32)",
                          (long long)tko_attr_int(n, "stash_type", 1));
    return NULL;
}

/* True when p's shape is exactly x's last nn dims (what the runtime's norms take). */
static bool fits_last_dims(const tk_tensor *p, const tk_tensor *x, int nn)
{
    if (!p) return true;
    if (tk_tensor_ndim(p) != nn) return false;
    for (int i = 0; i < nn; i++)
        if (tk_tensor_shape(p)[i] != tk_tensor_shape(x)[tk_tensor_ndim(x) - nn + i]) return false;
    return true;
}

/* LayerNormalization (rms = false) and RMSNormalization (rms = true) over
 * the dims from axis on. Scale and bias of that shape go to the kernel; ones
 * that only broadcast to it are applied after. */
static tk_status norm_last(TkoOpCtx *oc, bool rms)
{
    const tk_tensor *x = oc->in[0], *w = oc->in[1], *b = rms || oc->nin < 3 ? NULL : oc->in[2];
    int nd = tk_tensor_ndim(x), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), nd, &axis);
    if (s) return s;
    int nn = nd - axis;
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    /* the kernels take scale and bias in f32: f64 applies them after, in f64 */
    bool direct = fits_last_dims(w, x, nn) && fits_last_dims(b, x, nn) && tk_tensor_dtype(x) != TK_DTYPE_F64;
    tk_tensor *t[2] = { 0 };
    if (rms) s = tk_rms_norm(oc->ctx, x, nn, direct ? w : NULL, eps, direct ? &oc->out[0] : &t[0]);
    else s = tk_layer_norm(oc->ctx, x, nn, direct ? w : NULL, direct ? b : NULL, eps, direct ? &oc->out[0] : &t[0]);
    if (!s && !direct) {
        if (b) {
            if (!(s = tk_mul(oc->ctx, t[0], w, &t[1]))) s = tk_add(oc->ctx, t[1], b, &oc->out[0]);
        } else s = tk_mul(oc->ctx, t[0], w, &oc->out[0]);
        if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
    }
    tko_nn_release(t, 2);
    return tko_nn_wrap(oc, s);
}

/* LayerNormalization's Mean and InvStdDev outputs: [d0 .. d(axis-1), 1, ...],
 * of the stash type (f32 for stash_type 1, whatever X is, as ONNX's type
 * inference and ONNX Runtime have it; the reference casts to X's type). */
static tk_status layer_norm_stats(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), axis, dims[TK_MAX_DIMS];
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), nd, &axis);
    if (s) return s;
    for (int i = axis; i < nd; i++) dims[i - axis] = i;
    tk_reduce_opts ro = { .dims = dims, .ndims = nd - axis, .keepdim = true, .population = true };
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    tk_dtype work = tk_tensor_dtype(x) == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    tk_tensor *t[4] = { 0 }, *mean = NULL;
    if ((s = tko_nn_to(oc, x, work, &t[0]))) return s;
    s = tk_reduce(oc->ctx, TK_MEAN, t[0], &ro, &mean);
    if (!s && oc->nout > 2 && oc->node->outputs[2] != TKO_NO_VALUE) {
        if (!(s = tk_reduce(oc->ctx, TK_VAR, t[0], &ro, &t[1])) && !(s = tk_binary_scalar(oc->ctx, TK_ADD, t[1], eps, &t[2])))
            s = tk_unary(oc->ctx, TK_RSQRT, t[2], &oc->out[2]);
        if (!s) s = tko_nn_as_dtype(oc, &oc->out[2], TK_DTYPE_F32);
    }
    if (!s && oc->node->outputs[1] != TKO_NO_VALUE) {
        oc->out[1] = mean, mean = NULL;
        s = tko_nn_as_dtype(oc, &oc->out[1], TK_DTYPE_F32);
    }
    tk_tensor_release(mean);
    tko_nn_release(t, 4);
    return tko_nn_wrap(oc, s);
}

tk_status tko_nn_run_layer_norm(TkoOpCtx *oc)
{
    tk_status s = norm_last(oc, false);
    if (!s && oc->nout > 1) s = layer_norm_stats(oc);
    if (s) tko_nn_release(oc->out, oc->nout);
    return s;
}

tk_status tko_nn_run_rms_norm(TkoOpCtx *oc)
{
    return norm_last(oc, true);
}

/* ------------------------------------------------------------ LRN */

/* y = x / (bias + alpha/size · Σ x²)^beta, the sum over the channels
 * c - ⌊(size-1)/2⌋ .. c + ⌈(size-1)/2⌉: x² as [N, 1, C, rest], zero-padded
 * along C and summed by a [size, 1] ones kernel. */
tk_status tko_nn_run_lrn(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    if (nd < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...]", nd);
    int64_t size = tko_attr_int(oc->node, "size", 0);
    if (size < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "size %lld must be >= 1", (long long)size);
    double alpha = tko_attr_float(oc->node, "alpha", 1e-4f), beta = tko_attr_float(oc->node, "beta", 0.75f),
           bias = tko_attr_float(oc->node, "bias", 1.0f);
    const int64_t *xs = tk_tensor_shape(x);
    int64_t planes = xs[0] * xs[1], rest = planes ? tk_tensor_numel(x) / planes : 0;
    int64_t shape4[4] = { xs[0], 1, xs[1], rest }, ks[4] = { 1, 1, size, 1 };
    int64_t pads[4] = { 0, 0, (size - 1) / 2, size / 2 };   /* last dim first: none along rest, then C */
    tk_tensor *t[8] = { 0 };
    tk_status s = tk_binary(oc->ctx, TK_MUL, x, x, &t[0]);
    if (!s) s = tk_reshape(oc->ctx, t[0], 4, shape4, &t[1]);
    if (!s) s = tk_pad(oc->ctx, t[1], pads, 4, TK_PAD_CONSTANT, 0.0, &t[2]);
    if (!s) s = tk_ones(oc->ctx, tk_tensor_dtype(x), 4, ks, &t[3]);
    if (!s) s = tk_conv2d(oc->ctx, t[2], t[3], NULL, NULL, &t[4]);
    if (!s) s = tk_reshape(oc->ctx, t[4], nd, xs, &t[5]);
    if (!s) {
        tk_tensor *a = NULL;
        if (!(s = tk_binary_scalar(oc->ctx, TK_MUL, t[5], alpha / (double)size, &a)) &&
            !(s = tk_binary_scalar(oc->ctx, TK_ADD, a, bias, &t[6])))
            s = tk_binary_scalar(oc->ctx, TK_POW, t[6], beta, &t[7]);
        tk_tensor_release(a);
    }
    if (!s) s = tk_div(oc->ctx, x, t[7], &oc->out[0]);
    tko_nn_release(t, 8);
    if (s) return tko_nn_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
}

/* ------------------------------------------------------------ Lp, MVN */

const char *tko_nn_check_lp_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t p = tko_attr_int(n, "p", 2);
    if (p != 1 && p != 2) return tko_nn_why(why, len, "p=%lld: only 1 and 2 are defined", (long long)p);
    return NULL;
}

/* y = x / ‖x‖_p along axis; 0 where the norm is 0 (ONNX's 0/0 = 0). */
tk_status tko_nn_run_lp_norm(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), tk_tensor_ndim(x), &axis);
    if (s) return s;
    tk_reduce_opts ro = { .dims = &axis, .ndims = 1, .keepdim = true, .p = (double)tko_attr_int(oc->node, "p", 2) };
    tk_tensor *t[4] = { 0 };   /* norm, x / norm, norm == 0, zeros */
    s = tk_reduce(oc->ctx, TK_NORM, x, &ro, &t[0]);
    if (!s) s = tk_div(oc->ctx, x, t[0], &t[1]);
    if (!s) s = tk_binary_scalar(oc->ctx, TK_EQ, t[0], 0.0, &t[2]);
    if (!s) s = tk_zeros(oc->ctx, tk_tensor_dtype(t[1]), 0, NULL, &t[3]);
    if (!s) s = tk_where(oc->ctx, t[2], t[3], t[1], &oc->out[0]);
    tko_nn_release(t, 4);
    if (s) return tko_nn_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
}

/* y = (x - mean) / (std + 1e-9) over axes (default 0, 2, 3), std the population one. */
tk_status tko_nn_run_mvn(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), dims[TK_MAX_DIMS], k = 0, c;
    const int64_t *axes = tko_attr_ints(oc->node, "axes", &c);
    static const int64_t dflt[3] = { 0, 2, 3 };
    if (!axes) axes = dflt, c = 3;
    if (c > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_SHAPE, "axes has %d values for a %d-d input", c, nd);
    tk_status s;
    for (int i = 0; i < c; i++)
        if ((s = tko_axis(oc, axes[i], nd, &dims[k++]))) return s;
    tk_reduce_opts ro = { .dims = dims, .ndims = k, .keepdim = true, .population = true };
    tk_tensor *t[4] = { 0 };
    s = tk_reduce(oc->ctx, TK_MEAN, x, &ro, &t[0]);
    if (!s) s = tk_reduce(oc->ctx, TK_STD, x, &ro, &t[1]);
    if (!s) s = tk_binary_scalar(oc->ctx, TK_ADD, t[1], 1e-9, &t[2]);
    if (!s) s = tk_sub(oc->ctx, x, t[0], &t[3]);
    if (!s) s = tk_div(oc->ctx, t[3], t[2], &oc->out[0]);
    tko_nn_release(t, 4);
    if (s) return tko_nn_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
}
