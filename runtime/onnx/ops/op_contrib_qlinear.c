/* op_contrib_qlinear.c — the QOperator-format ops ONNX Runtime's static
 * quantizer writes beside the ONNX QLinearConv / QLinearMatMul:
 * QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu,
 * QLinearGlobalAveragePool, QLinearConcat and QGemm. Each dequantizes its inputs
 * to f32 ((q - zero_point) · scale), runs the float op and quantizes the
 * result (round half to even, + zero point, saturated to the zero point's
 * type; u8 without one), as ONNX's QuantizeLinear; QLinearAdd and QLinearMul
 * use ONNX Runtime's folded formulas instead (they round differently at
 * half-way values). Scales and zero points are per tensor, as ONNX Runtime
 * requires. */
#include <math.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* (f32(q) - f32(zp)) · scale; zp may be NULL (0). */
static tk_status dequant(TkoOpCtx *oc, const tk_tensor *q, const tk_tensor *scale, const tk_tensor *zp, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    tk_dtype d = tk_tensor_dtype(q);
    if (d != TK_DTYPE_U8 && d != TK_DTYPE_I8) return tko_fail(oc, TK_ERR_DTYPE, "a quantized input is %s; it must be u8 or i8", tk_dtype_name(d));
    if (tk_tensor_numel(scale) != 1 || (zp && tk_tensor_numel(zp) != 1))
        return tko_fail(oc, TK_ERR_SHAPE, "scales and zero points must be scalars (per-tensor quantization)");
    tk_tensor *t[4] = { 0 };
    tk_status s = tk_to_dtype(ctx, q, TK_DTYPE_F32, &t[0]);
    tk_tensor *c = t[0];
    if (!s && zp && !(s = tk_to_dtype(ctx, zp, TK_DTYPE_F32, &t[1])) && !(s = tk_sub(ctx, t[0], t[1], &t[2]))) c = t[2];
    if (!s && !(s = tko_nn_to(oc, scale, TK_DTYPE_F32, &t[3]))) s = tk_mul(ctx, c, t[3], out);
    tko_nn_release(t, 4);
    return s;
}

/* saturate(round(v) + zp) in zp's type (u8 without one). */
static tk_status round_shift(TkoOpCtx *oc, const tk_tensor *v, const tk_tensor *zp, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    tk_dtype d = zp ? tk_tensor_dtype(zp) : TK_DTYPE_U8;
    if (d != TK_DTYPE_U8 && d != TK_DTYPE_I8) return tko_fail(oc, TK_ERR_DTYPE, "the output zero point is %s; it must be u8 or i8", tk_dtype_name(d));
    if (zp && tk_tensor_numel(zp) != 1) return tko_fail(oc, TK_ERR_SHAPE, "the output zero point must be a scalar (per-tensor quantization)");
    tk_tensor *t[4] = { 0 };
    tk_status s = tk_unary(ctx, TK_ROUND, v, &t[0]);
    tk_tensor *r = t[0];
    if (!s && zp && !(s = tk_to_dtype(ctx, zp, TK_DTYPE_F32, &t[1])) && !(s = tk_add(ctx, t[0], t[1], &t[2]))) r = t[2];
    double lo = d == TK_DTYPE_U8 ? 0 : -128, hi = d == TK_DTYPE_U8 ? 255 : 127;
    if (!s) s = tk_clamp(ctx, r, &(tk_clamp_opts){ true, true, lo, hi }, &t[3]);
    if (!s) s = tk_to_dtype(ctx, t[3], d, out);
    tko_nn_release(t, 4);
    return s;
}

/* saturate(round(y / scale) + zp) in zp's type (u8 without one). */
static tk_status quant(TkoOpCtx *oc, const tk_tensor *y, const tk_tensor *scale, const tk_tensor *zp, tk_tensor **out)
{
    if (tk_tensor_numel(scale) != 1) return tko_fail(oc, TK_ERR_SHAPE, "scales and zero points must be scalars (per-tensor quantization)");
    tk_tensor *t[2] = { 0 };
    tk_status s = tko_nn_to(oc, scale, TK_DTYPE_F32, &t[0]);
    if (!s) s = tk_div(oc->ctx, y, t[0], &t[1]);
    if (!s) s = round_shift(oc, t[1], zp, out);
    tko_nn_release(t, 2);
    return s;
}

/* One float of a scalar input (0 when absent). */
static float scalar_of(const tk_tensor *t)
{
    return t ? (float)tkr_load_f(tkr_ptr(t), tk_tensor_dtype(t)) : 0.0f;
}

/* QLinearAdd / QLinearMul by ONNX Runtime's own formulas (MLAS), in f32 and
 * rounded once at the end, so the quantized results match it bit for bit:
 *   add: A·(sa/sc) + B·(sb/sc) + (zc - za·(sa/sc) - zb·(sb/sc))
 *   mul: (A - za)·(B - zb)·(sa·sb/sc) + zc
 * (a · or + of two f32 values is computed in double and rounded to f32,
 * which is the f32 operation's correctly rounded result). */
static tk_status add_mul(TkoOpCtx *oc, bool mul, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *a = oc->in[0], *b = oc->in[3], *zc = oc->nin > 7 ? oc->in[7] : NULL;
    const tk_tensor *scalars[6] = { oc->in[1], oc->in[2], oc->in[4], oc->in[5], oc->in[6], zc };
    for (int i = 0; i < 6; i++)
        if (scalars[i] && tk_tensor_numel(scalars[i]) != 1)
            return tko_fail(oc, TK_ERR_SHAPE, "scales and zero points must be scalars (per-tensor quantization)");
    tk_dtype ad = tk_tensor_dtype(a), bd = tk_tensor_dtype(b);
    if ((ad != TK_DTYPE_U8 && ad != TK_DTYPE_I8) || (bd != TK_DTYPE_U8 && bd != TK_DTYPE_I8))
        return tko_fail(oc, TK_ERR_DTYPE, "A and B are %s and %s; they must be u8 or i8", tk_dtype_name(ad), tk_dtype_name(bd));
    float sa = scalar_of(oc->in[1]), za = scalar_of(oc->in[2]), sb = scalar_of(oc->in[4]), zb = scalar_of(oc->in[5]);
    float sc = scalar_of(oc->in[6]), zcv = scalar_of(zc);
    tk_tensor *t[6] = { 0 };
    tk_status s = tk_to_dtype(ctx, a, TK_DTYPE_F32, &t[0]);
    if (!s) s = tk_to_dtype(ctx, b, TK_DTYPE_F32, &t[1]);
    if (mul) {
        float m = sa * sb / sc;
        if (!s) s = tk_binary_scalar_(ctx, TK_SUB, t[0], za);
        if (!s) s = tk_binary_scalar_(ctx, TK_SUB, t[1], zb);
        if (!s) s = tk_mul(ctx, t[0], t[1], &t[2]);
        if (!s) s = tk_binary_scalar_(ctx, TK_MUL, t[2], m);
        if (!s) s = tk_binary_scalar(ctx, TK_ADD, t[2], zcv, out);
    } else {
        float rac = sa / sc, rbc = sb / sc, part = zcv - rac * za - rbc * zb;
        if (!s) s = tk_binary_scalar_(ctx, TK_MUL, t[0], rac);
        if (!s) s = tk_binary_scalar_(ctx, TK_MUL, t[1], rbc);
        if (!s) s = tk_add(ctx, t[0], t[1], &t[2]);
        if (!s) s = tk_binary_scalar(ctx, TK_ADD, t[2], part, out);
    }
    tko_nn_release(t, 6);
    return s;
}

/* saturate(round(v)) in zp's type (u8 without one): v already scaled and shifted. */
static tk_status saturate(TkoOpCtx *oc, const tk_tensor *v, const tk_tensor *zp, tk_tensor **out)
{
    tk_dtype d = zp ? tk_tensor_dtype(zp) : TK_DTYPE_U8;
    if (d != TK_DTYPE_U8 && d != TK_DTYPE_I8) return tko_fail(oc, TK_ERR_DTYPE, "the output zero point is %s; it must be u8 or i8", tk_dtype_name(d));
    tk_tensor *t[2] = { 0 };
    tk_status s = tk_unary(oc->ctx, TK_ROUND, v, &t[0]);
    double lo = d == TK_DTYPE_U8 ? 0 : -128, hi = d == TK_DTYPE_U8 ? 255 : 127;
    if (!s) s = tk_clamp(oc->ctx, t[0], &(tk_clamp_opts){ true, true, lo, hi }, &t[1]);
    if (!s) s = tk_to_dtype(oc->ctx, t[1], d, out);
    tko_nn_release(t, 2);
    return s;
}

static const tk_tensor *opt(const TkoOpCtx *oc, int i)
{
    return oc->nin > i ? oc->in[i] : NULL;
}

enum { Q_ADD, Q_MUL, Q_SIGMOID, Q_LEAKY_RELU, Q_GLOBAL_AVG };

/* QLinearAdd / QLinearMul (A, sa, za, B, sb, zb, sc, zc), QLinearSigmoid /
 * QLinearLeakyRelu / QLinearGlobalAveragePool (X, sx, zx, sy, zy). */
tk_status tko_contrib_run_qlinear(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    int op = oc->node->def->arg;
    tk_tensor *t[4] = { 0 };
    tk_status s;
    if (op == Q_ADD || op == Q_MUL) {
        if (!(s = add_mul(oc, op == Q_MUL, &t[0]))) s = saturate(oc, t[0], opt(oc, 7), &oc->out[0]);
        goto done;
    }
    if ((s = dequant(oc, oc->in[0], oc->in[1], opt(oc, 2), &t[0]))) goto done;
    switch (op) {
    case Q_SIGMOID: s = tk_unary(ctx, TK_SIGMOID, t[0], &t[2]); break;
    case Q_LEAKY_RELU: s = tk_leaky_relu(ctx, t[0], tko_attr_float(oc->node, "alpha", 0.01f), &t[2]); break;
    default: {   /* the mean over the spatial dims, kept as size 1 */
        int nd = tk_tensor_ndim(t[0]), dims[TK_MAX_DIMS], k = 0;
        if (nd < 3) {
            s = tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...] (or channels last)", nd);
            goto done;
        }
        bool last = tko_attr_int(oc->node, "channels_last", 0) != 0;
        for (int i = last ? 1 : 2; i < (last ? nd - 1 : nd); i++) dims[k++] = i;
        tk_reduce_opts ro = { .dims = dims, .ndims = k, .keepdim = true };
        s = tk_mean(ctx, t[0], &ro, &t[2]);
    }
    }
    if (!s) s = quant(oc, t[2], oc->in[3], opt(oc, 4), &oc->out[0]);
done:
    tko_nn_release(t, 4);
    return tko_nn_wrap(oc, s);
}

/* QLinearConcat: Y_scale, Y_zero_point, then (X, scale, zero_point) per input. */
tk_status tko_contrib_run_qlinear_concat(TkoOpCtx *oc)
{
    int k = (oc->nin - 2) / 3;
    if (k < 1 || (oc->nin - 2) % 3) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "%d inputs; it takes 2 + 3 per tensor", oc->nin);
    if (k > 256) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "%d tensors; at most 256 are supported", k);
    tk_tensor *f[256] = { 0 }, *y = NULL;
    tk_status s = TK_OK;
    for (int i = 0; i < k && !s; i++) s = dequant(oc, oc->in[2 + 3 * i], oc->in[3 + 3 * i], oc->in[4 + 3 * i], &f[i]);
    int axis = 0;
    if (!s) s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), tk_tensor_ndim(f[0]), &axis);
    if (!s) s = tk_cat(oc->ctx, (const tk_tensor *const *)f, k, axis, &y);
    if (!s) s = quant(oc, y, oc->in[0], oc->in[1], &oc->out[0]);
    tk_tensor_release(y);
    tko_nn_release(f, k);
    return tko_nn_wrap(oc, s);
}

/* QGemm: acc = (A' - za)·(B' - zb) + C summed exactly (an f64 matmul of small
 * integers; C the int32 bias), A' / B' transposed when asked. With y_scale:
 * round(f32(acc) · (alpha·sa·sb / sy)) + zy saturated (zy's type, u8
 * without one); without: f32(acc) · (alpha·sa·sb). b_scale and b_zero_point
 * may be per column of B. */
tk_status tko_contrib_run_qgemm(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *a = oc->in[0], *b = oc->in[3], *c = opt(oc, 6), *sy = opt(oc, 7), *zy = opt(oc, 8);
    tk_dtype ad = tk_tensor_dtype(a), bd = tk_tensor_dtype(b);
    if ((ad != TK_DTYPE_U8 && ad != TK_DTYPE_I8) || (bd != TK_DTYPE_U8 && bd != TK_DTYPE_I8))
        return tko_fail(oc, TK_ERR_DTYPE, "A and B are %s and %s; they must be u8 or i8", tk_dtype_name(ad), tk_dtype_name(bd));
    if (tk_tensor_ndim(a) != 2 || tk_tensor_ndim(b) != 2)
        return tko_fail(oc, TK_ERR_SHAPE, "A and B must be 2-d, they are %d-d and %d-d", tk_tensor_ndim(a), tk_tensor_ndim(b));
    if (c && tk_tensor_dtype(c) != TK_DTYPE_I32) return tko_fail(oc, TK_ERR_DTYPE, "C is %s; it must be the i32 bias", tk_dtype_name(tk_tensor_dtype(c)));
    if (tk_tensor_numel(oc->in[1]) != 1 || tk_tensor_numel(oc->in[2]) != 1 || (sy && tk_tensor_numel(sy) != 1) || (zy && tk_tensor_numel(zy) != 1))
        return tko_fail(oc, TK_ERR_SHAPE, "a_scale, a_zero_point, y_scale and y_zero_point must be scalars");
    float alpha = tko_attr_float(oc->node, "alpha", 1.0f), sa = scalar_of(oc->in[1]), za = scalar_of(oc->in[2]);
    tk_tensor *t[12] = { 0 };   /* A, B f64; A', B' views; centred; acc; acc + C; f32; scale; scaled */
    tk_status s = tk_to_dtype(ctx, a, TK_DTYPE_F64, &t[0]);
    if (!s) s = tk_to_dtype(ctx, b, TK_DTYPE_F64, &t[1]);
    if (!s && tko_attr_int(oc->node, "transA", 0)) s = tk_transpose(ctx, t[0], 0, 1, &t[2]);
    else if (!s) t[2] = tk_tensor_retain(t[0]);
    if (!s && tko_attr_int(oc->node, "transB", 0)) s = tk_transpose(ctx, t[1], 0, 1, &t[3]);
    else if (!s) t[3] = tk_tensor_retain(t[1]);
    if (s) goto done;
    {
        tk_tensor *ca = NULL, *cb = NULL, *zb = NULL;
        if (!(s = tk_binary_scalar(ctx, TK_SUB, t[2], za, &ca)) && !(s = tk_to_dtype(ctx, oc->in[5], TK_DTYPE_F64, &zb)))
            s = tk_sub(ctx, t[3], zb, &cb);
        if (!s) s = tk_matmul(ctx, ca, cb, &t[4]);
        tk_tensor_release(ca), tk_tensor_release(cb), tk_tensor_release(zb);
        if (s) goto done;
    }
    tk_tensor *acc = t[4];
    if (c) {
        if ((s = tk_to_dtype(ctx, c, TK_DTYPE_F64, &t[5])) || (s = tk_add(ctx, t[4], t[5], &t[6]))) goto done;
        acc = t[6];
    }
    /* scale per column: (alpha·sa)·sb (/ sy), each step an f32 product */
    if ((s = tk_to_dtype(ctx, acc, TK_DTYPE_F32, &t[7])) || (s = tko_nn_to(oc, oc->in[4], TK_DTYPE_F32, &t[8])) ||
        (s = tk_binary_scalar_(ctx, TK_MUL, t[8], alpha * sa)))
        goto done;
    if (!sy) {
        if (!(s = tk_mul(ctx, t[7], t[8], &oc->out[0]))) s = tko_nn_as_dtype(oc, &oc->out[0], TK_DTYPE_F32);
        goto done;
    }
    if ((s = tk_binary_scalar_(ctx, TK_DIV, t[8], scalar_of(sy))) || (s = tk_mul(ctx, t[7], t[8], &t[9]))) goto done;
    s = round_shift(oc, t[9], zy, &oc->out[0]);
done:
    tko_nn_release(t, 12);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* QLinearAveragePool: ONNX AveragePool's row (opset 11: no dilations) on the
 * dequantized input, NHWC permuted to NCHW and back when channels_last,
 * requantized as ONNX Runtime does it (found on a value at -46.5). */
tk_status tko_contrib_run_qlinear_average_pool(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const char *why = NULL;
    const TkoOpDef *def = tko_find_op("", "AveragePool", 11, &why);
    if (!def) return tko_fail(oc, TK_ERR_INTERNAL, "ONNX AveragePool is missing: %s", why);
    bool last = tko_attr_int(oc->node, "channels_last", 0) != 0;
    int nd = tk_tensor_ndim(oc->in[0]), to_first[TK_MAX_DIMS], to_last[TK_MAX_DIMS];
    if (nd < 3) return tko_fail(oc, TK_ERR_SHAPE, "X is %d-d; it must be [N, C, spatial...] (or channels last)", nd);
    to_first[0] = to_last[0] = 0, to_first[1] = nd - 1, to_last[nd - 1] = 1;
    for (int i = 2; i < nd; i++) to_first[i] = i - 1, to_last[i - 1] = i;
    tk_tensor *t[4] = { 0 }, *y = NULL;
    tk_status s = dequant(oc, oc->in[0], oc->in[1], opt(oc, 2), &t[0]);
    if (!s && last) s = tk_permute(ctx, t[0], to_first, &t[1]);
    else if (!s) t[1] = tk_tensor_retain(t[0]);
    if (s) goto done;
    TkoNode node = *oc->node;
    node.def = def, node.opset = 11;
    tk_tensor *in[1] = { t[1] };
    TkoOpCtx sub = *oc;
    sub.node = &node, sub.in = in, sub.nin = 1, sub.out = &y, sub.nout = 1;
    if ((s = def->run(&sub))) goto done;
    if (last && (s = tk_permute(ctx, y, to_last, &t[2]))) goto done;
    /* ONNX Runtime adds the zero point before rounding here: round(y / scale + zp) */
    const tk_tensor *zy = opt(oc, 4);
    if (tk_tensor_numel(oc->in[3]) != 1 || (zy && tk_tensor_numel(zy) != 1)) {
        s = tko_fail(oc, TK_ERR_SHAPE, "y_scale and y_zero_point must be scalars (per-tensor quantization)");
        goto done;
    }
    tk_tensor *v = NULL;
    if (!(s = tk_binary_scalar(ctx, TK_DIV, last ? t[2] : y, scalar_of(oc->in[3]), &v)) && !(s = tk_binary_scalar_(ctx, TK_ADD, v, scalar_of(zy))))
        s = saturate(oc, v, zy, &oc->out[0]);
    tk_tensor_release(v);
done:
    tk_tensor_release(y);
    tko_nn_release(t, 4);
    return tko_nn_wrap(oc, s);
}

/* QLinearSoftmax: softmax of the dequantized input over axis (attribute
 * opset >= 13), or over the dims from axis on flattened as one (the older
 * Softmax the opset attribute names), then quantized. */
tk_status tko_contrib_run_qlinear_softmax(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    int nd = tk_tensor_ndim(oc->in[0]), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), nd, &axis);
    if (s) return s;
    bool flat = tko_attr_int(oc->node, "opset", 13) < 13;
    tk_tensor *t[4] = { 0 };
    if ((s = dequant(oc, oc->in[0], oc->in[1], opt(oc, 2), &t[0]))) goto done;
    if (flat) {
        const int64_t *sh = tk_tensor_shape(t[0]);
        int64_t rows = 1, cols = 1;
        for (int i = 0; i < nd; i++) *(i < axis ? &rows : &cols) *= sh[i];
        if ((s = tk_reshape(ctx, t[0], 2, (int64_t[]){ rows, cols }, &t[1])) || (s = tk_softmax(ctx, t[1], 1, &t[2])) ||
            (s = tk_reshape(ctx, t[2], nd, sh, &t[3])))
            goto done;
    } else if ((s = tk_softmax(ctx, t[0], axis, &t[3]))) goto done;
    s = quant(oc, t[3], oc->in[3], opt(oc, 4), &oc->out[0]);
done:
    tko_nn_release(t, 4);
    return tko_nn_wrap(oc, s);
}
