/* op_elementwise.c — ONNX element-wise ops on the runtime's broadcasting
 * element-wise ops (runtime/ops/binary.c, unary.c). ONNX keeps the inputs'
 * element type where PyTorch promotes (Div of ints divides as ints, Pow
 * keeps the base's type), so results are cast back to the type ONNX says. */
#include <math.h>
#include <string.h>

#include "op.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* The result as dtype d (a no-op when it already is). */
static tk_status as_dtype(TkoOpCtx *oc, tk_tensor **t, tk_dtype d)
{
    if (tk_tensor_dtype(*t) == d) return TK_OK;
    tk_tensor *c;
    tk_status s = tk_to_dtype(oc->ctx, *t, d, &c);
    tk_tensor_release(*t);
    *t = s ? NULL : c;
    return tko_wrap(oc, s);
}

/* Div of ints: C's truncation toward zero, (a - fmod(a, b)) / b, exact. */
static tk_status run_trunc_div(TkoOpCtx *oc)
{
    tk_tensor *r = NULL, *d = NULL;
    tk_status s = tk_binary(oc->ctx, TK_FMOD, oc->in[0], oc->in[1], &r);
    if (!s) s = tk_sub(oc->ctx, oc->in[0], r, &d);
    if (!s) s = tk_binary(oc->ctx, TK_FLOOR_DIVIDE, d, oc->in[1], &oc->out[0]);
    tk_tensor_release(r);
    tk_tensor_release(d);
    if (s) return tko_wrap(oc, s);
    return as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

static tk_status run_binary(TkoOpCtx *oc)
{
    tk_binary_op op = (tk_binary_op)oc->node->def->arg;
    const tk_tensor *a = oc->in[0], *b = oc->in[1];
    tk_dtype da = tk_tensor_dtype(a);
    bool ints = !tk_dtype_is_float(da) && da != TK_DTYPE_BOOL;
    if (op == TK_DIV && ints) return run_trunc_div(oc);
    tk_status s = tko_wrap(oc, tk_binary(oc->ctx, op, a, b, &oc->out[0]));
    if (s) return s;
    bool boolean = op >= TK_EQ && op <= TK_LOGICAL_XOR;
    return boolean ? TK_OK : as_dtype(oc, &oc->out[0], da);
}

/* Opsets 1-6: with broadcast=1 and an axis, B's dims line up with A's from
 * `axis` on (B [3] against A [2, 3, 4] at axis 1 is [1, 3, 1]); without an
 * axis the alignment is NumPy's (from the end), which run_binary does. */
static tk_status run_binary_legacy(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    if (!tko_attr_int(n, "broadcast", 0) || !tko_attr(n, "axis")) return run_binary(oc);
    const tk_tensor *a = oc->in[0], *b = oc->in[1];
    int ra = tk_tensor_ndim(a), rb = tk_tensor_ndim(b), axis;
    tk_status s = tko_axis(oc, tko_attr_int(n, "axis", 0), ra, &axis);
    if (s) return s;
    if (axis + rb > ra) return tko_fail(oc, TK_ERR_SHAPE, "B of rank %d does not fit A of rank %d at axis %d", rb, ra, axis);
    int64_t shape[TK_MAX_DIMS];
    for (int d = 0; d < ra; d++) shape[d] = d >= axis && d < axis + rb ? tk_tensor_shape(b)[d - axis] : 1;
    tk_tensor *bv;
    if ((s = tko_wrap(oc, tk_reshape(oc->ctx, b, ra, shape, &bv)))) return s;
    tk_tensor *in[2] = { (tk_tensor *)a, bv };
    TkoOpCtx sub = *oc;
    sub.in = in;
    s = run_binary(&sub);
    tk_tensor_release(bv);
    return s;
}

/* Mod: fmod=1 follows C's fmod (floats must use it), else Python's %. */
static tk_status run_mod(TkoOpCtx *oc)
{
    tk_binary_op op = tko_attr_int(oc->node, "fmod", 0) ? TK_FMOD : TK_REMAINDER;
    tk_status s = tko_wrap(oc, tk_binary(oc->ctx, op, oc->in[0], oc->in[1], &oc->out[0]));
    return s ? s : as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

/* BitShift: direction "LEFT" or "RIGHT" (ONNX takes u8, u16, u32, u64). */
static tk_status run_bitshift(TkoOpCtx *oc)
{
    const char *dir = tko_attr_string(oc->node, "direction", "");
    tk_binary_op op = strcmp(dir, "LEFT") == 0 ? TK_SHIFT_LEFT : TK_SHIFT_RIGHT;
    tk_status s = tko_wrap(oc, tk_binary(oc->ctx, op, oc->in[0], oc->in[1], &oc->out[0]));
    return s ? s : as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

static const char *check_bitshift(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *dir = tko_attr_string(n, "direction", "");
    if (strcmp(dir, "LEFT") && strcmp(dir, "RIGHT")) {
        snprintf(why, len, "direction '%s' is neither LEFT nor RIGHT", dir);
        return why;
    }
    return NULL;
}

/* Max, Min, Sum, Mean: variadic, broadcasting, folded left to right. */
static tk_status run_variadic(TkoOpCtx *oc)
{
    const char *op = oc->node->op;
    tk_binary_op bop = strcmp(op, "Max") == 0 ? TK_MAXIMUM : strcmp(op, "Min") == 0 ? TK_MINIMUM : TK_ADD;
    tk_tensor *acc = tk_tensor_retain(oc->in[0]);
    tk_status s = TK_OK;
    for (int i = 1; i < oc->nin && !s; i++) {
        tk_tensor *next;
        s = tk_binary(oc->ctx, bop, acc, oc->in[i], &next);
        tk_tensor_release(acc);
        acc = s ? NULL : next;
    }
    if (!s && strcmp(op, "Mean") == 0) {
        tk_tensor *next;
        s = tk_binary_scalar(oc->ctx, TK_DIV, acc, (double)oc->nin, &next);
        tk_tensor_release(acc);
        acc = s ? NULL : next;
    }
    if (s) return tko_wrap(oc, s);
    if (oc->nin == 1) {   /* a copy, not the input itself: outputs never alias inputs the caller may write */
        tk_tensor *c;
        s = tk_clone(oc->ctx, acc, &c);
        tk_tensor_release(acc);
        if (s) return tko_wrap(oc, s);
        acc = c;
    }
    oc->out[0] = acc;
    return as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

static tk_status run_unary(TkoOpCtx *oc)
{
    tk_unary_op op = (tk_unary_op)oc->node->def->arg;
    tk_status s = tko_wrap(oc, tk_unary(oc->ctx, op, oc->in[0], &oc->out[0]));
    if (s || op == TK_ISNAN || op == TK_ISINF || op == TK_LOGICAL_NOT) return s;
    return as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

/* IsInf: detect_negative / detect_positive choose the signs. */
static tk_status run_isinf(TkoOpCtx *oc)
{
    int64_t neg = tko_attr_int(oc->node, "detect_negative", 1), pos = tko_attr_int(oc->node, "detect_positive", 1);
    tk_tensor *inf = NULL, *sign = NULL;
    tk_status s = tk_unary(oc->ctx, TK_ISINF, oc->in[0], &inf);
    if (!s && !(neg && pos)) {
        if (!neg && !pos) s = tk_binary_scalar(oc->ctx, TK_LOGICAL_AND, inf, 0, &oc->out[0]);
        else if (!(s = tk_binary_scalar(oc->ctx, pos ? TK_GT : TK_LT, oc->in[0], 0, &sign)))
            s = tk_binary(oc->ctx, TK_LOGICAL_AND, inf, sign, &oc->out[0]);
    } else if (!s) oc->out[0] = tk_tensor_retain(inf);
    tk_tensor_release(inf);
    tk_tensor_release(sign);
    return tko_wrap(oc, s);
}

/* y = x * scale + shift, element-wise: the scalar-attribute activations. */
static tk_status affine(TkoOpCtx *oc, const tk_tensor *x, double scale, double shift, tk_tensor **out)
{
    tk_tensor *t;
    tk_status s = tk_binary_scalar(oc->ctx, TK_MUL, x, scale, &t);
    if (s) return s;
    s = tk_binary_scalar(oc->ctx, TK_ADD, t, shift, out);
    tk_tensor_release(t);
    return s;
}

/* The activations with attributes, written as compositions of runtime ops. */
static tk_status run_activation(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const char *op = n->op;
    const tk_tensor *x = oc->in[0];
    tk_context *ctx = oc->ctx;
    tk_status s;
    tk_tensor *t1 = NULL, *t2 = NULL, *t3 = NULL;
    if (strcmp(op, "LeakyRelu") == 0) s = tk_leaky_relu(ctx, x, tko_attr_float(n, "alpha", 0.01f), &oc->out[0]);
    else if (strcmp(op, "Elu") == 0) s = tk_elu(ctx, x, tko_attr_float(n, "alpha", 1.0f), &oc->out[0]);
    else if (strcmp(op, "Selu") == 0) {
        double alpha = tko_attr_float(n, "alpha", 1.67326319217681884765625f), gamma = tko_attr_float(n, "gamma", 1.05070102214813232421875f);
        s = tk_elu(ctx, x, alpha, &t1);
        if (!s) s = tk_binary_scalar(ctx, TK_MUL, t1, gamma, &oc->out[0]);
    } else if (strcmp(op, "Celu") == 0) {   /* max(0,x) + min(0, alpha*(exp(x/alpha)-1)) = elu(x/alpha)*alpha */
        double alpha = tko_attr_float(n, "alpha", 1.0f);
        s = tk_binary_scalar(ctx, TK_DIV, x, alpha, &t1);
        if (!s) s = tk_elu(ctx, t1, 1.0, &t2);
        if (!s) s = tk_binary_scalar(ctx, TK_MUL, t2, alpha, &oc->out[0]);
    } else if (strcmp(op, "HardSigmoid") == 0) {
        double alpha = tko_attr_float(n, "alpha", 0.2f), beta = tko_attr_float(n, "beta", 0.5f);
        s = affine(oc, x, alpha, beta, &t1);
        if (!s) s = tk_clamp(ctx, t1, &(tk_clamp_opts){ .has_min = true, .min = 0, .has_max = true, .max = 1 }, &oc->out[0]);
    } else if (strcmp(op, "ThresholdedRelu") == 0) {
        double alpha = tko_attr_float(n, "alpha", 1.0f);
        if (!(s = tk_binary_scalar(ctx, TK_GT, x, alpha, &t1)) && !(s = tk_zeros_like(ctx, x, &t2)))
            s = tk_where(ctx, t1, x, t2, &oc->out[0]);
    } else if (strcmp(op, "Shrink") == 0) {   /* x < -l: x + bias; x > l: x - bias; else 0 */
        double lambd = tko_attr_float(n, "lambd", 0.5f), bias = tko_attr_float(n, "bias", 0.0f);
        tk_tensor *lo = NULL, *hi = NULL, *xb = NULL, *xs = NULL, *z = NULL, *in = NULL;
        /* the float bounds compare with ints as floats (as the reference): an int scalar would take an
         * unsigned x's type and wrap, so u16 0 < -2 would hold */
        const tk_tensor *xc = x;
        s = tk_dtype_is_float(tk_tensor_dtype(x)) ? TK_OK : tk_to_dtype(ctx, x, TK_DTYPE_F64, &t1);
        if (t1) xc = t1;
        if (!s && !(s = tk_binary_scalar(ctx, TK_LT, xc, -lambd, &lo)) && !(s = tk_binary_scalar(ctx, TK_GT, xc, lambd, &hi)) &&
            !(s = tk_binary_scalar(ctx, TK_ADD, x, bias, &xb)) && !(s = tk_binary_scalar(ctx, TK_SUB, x, bias, &xs)) &&
            !(s = tk_zeros_like(ctx, x, &z)) && !(s = tk_where(ctx, hi, xs, z, &in)))
            s = tk_where(ctx, lo, xb, in, &oc->out[0]);
        tk_tensor_release(lo), tk_tensor_release(hi), tk_tensor_release(xb), tk_tensor_release(xs), tk_tensor_release(z),
            tk_tensor_release(in);
    } else if (strcmp(op, "Softsign") == 0) {   /* x / (1 + |x|) */
        if (!(s = tk_unary(ctx, TK_ABS, x, &t1)) && !(s = tk_binary_scalar(ctx, TK_ADD, t1, 1.0, &t2)))
            s = tk_div(ctx, x, t2, &oc->out[0]);
    } else if (strcmp(op, "Gelu") == 0) {
        const char *approx = tko_attr_string(n, "approximate", "none");
        s = tk_unary(ctx, strcmp(approx, "tanh") == 0 ? TK_GELU_TANH : TK_GELU, x, &oc->out[0]);
    } else if (strcmp(op, "PRelu") == 0) {   /* x < 0 ? slope * x : x, slope broadcast */
        const tk_tensor *slope = oc->in[1];
        int r = tk_tensor_ndim(x);
        /* before opset 7 a [C] slope is per channel (dim 1), not NumPy-aligned to the last dim */
        if (n->opset < 7 && tk_tensor_ndim(slope) == 1 && r >= 3 && tk_tensor_shape(slope)[0] == tk_tensor_shape(x)[1]) {
            int64_t shape[TK_MAX_DIMS];
            for (int d = 0; d < r - 1; d++) shape[d] = d == 0 ? tk_tensor_shape(x)[1] : 1;
            s = tk_reshape(ctx, slope, r - 1, shape, &t3);
            slope = t3;
        } else s = TK_OK;
        if (!s && !(s = tk_binary_scalar(ctx, TK_LT, x, 0, &t1)) && !(s = tk_mul(ctx, x, slope, &t2)))
            s = tk_where(ctx, t1, t2, x, &oc->out[0]);
    } else if (strcmp(op, "Softplus") == 0) s = tk_unary(ctx, TK_SOFTPLUS, x, &oc->out[0]);
    else if (strcmp(op, "Swish") == 0) {   /* x * sigmoid(alpha * x) */
        double alpha = tko_attr_float(n, "alpha", 1.0f);
        if (!(s = tk_binary_scalar(ctx, TK_MUL, x, alpha, &t1)) && !(s = tk_unary(ctx, TK_SIGMOID, t1, &t2)))
            s = tk_mul(ctx, x, t2, &oc->out[0]);
    } else s = tkr_error(ctx, TK_ERR_INTERNAL, "no activation %s", op);
    tk_tensor_release(t1), tk_tensor_release(t2), tk_tensor_release(t3);
    if (s) return tko_wrap(oc, s);
    return as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
}

static const char *check_gelu(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *a = tko_attr_string(n, "approximate", "none");
    if (strcmp(a, "none") && strcmp(a, "tanh")) {
        snprintf(why, len, "approximate='%s' is neither 'none' nor 'tanh'", a);
        return why;
    }
    return NULL;
}

/* Clip: bounds from attributes (opset < 11) or optional scalar inputs. */
static tk_status run_clip(TkoOpCtx *oc)
{
    tk_clamp_opts o = { 0 };
    tk_status s;
    if (oc->node->opset < 11) {
        o.has_min = tko_attr(oc->node, "min") != NULL, o.min = tko_attr_float(oc->node, "min", 0);
        o.has_max = tko_attr(oc->node, "max") != NULL, o.max = tko_attr_float(oc->node, "max", 0);
    } else {
        if (oc->nin > 1 && oc->in[1]) {
            if ((s = tko_input_scalar(oc, 1, &o.min))) return s;
            o.has_min = true;
        }
        if (oc->nin > 2 && oc->in[2]) {
            if ((s = tko_input_scalar(oc, 2, &o.max))) return s;
            o.has_max = true;
        }
    }
    if (!o.has_min && !o.has_max) return tko_wrap(oc, tk_clone(oc->ctx, oc->in[0], &oc->out[0]));
    /* ONNX clamps min first, then max (min > max gives max everywhere, as torch) */
    s = tko_wrap(oc, tk_clamp(oc->ctx, oc->in[0], &o, &oc->out[0]));
    return s ? s : as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[0]));
}

static tk_status run_where(TkoOpCtx *oc)
{
    tk_status s = tko_wrap(oc, tk_where(oc->ctx, oc->in[0], oc->in[1], oc->in[2], &oc->out[0]));
    return s ? s : as_dtype(oc, &oc->out[0], tk_tensor_dtype(oc->in[1]));
}

/* The E8M0 rounding of Cast's round_mode attribute ("up" by default); -1 if unknown. */
static int round_mode_of(const TkoNode *n)
{
    const char *rm = tko_attr_string(n, "round_mode", "up");
    return !strcmp(rm, "up") ? TKR_ROUND_UP : !strcmp(rm, "down") ? TKR_ROUND_DOWN : !strcmp(rm, "nearest") ? TKR_ROUND_NEAREST : -1;
}

/* Cast and CastLike: round-to-nearest-even into f16/bf16, as tk_to_dtype;
 * into the low-precision types with the saturate attribute (float8 only:
 * 1 clips to the largest finite value, 0 overflows to inf/NaN) and E8M0's
 * round_mode (runtime/core/dtype_lowp.c). */
static tk_status run_cast(TkoOpCtx *oc)
{
    tk_dtype to;
    if (strcmp(oc->node->op, "CastLike") == 0) to = tk_tensor_dtype(oc->in[1]);
    else {
        int d = tkr_onnx_dtype(tko_attr_int(oc->node, "to", 0));
        if (d < 0)
            return tko_fail(oc, TK_ERR_UNSUPPORTED, "cast to %s: the runtime has no such dtype",
                            tkr_onnx_type_name(tko_attr_int(oc->node, "to", 0)));
        to = (tk_dtype)d;
    }
    if (tkr_dtype_is_lowp(to)) {
        bool saturate = tko_attr_int(oc->node, "saturate", 1) != 0;
        int rm = round_mode_of(oc->node);
        if (rm < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "round_mode '%s' is not up, down or nearest",
                                    tko_attr_string(oc->node, "round_mode", "up"));
        return tko_wrap(oc, tkr_to_lowp(oc->ctx, oc->in[0], to, saturate, (TkrRoundMode)rm, &oc->out[0]));
    }
    return tko_wrap(oc, tk_to_dtype(oc->ctx, oc->in[0], to, &oc->out[0]));
}

static const char *check_cast(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (strcmp(n->op, "Cast") == 0 && tkr_onnx_dtype(tko_attr_int(n, "to", 0)) < 0) {
        snprintf(why, len, "cast to %s: the runtime has no such dtype", tkr_onnx_type_name(tko_attr_int(n, "to", 0)));
        return why;
    }
    if (round_mode_of(n) < 0) {
        snprintf(why, len, "round_mode '%s' is not up, down or nearest", tko_attr_string(n, "round_mode", "up"));
        return why;
    }
    return NULL;
}

/* Identity: the same tensor or sequence (values are immutable inside a run). */
static tk_status run_identity(TkoOpCtx *oc)
{
    if (oc->seq_in && oc->seq_in[0]) oc->seq_out[0] = tko_seq_retain(oc->seq_in[0]);
    else oc->out[0] = tk_tensor_retain(oc->in[0]);
    return TK_OK;
}

static const TkoOpDef defs[] = {
    /* opsets 1-6: broadcasting was opt-in (broadcast=1), with B aligned at `axis` */
    OPDEF("Add", 1, 6, "axis,broadcast,consumed_inputs", run_binary_legacy, NULL, 2, 2, TK_ADD),
    OPDEF("Sub", 1, 6, "axis,broadcast,consumed_inputs", run_binary_legacy, NULL, 2, 2, TK_SUB),
    OPDEF("Mul", 1, 6, "axis,broadcast,consumed_inputs", run_binary_legacy, NULL, 2, 2, TK_MUL),
    OPDEF("Div", 1, 6, "axis,broadcast,consumed_inputs", run_binary_legacy, NULL, 2, 2, TK_DIV),
    OPDEF("Pow", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_POW),
    OPDEF("Equal", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_EQ),
    OPDEF("Less", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_LT),
    OPDEF("Greater", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_GT),
    OPDEF("And", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_LOGICAL_AND),
    OPDEF("Or", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_LOGICAL_OR),
    OPDEF("Xor", 1, 6, "axis,broadcast", run_binary_legacy, NULL, 2, 2, TK_LOGICAL_XOR),
    OPDEF("Max", 1, 7, "consumed_inputs", run_variadic, NULL, 1, -1, 0),
    OPDEF("Min", 1, 7, "consumed_inputs", run_variadic, NULL, 1, -1, 0),
    OPDEF("Sum", 1, 7, "consumed_inputs", run_variadic, NULL, 1, -1, 0),
    OPDEF("Mean", 1, 7, "consumed_inputs", run_variadic, NULL, 1, -1, 0),
    OPDEF("PRelu", 1, 6, "consumed_inputs", run_activation, NULL, 2, 2, 0),
    OPDEF("Add", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_ADD),
    OPDEF("Sub", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_SUB),
    OPDEF("Mul", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_MUL),
    OPDEF("Div", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_DIV),
    OPDEF("Pow", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_POW),
    OPDEF("Mod", 10, TKO_ANY, "fmod", run_mod, NULL, 2, 2, 0),
    OPDEF("BitShift", 11, TKO_ANY, "direction", run_bitshift, check_bitshift, 2, 2, 0),
    OPDEF("Equal", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_EQ),
    OPDEF("Less", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_LT),
    OPDEF("LessOrEqual", 12, TKO_ANY, "", run_binary, NULL, 2, 2, TK_LE),
    OPDEF("Greater", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_GT),
    OPDEF("GreaterOrEqual", 12, TKO_ANY, "", run_binary, NULL, 2, 2, TK_GE),
    OPDEF("And", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_LOGICAL_AND),
    OPDEF("Or", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_LOGICAL_OR),
    OPDEF("Xor", 7, TKO_ANY, "", run_binary, NULL, 2, 2, TK_LOGICAL_XOR),
    OPDEF("BitwiseAnd", 18, TKO_ANY, "", run_binary, NULL, 2, 2, TK_BITWISE_AND),
    OPDEF("BitwiseOr", 18, TKO_ANY, "", run_binary, NULL, 2, 2, TK_BITWISE_OR),
    OPDEF("BitwiseXor", 18, TKO_ANY, "", run_binary, NULL, 2, 2, TK_BITWISE_XOR),
    OPDEF("Max", 8, TKO_ANY, "", run_variadic, NULL, 1, -1, 0),
    OPDEF("Min", 8, TKO_ANY, "", run_variadic, NULL, 1, -1, 0),
    OPDEF("Sum", 8, TKO_ANY, "", run_variadic, NULL, 1, -1, 0),
    OPDEF("Mean", 8, TKO_ANY, "", run_variadic, NULL, 1, -1, 0),
    OPDEF("Not", 1, TKO_ANY, "", run_unary, NULL, 1, 1, TK_LOGICAL_NOT),
    OPDEF("BitwiseNot", 18, TKO_ANY, "", run_unary, NULL, 1, 1, TK_BITWISE_NOT),
    OPDEF("Neg", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_NEG),
    OPDEF("Abs", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_ABS),
    OPDEF("Sign", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_SIGN),
    OPDEF("Reciprocal", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_RECIPROCAL),
    OPDEF("Exp", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_EXP),
    OPDEF("Log", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_LOG),
    OPDEF("Sqrt", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_SQRT),
    OPDEF("Sin", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_SIN),
    OPDEF("Cos", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_COS),
    OPDEF("Tan", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_TAN),
    OPDEF("Asin", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ASIN),
    OPDEF("Acos", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ACOS),
    OPDEF("Atan", 7, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ATAN),
    OPDEF("Sinh", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_SINH),
    OPDEF("Cosh", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_COSH),
    OPDEF("Tanh", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_TANH),
    OPDEF("Asinh", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ASINH),
    OPDEF("Acosh", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ACOSH),
    OPDEF("Atanh", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ATANH),
    OPDEF("Erf", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ERF),
    OPDEF("Floor", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_FLOOR),
    OPDEF("Ceil", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_CEIL),
    OPDEF("Round", 11, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ROUND),
    OPDEF("Sigmoid", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_SIGMOID),
    OPDEF("Relu", 1, TKO_ANY, "consumed_inputs", run_unary, NULL, 1, 1, TK_RELU),
    OPDEF("HardSwish", 14, TKO_ANY, "", run_unary, NULL, 1, 1, TK_HARDSWISH),
    OPDEF("Mish", 18, TKO_ANY, "", run_unary, NULL, 1, 1, TK_MISH),
    OPDEF("IsNaN", 9, TKO_ANY, "", run_unary, NULL, 1, 1, TK_ISNAN),
    OPDEF("IsInf", 10, TKO_ANY, "detect_negative,detect_positive", run_isinf, NULL, 1, 1, 0),
    OPDEF("LeakyRelu", 1, TKO_ANY, "alpha,consumed_inputs", run_activation, NULL, 1, 1, 0),
    OPDEF("Elu", 1, TKO_ANY, "alpha,consumed_inputs", run_activation, NULL, 1, 1, 0),
    OPDEF("Selu", 1, TKO_ANY, "alpha,gamma,consumed_inputs", run_activation, NULL, 1, 1, 0),
    OPDEF("Celu", 12, TKO_ANY, "alpha", run_activation, NULL, 1, 1, 0),
    OPDEF("HardSigmoid", 1, TKO_ANY, "alpha,beta,consumed_inputs", run_activation, NULL, 1, 1, 0),
    OPDEF("ThresholdedRelu", 10, TKO_ANY, "alpha", run_activation, NULL, 1, 1, 0),
    OPDEF("Shrink", 9, TKO_ANY, "lambd,bias", run_activation, NULL, 1, 1, 0),
    OPDEF("Softsign", 1, TKO_ANY, "", run_activation, NULL, 1, 1, 0),
    OPDEF("Softplus", 1, TKO_ANY, "", run_activation, NULL, 1, 1, 0),
    OPDEF("Gelu", 20, TKO_ANY, "approximate", run_activation, check_gelu, 1, 1, 0),
    OPDEF("PRelu", 7, TKO_ANY, "", run_activation, NULL, 2, 2, 0),
    OPDEF("Swish", 24, TKO_ANY, "alpha", run_activation, NULL, 1, 1, 0),
    OPDEF("Clip", 1, 10, "min,max,consumed_inputs", run_clip, NULL, 1, 1, 0),
    OPDEF("Clip", 11, TKO_ANY, "", run_clip, NULL, 1, 3, 0),
    OPDEF("Where", 9, TKO_ANY, "", run_where, NULL, 3, 3, 0),
    OPDEF("Cast", 6, TKO_ANY, "to,saturate,round_mode", run_cast, check_cast, 1, 1, 0),
    OPDEF("CastLike", 15, TKO_ANY, "saturate,round_mode", run_cast, check_cast, 2, 2, 0),
    VALDEF("Identity", 1, TKO_ANY, "", run_identity, NULL, 1, 1, 0),
    MSDEF("Gelu", 1, TKO_ANY, "", run_activation, NULL, 1, 1, 0),
};

TKO_FAMILY_OF(tko_ops_elementwise, defs);
