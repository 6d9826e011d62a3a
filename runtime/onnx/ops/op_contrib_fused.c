/* op_contrib_fused.c — contrib ops that are an ONNX op plus a little:
 * FusedConv (Conv, + Z, then an activation), FusedGemm (Gemm, then an
 * activation), GemmFastGelu, MatMulIntegerToFloat, and the com.microsoft
 * QuantizeLinear / DequantizeLinear / Trilu, which are the ONNX ops of
 * opset 13 / 14. The ONNX part runs the ONNX op's own row (found with
 * tko_find_op) on the same inputs and attributes. */
#include <math.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* Runs the ONNX op `op` of `opset` on oc's first nin inputs and attributes;
 * its outputs go to outs (oc->nout of them). */
static tk_status run_onnx_op(TkoOpCtx *oc, const char *op, int opset, int nin, tk_tensor **outs)
{
    const char *why = NULL;
    const TkoOpDef *def = tko_find_op("", op, opset, &why);
    if (!def) return tko_fail(oc, TK_ERR_INTERNAL, "the ONNX op %s (opset %d) is missing: %s", op, opset, why);
    TkoNode node = *oc->node;
    node.def = def, node.opset = opset;
    TkoOpCtx sub = *oc;
    sub.node = &node, sub.nin = nin < oc->nin ? nin : oc->nin, sub.out = outs;
    return def->run(&sub);
}

/* The com.microsoft QuantizeLinear, DequantizeLinear (opset 13's) and Trilu (14's). */
tk_status tko_contrib_run_as_onnx(TkoOpCtx *oc)
{
    const char *op = oc->node->op;
    return run_onnx_op(oc, op, strcmp(op, "Trilu") == 0 ? 14 : 13, oc->nin, oc->out);
}

/* ------------------------------------------------------------ activations */

static const char *const activations[] = { "Relu", "Tanh", "Sigmoid", "LeakyRelu", "Clip", "HardSigmoid" };

static bool known_activation(const char *a)
{
    for (size_t i = 0; i < sizeof activations / sizeof *activations; i++)
        if (strcmp(a, activations[i]) == 0) return true;
    return false;
}

const char *tko_contrib_check_activation(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    const char *a = tko_attr_string(n, "activation", "");
    if (!known_activation(a))
        return tko_nn_why(why, len, "activation '%s' is not supported (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid)", a);
    return strcmp(n->op, "FusedConv") == 0 ? tko_nn_check_conv(m, n, why, len) : NULL;   /* what Conv's row refuses */
}

/* act(x) with parameters p0, p1 (LeakyRelu: alpha; Clip: min, max;
 * HardSigmoid: alpha, beta); a new reference. */
static tk_status activate(TkoOpCtx *oc, const char *act, double p0, double p1, const tk_tensor *x, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    if (strcmp(act, "Relu") == 0) return tk_unary(ctx, TK_RELU, x, out);
    if (strcmp(act, "Tanh") == 0) return tk_unary(ctx, TK_TANH, x, out);
    if (strcmp(act, "Sigmoid") == 0) return tk_unary(ctx, TK_SIGMOID, x, out);
    if (strcmp(act, "LeakyRelu") == 0) return tk_leaky_relu(ctx, x, p0, out);
    if (strcmp(act, "Clip") == 0) return tk_clamp(ctx, x, &(tk_clamp_opts){ true, true, p0, p1 }, out);
    /* HardSigmoid: max(0, min(1, alpha·x + beta)) */
    tk_tensor *a = NULL, *b = NULL;
    tk_status s = tk_binary_scalar(ctx, TK_MUL, x, p0, &a);
    if (!s) s = tk_binary_scalar(ctx, TK_ADD, a, p1, &b);
    if (!s) s = tk_clamp(ctx, b, &(tk_clamp_opts){ true, true, 0.0, 1.0 }, out);
    tk_tensor_release(a), tk_tensor_release(b);
    return s;
}

/* The activation's defaults, as ONNX's ops have them. */
static void activation_defaults(const char *act, double *p0, double *p1)
{
    if (strcmp(act, "LeakyRelu") == 0) *p0 = 0.01, *p1 = 0;
    else if (strcmp(act, "Clip") == 0) *p0 = -INFINITY, *p1 = INFINITY;
    else *p0 = 0.2, *p1 = 0.5;   /* HardSigmoid */
}

/* y (released) replaced by act(y), cast back to dtype d. */
static tk_status finish(TkoOpCtx *oc, const char *act, double p0, double p1, tk_tensor *y, tk_dtype d)
{
    tk_status s = activate(oc, act, p0, p1, y, &oc->out[0]);
    tk_tensor_release(y);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    return s;
}

/* FusedConv: act(Conv(X, W, B) + Z); activation_params as in activate. */
tk_status tko_contrib_run_fused_conv(TkoOpCtx *oc)
{
    const char *act = tko_attr_string(oc->node, "activation", "");
    double p[2];
    activation_defaults(act, &p[0], &p[1]);
    const TkoAttr *a = tko_attr(oc->node, "activation_params");
    for (int i = 0; a && a->floats && i < a->n && i < 2; i++) p[i] = a->floats[i];
    tk_tensor *conv = NULL, *sum = NULL;
    tk_status s = run_onnx_op(oc, "Conv", 11, 3, &conv);
    if (s) return s;
    const tk_tensor *z = oc->nin > 3 ? oc->in[3] : NULL;
    if (z && (s = tk_add(oc->ctx, conv, z, &sum))) {
        tk_tensor_release(conv);
        return tko_nn_wrap(oc, s);
    }
    if (sum) tk_tensor_release(conv), conv = sum;
    return tko_nn_wrap(oc, finish(oc, act, p[0], p[1], conv, tk_tensor_dtype(oc->in[0])));
}

/* FusedGemm: act(Gemm(A, B, C)) with activation_alpha / activation_beta. */
tk_status tko_contrib_run_fused_gemm(TkoOpCtx *oc)
{
    const char *act = tko_attr_string(oc->node, "activation", "");
    double p0, p1;
    activation_defaults(act, &p0, &p1);
    if (tko_attr(oc->node, "activation_alpha")) p0 = tko_attr_float(oc->node, "activation_alpha", 0.0f);
    if (tko_attr(oc->node, "activation_beta")) p1 = tko_attr_float(oc->node, "activation_beta", 0.0f);
    tk_tensor *y = NULL;
    tk_status s = run_onnx_op(oc, "Gemm", 13, 3, &y);
    if (s) return s;
    return tko_nn_wrap(oc, finish(oc, act, p0, p1, y, tk_tensor_dtype(oc->in[0])));
}

/* GemmFastGelu: gelu_tanh(X·W + bias). */
tk_status tko_contrib_run_gemm_fast_gelu(TkoOpCtx *oc)
{
    tk_dtype d = tk_tensor_dtype(oc->in[0]);
    tk_tensor *t[2] = { 0 };
    tk_status s = tk_matmul(oc->ctx, oc->in[0], oc->in[1], &t[0]);
    tk_tensor *y = t[0];
    if (!s && oc->nin > 2 && oc->in[2]) s = tk_add(oc->ctx, t[0], oc->in[2], &t[1]), y = t[1];
    if (!s) s = tk_unary(oc->ctx, TK_GELU_TANH, y, &oc->out[0]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    tko_nn_release(t, 2);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* MatMulIntegerToFloat: (A - a_zp)·(B - b_zp) summed exactly (an f64 matmul
 * of small integers), then · (a_scale · b_scale) in f32, + bias. Scales and
 * zero points per tensor, or per column of B. */
tk_status tko_contrib_run_matmul_integer_to_float(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *in[7] = { 0 };
    for (int i = 0; i < 7 && i < oc->nin; i++) in[i] = oc->in[i];
    for (int i = 0; i < 2; i++) {
        tk_dtype d = tk_tensor_dtype(in[i]);
        if (d != TK_DTYPE_U8 && d != TK_DTYPE_I8)
            return tko_fail(oc, TK_ERR_DTYPE, "%s is %s; it must be u8 or i8", i ? "B" : "A", tk_dtype_name(d));
    }
    if (!tk_dtype_is_float(tk_tensor_dtype(in[2])) || tk_tensor_dtype(in[3]) != tk_tensor_dtype(in[2]))
        return tko_fail(oc, TK_ERR_DTYPE, "a_scale and b_scale must be one float type");
    tk_dtype od = tk_tensor_dtype(in[2]);
    tk_tensor *t[12] = { 0 };   /* A, B f64; zps f64; centred A, B; sums; sums in od; scale product; scaled */
    tk_status s = tk_to_dtype(ctx, in[0], TK_DTYPE_F64, &t[0]);
    if (!s) s = tk_to_dtype(ctx, in[1], TK_DTYPE_F64, &t[1]);
    tk_tensor *a = t[0], *b = t[1];
    if (!s && in[4] && !(s = tk_to_dtype(ctx, in[4], TK_DTYPE_F64, &t[2])) && !(s = tk_sub(ctx, t[0], t[2], &t[4]))) a = t[4];
    if (!s && in[5] && !(s = tk_to_dtype(ctx, in[5], TK_DTYPE_F64, &t[3])) && !(s = tk_sub(ctx, t[1], t[3], &t[5]))) b = t[5];
    if (!s) s = tk_matmul(ctx, a, b, &t[6]);
    if (!s) s = tk_to_dtype(ctx, t[6], od, &t[7]);
    if (!s) s = tk_mul(ctx, in[2], in[3], &t[8]);
    if (!s) s = tk_mul(ctx, t[7], t[8], &t[9]);
    if (!s) {
        if (in[6]) s = tk_add(ctx, t[9], in[6], &oc->out[0]);
        else oc->out[0] = tk_tensor_retain(t[9]);
    }
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], od);
    tko_nn_release(t, 12);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}
