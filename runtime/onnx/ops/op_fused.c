/* op_fused.c — the nodes graph_fuse.c makes (domain "tk"; never in a file):
 *
 *   FusedLinear(x, wt, [bias], [r])     MatMul(x, W) [+ bias] [-> act] [+ r]: tk_linear on a
 *                                       marked [N, K] view of the constant W, packed once;
 *                                       attr act (TkoAct, graph_fuse.h) and the residual r in
 *                                       the gemm kernel's store where it has them (relu, gelu
 *                                       tanh, silu; unpacked weights), else in place on the
 *                                       fresh result
 *   FusedFfn(x, w1, [w3], w2, [b1], [b2], [r])
 *                                       Linear -> act -> Linear, or SwiGLU: tk_ffn (attr
 *                                       activation, a tk_ffn_activation), then + r in place
 *   FusedAttention(q, k, v, [mask])     MatMul(q, kᵀ) [·scale] [+ mask] -> Softmax -> MatMul(·, v):
 *                                       tk_sdpa (the stdlib flash / decode kernels)
 *                                       attrs: k_perm (k's permutation to [.., S, D]), scale
 *   FusedGelu(x)                        x·(erf(x/√2) + 1)·0.5: one tk_unary(TK_GELU); attr tanh = 1:
 *                                       the tanh form's expansion, one tk_unary(TK_GELU_TANH)
 *   FusedConv(x, w, [b])                Conv [-> BatchNormalization, folded into w, b] [-> Relu | Clip]:
 *                                       tk_conv2d; attrs: Conv's, relu and clip [lo, hi] (both
 *                                       in the kernels' store: tk_conv_opts relu, clamp), channels_last
 *                                       (the result left in NHWC memory for its readers); bf16
 *                                       (tk_onnx_opts.bf16: its weight made bf16 at load) runs it in
 *                                       bf16 on an f32 x, bf16_out keeps the result bf16
 */
#include <string.h>

#include "graph_fuse.h"
#include "ops/matmul_internal.h"
#include "op.h"
#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* out += r in place where r broadcasts to out's shape (the residual of a
 * FusedLinear or FusedFfn; out is the node's fresh result), else out + r. */
static tk_status add_residual(TkoOpCtx *oc, const tk_tensor *r)
{
    tk_tensor *y = oc->out[0];
    int ny = tk_tensor_ndim(y), nr = tk_tensor_ndim(r);
    bool in_place = nr <= ny && tk_tensor_dtype(r) == tk_tensor_dtype(y);
    for (int k = 1; k <= nr && in_place; k++) {
        int64_t dr = tk_tensor_shape(r)[nr - k], dy = tk_tensor_shape(y)[ny - k];
        in_place = dr == dy || dr == 1;
    }
    if (in_place) return tko_wrap(oc, tk_add_(oc->ctx, y, r));
    tk_tensor *sum = NULL;
    tk_status s = tko_wrap(oc, tk_add(oc->ctx, y, r, &sum));
    if (s) return s;
    tk_tensor_release(y);
    oc->out[0] = sum;
    return TK_OK;
}

static TkrGemmAct gemm_act(TkoAct a)
{
    return a == TKO_ACT_RELU ? TKR_GEMM_ACT_RELU : a == TKO_ACT_GELU_TANH ? TKR_GEMM_ACT_GELU_TANH : a == TKO_ACT_SILU ? TKR_GEMM_ACT_SILU
                                                                                                                       : TKR_GEMM_ACT_NONE;
}

static tk_status run_linear(TkoOpCtx *oc)
{
    const tk_tensor *bias = oc->nin > 2 ? oc->in[2] : NULL, *res = oc->nin > 3 ? oc->in[3] : NULL;
    TkoAct act = (TkoAct)tko_attr_int(oc->node, "act", TKO_ACT_NONE);
    TkrGemmAct ga = gemm_act(act);
    bool in_kernel = act == TKO_ACT_NONE || ga != TKR_GEMM_ACT_NONE;   /* an activation gemm.tk's epilogue has */
    bool fused = false;
    tk_status s = tko_wrap(oc, tkr_linear_ep(oc->ctx, oc->in[0], oc->in[1], bias, ga, in_kernel ? res : NULL, &fused, &oc->out[0]));
    if (s || (fused && in_kernel)) return s;
    /* no epilogue ran: both in place on the linear's fresh result */
    static const tk_unary_op ops[] = { [TKO_ACT_RELU] = TK_RELU,     [TKO_ACT_GELU_TANH] = TK_GELU_TANH, [TKO_ACT_SILU] = TK_SILU,
                                       [TKO_ACT_GELU_ERF] = TK_GELU, [TKO_ACT_SIGMOID] = TK_SIGMOID,     [TKO_ACT_TANH] = TK_TANH };
    if (act > TKO_ACT_NONE && act <= TKO_ACT_TANH) s = tko_wrap(oc, tk_unary_(oc->ctx, ops[act], oc->out[0]));
    if (!s && res) s = add_residual(oc, res);
    return s;
}

static tk_status run_ffn(TkoOpCtx *oc)
{
    tk_ffn_opts o = { .activation = (tk_ffn_activation)tko_attr_int(oc->node, "activation", TK_FFN_SWIGLU),
                      .b1 = oc->nin > 4 ? oc->in[4] : NULL,
                      .b2 = oc->nin > 5 ? oc->in[5] : NULL };
    tk_status s = tko_wrap(oc, tk_ffn(oc->ctx, oc->in[0], oc->in[1], oc->in[2], oc->in[3], &o, &oc->out[0]));
    if (!s && oc->nin > 6 && oc->in[6]) s = add_residual(oc, oc->in[6]);
    return s;
}

/* Rank 3 [BH, S, D] gets a leading 1; rank 4 is as tk_sdpa wants it. */
static tk_status as4d(TkoOpCtx *oc, const tk_tensor *t, tk_tensor **out)
{
    if (tk_tensor_ndim(t) == 4) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return TK_OK;
    }
    return tko_wrap(oc, tk_unsqueeze(oc->ctx, t, 0, out));
}

/* Narrow heads or a short key sequence (a small encoder's 16-wide heads
 * over 10 tokens): the flash kernel's 64-wide tiles would be mostly padding,
 * so the product, softmax and product run as the batched gemm and softmax
 * kernels instead — the same arithmetic the graph spelled out. */
static tk_status small_attention(TkoOpCtx *oc, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_tensor *mask,
                                 double scale, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    tk_tensor *kt = NULL, *sc = NULL, *sm = NULL, *p = NULL;
    tk_status s = tk_transpose(ctx, k, 2, 3, &kt);
    if (!s) s = tk_matmul(ctx, q, kt, &sc);
    if (!s && scale != 1.0) s = tk_binary_scalar_(ctx, TK_MUL, sc, scale);
    if (!s && mask) s = tk_add_(ctx, sc, mask);
    if (!s) s = tk_softmax(ctx, sc, -1, &p);
    if (!s) s = tk_matmul(ctx, p, v, out);
    tk_tensor_release(kt), tk_tensor_release(sc), tk_tensor_release(sm), tk_tensor_release(p);
    return tko_wrap(oc, s);
}

static tk_status run_attention(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    int np;
    const int64_t *perm = tko_attr_ints(n, "k_perm", &np);
    tk_tensor *k = NULL, *q4 = NULL, *k4 = NULL, *v4 = NULL, *m4 = NULL, *o4 = NULL;
    tk_status s;
    int rank = tk_tensor_ndim(oc->in[0]);
    if (np) {
        int p[TK_MAX_DIMS];
        for (int i = 0; i < np; i++) p[i] = (int)perm[i];
        s = tko_wrap(oc, tk_permute(oc->ctx, oc->in[1], p, &k));
    } else s = tko_wrap(oc, tk_transpose(oc->ctx, oc->in[1], -2, -1, &k));   /* k arrived as kᵀ */
    if (!s) s = as4d(oc, oc->in[0], &q4);
    if (!s) s = as4d(oc, k, &k4);
    if (!s) s = as4d(oc, oc->in[2], &v4);
    const tk_tensor *mask = oc->nin > 3 ? oc->in[3] : NULL;
    if (!s && mask) {   /* an additive mask broadcast to [B, H, S, SKV]: lead with size-1 dims */
        m4 = tk_tensor_retain((tk_tensor *)mask);
        while (!s && tk_tensor_ndim(m4) < 4) {
            tk_tensor *t;
            s = tko_wrap(oc, tk_unsqueeze(oc->ctx, m4, 0, &t));
            tk_tensor_release(m4);
            m4 = s ? NULL : t;
        }
    }
    double scale = tko_attr_float(n, "scale", 1.0f);
    int64_t d = s ? 0 : tk_tensor_shape(q4)[3], skv = s ? 0 : tk_tensor_shape(k4)[2];
    bool same_heads = !s && tk_tensor_shape(q4)[1] == tk_tensor_shape(k4)[1];
    if (!s && (d < 32 || skv < 64) && same_heads) s = small_attention(oc, q4, k4, v4, m4, scale, &o4);
    else if (!s) {
        tk_sdpa_opts o = { .mask = m4, .has_scale = true, .scale = scale };
        s = tko_wrap(oc, tk_sdpa(oc->ctx, q4, k4, v4, &o, &o4));
    }
    if (!s && rank == 3) s = tko_wrap(oc, tk_squeeze(oc->ctx, o4, 0, &oc->out[0]));
    else if (!s) oc->out[0] = tk_tensor_retain(o4);
    tk_tensor_release(k), tk_tensor_release(q4), tk_tensor_release(k4), tk_tensor_release(v4), tk_tensor_release(m4),
        tk_tensor_release(o4);
    return s;
}

static tk_status run_gelu(TkoOpCtx *oc)
{
    bool tanh_form = tko_attr_int(oc->node, "tanh", 0) != 0;
    return tko_wrap(oc, tk_unary(oc->ctx, tanh_form ? TK_GELU_TANH : TK_GELU, oc->in[0], &oc->out[0]));
}

/* t converted to dtype in the same memory order: a channels-last 4-d tensor
 * stays channels-last (converted as its NHWC view), so the next conv still
 * reads it in place. */
static tk_status convert_keep_layout(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out)
{
    if (tk_tensor_ndim(t) != 4 || !tk_tensor_is_channels_last(t) || tk_tensor_is_contiguous(t)) return tk_to_dtype(ctx, t, dtype, out);
    tk_tensor *nhwc = NULL, *conv = NULL;
    tk_status s = tk_permute(ctx, t, (int[]){ 0, 2, 3, 1 }, &nhwc);
    if (!s) s = tk_to_dtype(ctx, nhwc, dtype, &conv);
    if (!s) s = tk_permute(ctx, conv, (int[]){ 0, 3, 1, 2 }, out);
    tk_tensor_release(nhwc);
    tk_tensor_release(conv);
    return s;
}

static tk_status run_conv(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const TkoAttr *clip = tko_attr(n, "clip");
    bool relu = tko_attr_int(n, "relu", 0) != 0, cl = tko_attr_int(n, "channels_last", 0) != 0;
    const float *bounds = clip && clip->n == 2 ? clip->floats : NULL;
    /* tk_onnx_opts.bf16 (attr bf16: the loader made the weight bf16; a model's own
     * bf16 convs run as they are): x rounded to bf16 here unless a bf16 conv left
     * it so, the result widened back unless only such convs read it (bf16_out);
     * both in their memory order */
    bool ours = tko_attr_int(n, "bf16", 0) != 0, keep_bf16 = tko_attr_int(n, "bf16_out", 0) != 0;
    tk_tensor *ins[3] = { NULL, oc->in[1], oc->nin > 2 ? oc->in[2] : NULL }, *y = NULL;
    tk_tensor *const *given = oc->in;
    tk_status s = TK_OK;
    if (ours && tk_tensor_dtype(oc->in[0]) == TK_DTYPE_F32) {
        if ((s = tko_wrap(oc, convert_keep_layout(oc->ctx, oc->in[0], TK_DTYPE_BF16, &ins[0])))) return s;
        oc->in = ins;
    }
    s = tko_nn_run_conv_with(oc, relu, bounds, cl);
    oc->in = given;
    tk_tensor_release(ins[0]);
    if (!s && ours && !keep_bf16 && !(s = tko_wrap(oc, convert_keep_layout(oc->ctx, oc->out[0], TK_DTYPE_F32, &y)))) {
        tk_tensor_release(oc->out[0]);
        oc->out[0] = y;
    }
    return s;
}

static const TkoOpDef defs[] = {
    { "tk", "FusedLinear", 1, TKO_ANY, "act", run_linear, NULL, 2, 4, 0, false },
    { "tk", "FusedFfn", 1, TKO_ANY, "activation", run_ffn, NULL, 4, 7, 0, false },
    { "tk", "FusedAttention", 1, TKO_ANY, "k_perm,scale", run_attention, NULL, 3, 4, 0, false },
    { "tk", "FusedGelu", 1, TKO_ANY, "tanh", run_gelu, NULL, 1, 1, 0, false },
    { "tk", "FusedConv", 1, TKO_ANY, "auto_pad,dilations,group,kernel_shape,pads,strides,relu,channels_last,clip,bf16,bf16_out", run_conv, NULL, 2, 3, 0,
      false },
};

TKO_FAMILY_OF(tko_ops_fused, defs);
