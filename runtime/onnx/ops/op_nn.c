/* op_nn.c — the table of ONNX neural-network ops, and MatMul, Gemm, the
 * softmax family and Dropout on the runtime's stdlib-kernel ops (tk_matmul,
 * tk_softmax, tk_log_softmax). The others are implemented beside it, one
 * file per concern (op_nn_conv.c, ...; op_nn_common.h lists them). */
#include <math.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* MatMul: numpy's matmul (1-d operands promoted and the dim dropped again,
 * batch dims broadcast) is torch.matmul's. */
static tk_status run_matmul(TkoOpCtx *oc)
{
    return tko_nn_wrap(oc, tk_matmul(oc->ctx, oc->in[0], oc->in[1], &oc->out[0]));
}

/* Gemm: Y = alpha · A'·B' + beta · C, A' = transA ? Aᵀ : A (2-d), C
 * broadcast to [M, N]. The product runs on tk_matmul over transposed views. */
static tk_status run_gemm(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *a = oc->in[0], *b = oc->in[1], *c = oc->nin > 2 ? oc->in[2] : NULL;
    if (tk_tensor_ndim(a) != 2 || tk_tensor_ndim(b) != 2)
        return tko_fail(oc, TK_ERR_SHAPE, "A and B must be 2-d, they are %d-d and %d-d", tk_tensor_ndim(a), tk_tensor_ndim(b));
    double alpha = tko_attr_float(n, "alpha", 1.0f), beta = tko_attr_float(n, "beta", 1.0f);
    tk_dtype d = tk_tensor_dtype(a);
    tk_tensor *t[5] = { 0 };   /* Aᵀ, Bᵀ, A'B', alpha·A'B', beta·C */
    tk_status s = TK_OK;
    if (tko_attr_int(n, "transA", 0)) s = tk_transpose(oc->ctx, a, 0, 1, &t[0]), a = t[0];
    if (!s && tko_attr_int(n, "transB", 0)) s = tk_transpose(oc->ctx, b, 0, 1, &t[1]), b = t[1];
    if (!s) s = tk_matmul(oc->ctx, a, b, &t[2]);
    tk_tensor *y = t[2];
    if (!s && alpha != 1.0) s = tk_binary_scalar(oc->ctx, TK_MUL, y, alpha, &t[3]), y = t[3];
    if (!s && c && beta != 0.0) {
        if (beta != 1.0) s = tk_binary_scalar(oc->ctx, TK_MUL, c, beta, &t[4]), c = t[4];
        if (!s) s = tk_add(oc->ctx, y, c, &oc->out[0]);
    } else if (!s) oc->out[0] = tk_tensor_retain(y);
    tko_nn_release(t, 5);
    if (s) return tko_nn_wrap(oc, s);
    return tko_nn_as_dtype(oc, &oc->out[0], d);
}

/* ------------------------------------------------------------ softmax family */

typedef enum { SOFTMAX, LOG_SOFTMAX, HARDMAX } SoftmaxKind;

/* One-hot of the first largest entry along dim: argmax compared with an
 * arange laid along dim. */
static tk_status hardmax(TkoOpCtx *oc, const tk_tensor *x, int dim, tk_tensor **out)
{
    int nd = tk_tensor_ndim(x);
    int64_t size = tk_tensor_shape(x)[dim], shape[TK_MAX_DIMS];
    for (int i = 0; i < nd; i++) shape[i] = i == dim ? size : 1;
    tk_tensor *t[4] = { 0 };   /* argmax, arange, arange along dim, one-hot bool */
    tk_status s = tk_argmax(oc->ctx, x, dim, true, &t[0]);
    if (!s) s = tk_arange(oc->ctx, TK_DTYPE_I64, 0, (double)size, 1, &t[1]);
    if (!s) s = tk_reshape(oc->ctx, t[1], nd, shape, &t[2]);
    if (!s) s = tk_binary(oc->ctx, TK_EQ, t[0], t[2], &t[3]);
    if (!s) s = tk_to_dtype(oc->ctx, t[3], tk_tensor_dtype(x), out);
    tko_nn_release(t, 4);
    return s;
}

static tk_status softmax_dim(TkoOpCtx *oc, SoftmaxKind k, const tk_tensor *x, int dim, tk_tensor **out)
{
    if (k == SOFTMAX) return tk_softmax(oc->ctx, x, dim, out);
    if (k == LOG_SOFTMAX) return tk_log_softmax(oc->ctx, x, dim, out);
    return hardmax(oc, x, dim, out);
}

/* Opset 13+: along one axis (default -1). Before 13: the input flattened to
 * 2-d at axis (default 1), the op along the second dim, reshaped back. */
static tk_status run_softmax(TkoOpCtx *oc)
{
    SoftmaxKind k = (SoftmaxKind)oc->node->def->arg;
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), axis;
    bool legacy = oc->node->opset < 13;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", legacy ? 1 : -1), nd, &axis);
    if (s) return s;
    if (tk_tensor_numel(x) == 0) return tko_nn_wrap(oc, tk_clone(oc->ctx, x, &oc->out[0]));
    if (!legacy) return tko_nn_wrap(oc, softmax_dim(oc, k, x, axis, &oc->out[0]));
    int64_t rows = 1, cols = 1;
    for (int i = 0; i < nd; i++) *(i < axis ? &rows : &cols) *= tk_tensor_shape(x)[i];
    tk_tensor *flat = NULL, *y = NULL;
    s = tk_reshape(oc->ctx, x, 2, (int64_t[]){ rows, cols }, &flat);
    if (!s) s = softmax_dim(oc, k, flat, 1, &y);
    if (!s) s = tk_reshape(oc->ctx, y, nd, tk_tensor_shape(x), &oc->out[0]);
    tk_tensor_release(flat);
    tk_tensor_release(y);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ Dropout */

/* Inference (and ratio 0): Y = X, mask all true. Training with a ratio > 0
 * draws random numbers no runtime can reproduce bit for bit (the reference
 * uses NumPy's RandomState): refused at run time. */
static tk_status run_dropout(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    double ratio = tko_attr_float(n, "ratio", 0.5f);
    bool training = false;
    tk_status s;
    if (n->opset >= 12) {
        ratio = 0.5;
        if (oc->nin > 1 && oc->in[1] && (s = tko_input_scalar(oc, 1, &ratio))) return s;
        double tm = 0;
        if (oc->nin > 2 && oc->in[2] && (s = tko_input_scalar(oc, 2, &tm))) return s;
        training = tm != 0;
    } else if (n->opset < 7) training = !tko_attr_int(n, "is_test", 0);
    if (training && ratio != 0)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "training_mode with ratio %g: random dropout is not supported", ratio);
    if ((s = tko_nn_wrap(oc, tk_clone(oc->ctx, oc->in[0], &oc->out[0])))) return s;
    if (oc->nout > 1 && n->outputs[1] != TKO_NO_VALUE) {
        /* opset < 10: the mask has X's type; later it is bool */
        tk_dtype md = n->opset < 10 ? tk_tensor_dtype(oc->in[0]) : TK_DTYPE_BOOL;
        s = tk_ones(oc->ctx, md, tk_tensor_ndim(oc->in[0]), tk_tensor_shape(oc->in[0]), &oc->out[1]);
        if (s) {
            tk_tensor_release(oc->out[0]), oc->out[0] = NULL;
            return tko_nn_wrap(oc, s);
        }
    }
    return TK_OK;
}

/* Opsets 1-6 also had a training form (is_test = 0): only inference is run. */
static const char *check_batch_norm_legacy(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    if (tko_attr_int(n, "is_test", 0) != 1) {
        snprintf(why, len, "is_test=0 (training, opset %d) is not supported; inference models set is_test=1", n->opset);
        return why;
    }
    return tko_nn_check_batch_norm(m, n, why, len);
}

static const TkoOpDef defs[] = {
    OPDEF("MatMul", 1, TKO_ANY, "", run_matmul, NULL, 2, 2, 0),
    OPDEF("Gemm", 1, 6, "alpha,beta,transA,transB,broadcast", run_gemm, NULL, 3, 3, 0),   /* C broadcast when asked: a superset */
    OPDEF("Gemm", 7, TKO_ANY, "alpha,beta,transA,transB", run_gemm, NULL, 2, 3, 0),
    OPDEF("Softmax", 1, TKO_ANY, "axis", run_softmax, NULL, 1, 1, SOFTMAX),
    OPDEF("LogSoftmax", 1, TKO_ANY, "axis", run_softmax, NULL, 1, 1, LOG_SOFTMAX),
    OPDEF("Hardmax", 1, TKO_ANY, "axis", run_softmax, NULL, 1, 1, HARDMAX),
    OPDEF("Dropout", 6, 6, "ratio,is_test", run_dropout, NULL, 1, 1, 0),
    OPDEF("Dropout", 7, 11, "ratio", run_dropout, NULL, 1, 1, 0),
    OPDEF("Dropout", 12, TKO_ANY, "seed", run_dropout, NULL, 1, 3, 0),
    OPDEF("Conv", 1, TKO_ANY, "auto_pad,dilations,group,kernel_shape,pads,strides", tko_nn_run_conv, tko_nn_check_conv, 2, 3, 0),
    OPDEF("ConvTranspose", 1, TKO_ANY, "auto_pad,dilations,group,kernel_shape,output_padding,output_shape,pads,strides",
          tko_nn_run_conv_transpose, tko_nn_check_conv, 2, 3, 0),
    OPDEF("MaxPool", 1, 9, "auto_pad,kernel_shape,pads,strides,storage_order", tko_nn_run_pool, tko_nn_check_pool, 1, 1, 0),
    OPDEF("MaxPool", 10, TKO_ANY, "auto_pad,ceil_mode,dilations,kernel_shape,pads,strides,storage_order", tko_nn_run_pool,
          tko_nn_check_pool, 1, 1, 0),
    OPDEF("AveragePool", 1, 18, "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides", tko_nn_run_pool,
          tko_nn_check_pool, 1, 1, 1),
    OPDEF("AveragePool", 19, TKO_ANY, "auto_pad,ceil_mode,count_include_pad,dilations,kernel_shape,pads,strides",
          tko_nn_run_pool, tko_nn_check_pool, 1, 1, 1),
    OPDEF("LpPool", 2, TKO_ANY, "auto_pad,ceil_mode,dilations,kernel_shape,p,pads,strides", tko_nn_run_pool,
          tko_nn_check_pool, 1, 1, 2),
    OPDEF("GlobalMaxPool", 1, TKO_ANY, "", tko_nn_run_global_pool, NULL, 1, 1, 0),
    OPDEF("GlobalLpPool", 2, TKO_ANY, "p", tko_nn_run_global_pool, NULL, 1, 1, 2),
    OPDEF("GlobalAveragePool", 1, TKO_ANY, "", tko_nn_run_global_pool, NULL, 1, 1, 1),
    OPDEF("BatchNormalization", 1, 6, "consumed_inputs,epsilon,is_test,momentum,spatial", tko_nn_run_batch_norm, check_batch_norm_legacy,
          5, 5, 0),
    OPDEF("BatchNormalization", 7, 8, "epsilon,momentum,spatial", tko_nn_run_batch_norm, tko_nn_check_batch_norm, 5, 5, 0),
    OPDEF("BatchNormalization", 9, 13, "epsilon,momentum", tko_nn_run_batch_norm, tko_nn_check_batch_norm, 5, 5, 0),
    OPDEF("BatchNormalization", 14, TKO_ANY, "epsilon,momentum,training_mode", tko_nn_run_batch_norm, tko_nn_check_batch_norm,
          5, 5, 0),
    OPDEF("InstanceNormalization", 6, TKO_ANY, "epsilon", tko_nn_run_instance_norm, NULL, 3, 3, 0),
    OPDEF("GroupNormalization", 18, 20, "epsilon,num_groups", tko_nn_run_group_norm, NULL, 3, 3, 0),
    OPDEF("GroupNormalization", 21, TKO_ANY, "epsilon,num_groups,stash_type", tko_nn_run_group_norm, tko_nn_check_stash, 3, 3, 0),
    OPDEF("LayerNormalization", 17, TKO_ANY, "axis,epsilon,stash_type", tko_nn_run_layer_norm, tko_nn_check_stash, 2, 3, 0),
    OPDEF("RMSNormalization", 23, TKO_ANY, "axis,epsilon,stash_type", tko_nn_run_rms_norm, tko_nn_check_stash, 2, 2, 0),
    OPDEF("LRN", 1, TKO_ANY, "alpha,beta,bias,size", tko_nn_run_lrn, NULL, 1, 1, 0),
    OPDEF("LpNormalization", 1, TKO_ANY, "axis,p", tko_nn_run_lp_norm, tko_nn_check_lp_norm, 1, 1, 0),
    OPDEF("MeanVarianceNormalization", 9, TKO_ANY, "axes", tko_nn_run_mvn, NULL, 1, 1, 0),
    OPDEF("Attention", 23, 23, "is_causal,kv_num_heads,q_num_heads,qk_matmul_output_mode,scale,softcap,softmax_precision",
          tko_nn_run_attention, tko_nn_check_attention, 3, 6, 0),
    OPDEF("Attention", 24, 24, "is_causal,kv_num_heads,q_num_heads,qk_matmul_output_mode,scale,softcap,softmax_precision",
          tko_nn_run_attention, tko_nn_check_attention, 3, 7, 0),
    OPDEF("Attention", 25, TKO_ANY,
          "is_causal,kv_num_heads,q_num_heads,qk_matmul_output_mode,scale,softcap,softmax_precision,left_window_size,"
          "right_window_size",
          tko_nn_run_attention, tko_nn_check_attention, 3, 7, 0),
    OPDEF("Einsum", 12, TKO_ANY, "equation", tko_nn_run_einsum, NULL, 1, -1, 0),
    OPDEF("Resize", 10, 10, "mode", tko_nn_run_resize, tko_nn_check_resize, 2, 2, 0),
    OPDEF("Resize", 11, 17, "coordinate_transformation_mode,cubic_coeff_a,exclude_outside,extrapolation_value,mode,nearest_mode",
          tko_nn_run_resize, tko_nn_check_resize, 1, 4, 0),
    OPDEF("Resize", 18, TKO_ANY,
          "antialias,axes,coordinate_transformation_mode,cubic_coeff_a,exclude_outside,extrapolation_value,"
          "keep_aspect_ratio_policy,mode,nearest_mode",
          tko_nn_run_resize, tko_nn_check_resize, 1, 4, 0),
    OPDEF("Upsample", 7, 8, "mode,scales", tko_nn_run_resize, tko_nn_check_resize, 1, 1, 0),
    OPDEF("Upsample", 9, 9, "mode", tko_nn_run_resize, tko_nn_check_resize, 2, 2, 0),
    OPDEF("RotaryEmbedding", 23, TKO_ANY, "interleaved,num_heads,rotary_embedding_dim", tko_nn_run_rotary, NULL, 3, 4, 0),
};

TKO_FAMILY_OF(tko_ops_nn, defs);
