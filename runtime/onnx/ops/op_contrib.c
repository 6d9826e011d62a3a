/* op_contrib.c — the com.microsoft contrib ops that ONNX Runtime's
 * optimisers and quantisers write into models (FusedMatMul, the fused Gelu
 * forms, skip / embed layer norms, attention and GroupQueryAttention, 4-bit
 * and integer MatMuls, Conv / Gemm fused with an activation, the QLinear
 * QOperator ops and QGemm), as one family.
 * This file has the table and the small element-wise and matmul ops; the
 * norms, attention and quantized matmuls live in op_contrib_*.c. Semantics
 * follow ONNX Runtime 1.32's CPU kernels (tests/onnx/gen_contrib_cases.py
 * checks against it). Results keep the input's element type. */
#include <math.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

bool tko_contrib_wanted(const TkoOpCtx *oc, int o)
{
    return oc->nout > o && oc->node->outputs[o] != TKO_NO_VALUE;
}

/* ------------------------------------------------------------ FusedMatMul */

static const char *check_fused_matmul(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr_int(n, "transBatchA", 0) || tko_attr_int(n, "transBatchB", 0))
        return tko_nn_why(why, len, "transBatchA / transBatchB are not supported");
    return NULL;
}

/* t, or t with its last two dims swapped when trans (and t is 2-d or more). */
static tk_status maybe_transposed(TkoOpCtx *oc, const tk_tensor *t, bool trans, tk_tensor **out)
{
    if (!trans || tk_tensor_ndim(t) < 2) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return TK_OK;
    }
    return tk_transpose(oc->ctx, t, -2, -1, out);
}

/* Y = alpha · op(A) · op(B), op a transpose of the last two dims when asked. */
static tk_status run_fused_matmul(TkoOpCtx *oc)
{
    const tk_tensor *a = oc->in[0], *b = oc->in[1];
    tk_dtype d = tk_tensor_dtype(a);
    if (!tk_dtype_is_float(d) || tk_tensor_dtype(b) != d)
        return tko_fail(oc, TK_ERR_DTYPE, "A is %s and B %s; both must be one float type", tk_dtype_name(d),
                        tk_dtype_name(tk_tensor_dtype(b)));
    double alpha = tko_attr_float(oc->node, "alpha", 1.0f);
    tk_tensor *t[3] = { 0 };
    tk_status s = maybe_transposed(oc, a, tko_attr_int(oc->node, "transA", 0) != 0, &t[0]);
    if (!s) s = maybe_transposed(oc, b, tko_attr_int(oc->node, "transB", 0) != 0, &t[1]);
    if (!s) s = tk_matmul(oc->ctx, t[0], t[1], alpha == 1.0 ? &oc->out[0] : &t[2]);
    if (!s && alpha != 1.0) s = tk_binary_scalar(oc->ctx, TK_MUL, t[2], alpha, &oc->out[0]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    tko_nn_release(t, 3);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ Gelu forms, BiasAdd */

enum { GELU_FAST, GELU_BIAS, GELU_QUICK, BIAS_ADD, BIAS_SPLIT_GELU };

/* x + bias (+ skip) for the inputs present; a new reference. */
static tk_status biased(TkoOpCtx *oc, tk_tensor **out)
{
    *out = tk_tensor_retain(oc->in[0]);
    for (int i = 1; i < oc->nin; i++) {
        if (!oc->in[i]) continue;
        tk_tensor *r = NULL;
        tk_status s = tk_add(oc->ctx, *out, oc->in[i], &r);
        tk_tensor_release(*out);
        *out = r;
        if (s) return s;
    }
    return TK_OK;
}

/* FastGelu: gelu_tanh(x + bias); BiasGelu: gelu(x + bias) (erf form);
 * QuickGelu: x · sigmoid(alpha · x); BiasAdd: x + bias + skip;
 * BiasSplitGelu: h = x + bias split in halves on the last dim, left · gelu(right). */
static tk_status run_gelu_form(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    tk_dtype d = tk_tensor_dtype(oc->in[0]);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "X is %s; it must be a float type", tk_dtype_name(d));
    tk_tensor *t[6] = { 0 };
    tk_status s = TK_OK;
    switch (oc->node->def->arg) {
    case GELU_FAST:
        if (!(s = biased(oc, &t[0]))) s = tk_unary(ctx, TK_GELU_TANH, t[0], &oc->out[0]);
        break;
    case GELU_BIAS:
        if (!(s = biased(oc, &t[0]))) s = tk_unary(ctx, TK_GELU, t[0], &oc->out[0]);
        break;
    case GELU_QUICK: {
        double alpha = tko_attr_float(oc->node, "alpha", 1.702f);
        if (!(s = tk_binary_scalar(ctx, TK_MUL, oc->in[0], alpha, &t[0])) && !(s = tk_unary(ctx, TK_SIGMOID, t[0], &t[1])))
            s = tk_mul(ctx, oc->in[0], t[1], &oc->out[0]);
        break;
    }
    case BIAS_ADD:
        s = biased(oc, &oc->out[0]);
        break;
    default: {   /* BIAS_SPLIT_GELU */
        int64_t width = tk_tensor_ndim(oc->in[0]) ? tk_tensor_shape(oc->in[0])[tk_tensor_ndim(oc->in[0]) - 1] : 0;
        if (width % 2) return tko_fail(oc, TK_ERR_SHAPE, "X's last dim %lld is odd; it must split in halves", (long long)width);
        if ((s = biased(oc, &t[0])) || (s = tk_slice(ctx, t[0], -1, 0, width / 2, 1, &t[1])) ||
            (s = tk_slice(ctx, t[0], -1, width / 2, width, 1, &t[2])) || (s = tk_unary(ctx, TK_GELU, t[2], &t[3])))
            break;
        s = tk_mul(ctx, t[1], t[3], &oc->out[0]);
        break;
    }
    }
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    tko_nn_release(t, 6);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

static const TkoOpDef defs[] = {
    MSDEF("FusedMatMul", 1, TKO_ANY, "alpha,transA,transB,transBatchA,transBatchB", run_fused_matmul, check_fused_matmul, 2, 2, 0),
    MSDEF("FastGelu", 1, TKO_ANY, "", run_gelu_form, NULL, 1, 2, GELU_FAST),
    MSDEF("BiasGelu", 1, TKO_ANY, "", run_gelu_form, NULL, 2, 2, GELU_BIAS),
    MSDEF("QuickGelu", 1, TKO_ANY, "alpha", run_gelu_form, NULL, 1, 1, GELU_QUICK),
    MSDEF("BiasAdd", 1, TKO_ANY, "", run_gelu_form, NULL, 3, 3, BIAS_ADD),
    MSDEF("BiasSplitGelu", 1, TKO_ANY, "", run_gelu_form, NULL, 2, 2, BIAS_SPLIT_GELU),
    MSDEF("SkipLayerNormalization", 1, TKO_ANY, "epsilon", tko_contrib_run_skip_layer_norm, NULL, 3, 5, 0),
    MSDEF("SkipSimplifiedLayerNormalization", 1, TKO_ANY, "epsilon", tko_contrib_run_skip_layer_norm, NULL, 3, 4, 1),
    /* ONNX Runtime registers these in the ONNX domain: LayerNormalization
     * before ONNX had it (opset 17), as its optimiser writes it into older models */
    OPDEF("LayerNormalization", 1, 16, "axis,epsilon,stash_type", tko_nn_run_layer_norm, tko_nn_check_stash, 2, 3, 0),
    OPDEF("SimplifiedLayerNormalization", 1, TKO_ANY, "axis,epsilon,stash_type", tko_contrib_run_simplified_layer_norm,
          tko_nn_check_stash, 2, 2, 0),
    MSDEF("EmbedLayerNormalization", 1, TKO_ANY, "epsilon,mask_index_type", tko_contrib_run_embed_layer_norm,
          tko_contrib_check_embed_layer_norm, 7, 9, 0),
    MSDEF("MultiHeadAttention", 1, TKO_ANY, "num_heads,mask_filter_value,scale,unidirectional", tko_contrib_run_mha,
          tko_contrib_check_mha, 1, 8, 0),
    MSDEF("Attention", 1, TKO_ANY, "num_heads,qkv_hidden_sizes,unidirectional,mask_filter_value,scale,do_rotary,past_present_share_buffer,rotary_embedding_dim",
          tko_contrib_run_attention, tko_contrib_check_attention, 1, 7, 0),
    MSDEF("GroupQueryAttention", 1, TKO_ANY,
          "num_heads,kv_num_heads,scale,do_rotary,rotary_interleaved,local_window_size,softcap,smooth_softmax,qk_output",
          tko_contrib_run_gqa, tko_contrib_check_gqa, 7, 9, 0),
    MSDEF("RotaryEmbedding", 1, TKO_ANY, "interleaved,num_heads,rotary_embedding_dim,scale,is_packed_batching", tko_contrib_run_rotary,
          tko_contrib_check_rotary, 4, 4, 0),
    MSDEF("MatMulNBits", 1, TKO_ANY, "K,N,bits,block_size,accuracy_level", tko_contrib_run_matmul_nbits,
          tko_contrib_check_matmul_nbits, 3, 6, 0),
    MSDEF("DynamicQuantizeMatMul", 1, TKO_ANY, "", tko_contrib_run_dynamic_quantize_matmul, NULL, 3, 5, 0),
    MSDEF("MatMulBnb4", 1, TKO_ANY, "K,N,block_size,quant_type", tko_contrib_run_matmul_bnb4, tko_contrib_check_matmul_bnb4, 3, 3, 0),
    MSDEF("GatherBlockQuantized", 1, TKO_ANY, "bits,block_size,gather_axis,quantize_axis", tko_contrib_run_gather_block_quantized,
          tko_contrib_check_gather_block_quantized, 3, 4, 0),
    MSDEF("MatMulIntegerToFloat", 1, TKO_ANY, "", tko_contrib_run_matmul_integer_to_float, NULL, 4, 7, 0),
    MSDEF("FusedConv", 1, TKO_ANY, "activation,activation_params,auto_pad,dilations,group,kernel_shape,pads,strides",
          tko_contrib_run_fused_conv, tko_contrib_check_activation, 2, 4, 0),
    MSDEF("FusedGemm", 1, TKO_ANY, "activation,activation_alpha,activation_beta,activation_gamma,alpha,beta,transA,transB",
          tko_contrib_run_fused_gemm, tko_contrib_check_activation, 2, 3, 0),
    MSDEF("GemmFastGelu", 1, TKO_ANY, "", tko_contrib_run_gemm_fast_gelu, NULL, 2, 3, 0),
    MSDEF("QLinearAdd", 1, TKO_ANY, "", tko_contrib_run_qlinear, NULL, 7, 8, 0),
    MSDEF("QLinearMul", 1, TKO_ANY, "", tko_contrib_run_qlinear, NULL, 7, 8, 1),
    MSDEF("QLinearSigmoid", 1, TKO_ANY, "", tko_contrib_run_qlinear, NULL, 4, 5, 2),
    MSDEF("QLinearLeakyRelu", 1, TKO_ANY, "alpha", tko_contrib_run_qlinear, NULL, 4, 5, 3),
    MSDEF("QLinearGlobalAveragePool", 1, TKO_ANY, "channels_last", tko_contrib_run_qlinear, NULL, 5, 5, 4),
    MSDEF("QGemm", 1, TKO_ANY, "alpha,transA,transB", tko_contrib_run_qgemm, NULL, 6, 9, 0),
    MSDEF("QLinearAveragePool", 1, TKO_ANY, "auto_pad,ceil_mode,channels_last,count_include_pad,kernel_shape,pads,strides",
          tko_contrib_run_qlinear_average_pool, tko_nn_check_pool, 4, 5, 0),
    MSDEF("QLinearSoftmax", 1, TKO_ANY, "axis,opset", tko_contrib_run_qlinear_softmax, NULL, 4, 5, 0),
    MSDEF("QLinearConcat", 1, TKO_ANY, "axis", tko_contrib_run_qlinear_concat, NULL, 5, -1, 0),
    /* the ONNX ops of opset 13 / 14 under ONNX Runtime's domain */
    MSDEF("QuantizeLinear", 1, TKO_ANY, "axis", tko_contrib_run_as_onnx, NULL, 2, 3, 0),
    MSDEF("DequantizeLinear", 1, TKO_ANY, "axis", tko_contrib_run_as_onnx, NULL, 2, 3, 0),
    MSDEF("Trilu", 1, TKO_ANY, "upper", tko_contrib_run_as_onnx, NULL, 1, 2, 0),
};
TKO_FAMILY_OF(tko_ops_contrib, defs);
