/* op_quant.c — ONNX linear quantization: QuantizeLinear, DequantizeLinear
 * (per-tensor, per-axis and blocked scales), DynamicQuantizeLinear,
 * MatMulInteger and QLinearMatMul. Quantized types are u8, i8, u16, i16, the
 * 4- and 2-bit integers (clipped to their range like the others) and the
 * float8/float4 types (x / scale cast with the saturate attribute; float8
 * ignores the zero point, float4 adds it first, as the ONNX reference).
 *
 * Rounding follows the ONNX reference (numpy) step by step, since a quantized
 * value is an integer and one rounding difference is a wrong answer:
 * x / scale is computed in the type numpy would (f32 for f32 operands, f16
 * for f16, f64 when x is i32, or the `precision` attribute's type), rounded
 * half to even (rint), the zero point added, then clipped to the type. */
#include <math.h>
#include <string.h>

/* The quantize loop's bounds are float compares: GCC will not turn them into
 * vector selects while it must keep the FP exceptions a compare of NaN may
 * raise (no one here reads them); and -O2 (RelWithDebInfo) vectorises only
 * loops with no runtime checks or epilogue, so ask for the full cost model,
 * as runtime/ops/binary.c does. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math", "vect-cost-model=dynamic")
#endif

#include "op.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ONNX TensorProto.DataType values the checks name. */
enum { ONNX_FLOAT = 1, ONNX_UINT8 = 2, ONNX_INT8 = 3, ONNX_UINT16 = 4, ONNX_INT16 = 5, ONNX_FLOAT16 = 10, ONNX_BFLOAT16 = 16 };

static bool is_quant_type(tk_dtype d)
{
    return d == TK_DTYPE_U8 || d == TK_DTYPE_I8 || d == TK_DTYPE_I16 || d == TK_DTYPE_U16 ||
           (tkr_dtype_is_lowp(d) && d != TK_DTYPE_F8E8M0);
}

static bool is_float8(tk_dtype d) { return tkr_dtype_is_lowp_float(d) && d != TK_DTYPE_F4E2M1 && d != TK_DTYPE_F8E8M0; }

static void quant_range(tk_dtype d, double *lo, double *hi)
{
    if (d == TK_DTYPE_U8) *lo = 0, *hi = 255;
    else if (d == TK_DTYPE_I8) *lo = -128, *hi = 127;
    else if (d == TK_DTYPE_U16) *lo = 0, *hi = 65535;
    else if (d == TK_DTYPE_I4) *lo = -8, *hi = 7;
    else if (d == TK_DTYPE_U4) *lo = 0, *hi = 15;
    else if (d == TK_DTYPE_I2) *lo = -2, *hi = 1;
    else if (d == TK_DTYPE_U2) *lo = 0, *hi = 3;
    else *lo = -32768, *hi = 32767;   /* i16 (the float types ignore the range) */
}

/* v rounded to dtype d (f16/bf16 through their 16-bit patterns). */
static double round_to(double v, tk_dtype d)
{
    if (d == TK_DTYPE_F64) return v;
    if (d == TK_DTYPE_F32) return (float)v;
    uint16_t b;
    tkr_store_f(&b, d, v);
    return tkr_load_f(&b, d);
}

/* numpy's rint(v).astype(int32), clipped to [lo, hi] after adding zp. */
static double saturate(double q, double zp, double lo, double hi)
{
    double r = rint(q);
    if (isnan(r) || r < -2147483648.0) r = -2147483648.0;   /* NaN and -inf become INT32_MIN in numpy's cast */
    if (r > 2147483647.0) r = 2147483647.0;
    r += zp;
    return r < lo ? lo : r > hi ? hi : r;
}

/* A scale or zero point made broadcastable to x's shape: one value as a scalar,
 * a 1-D per-axis vector reshaped onto the axis, a blocked one (x's rank,
 * ceil(n / block_size) along the axis) repeated block_size times and cut to n. */
static tk_status broadcast_param(TkoOpCtx *oc, const char *what, const tk_tensor *p, const tk_tensor *x, int axis, int64_t block,
                                 tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    int nd = tk_tensor_ndim(x), pn = tk_tensor_ndim(p);
    const int64_t *xs = tk_tensor_shape(x), *ps = tk_tensor_shape(p);
    if (tk_tensor_numel(p) == 1) return tko_wrap(oc, tk_reshape(ctx, p, 0, NULL, out));
    if (block <= 0) {
        if (pn != 1 || nd == 0 || ps[0] != xs[axis])
            return tko_fail(oc, TK_ERR_SHAPE, "%s has %lld values; per-axis quantization wants one per index of axis %d (%lld)", what,
                            (long long)tk_tensor_numel(p), axis, nd ? (long long)xs[axis] : 0LL);
        int64_t shape[TK_MAX_DIMS];
        for (int a = 0; a < nd; a++) shape[a] = a == axis ? xs[axis] : 1;
        return tko_wrap(oc, tk_reshape(ctx, p, nd, shape, out));
    }
    bool fits = pn == nd && ps[axis] == (xs[axis] + block - 1) / block;
    for (int a = 0; a < nd && fits; a++) fits = a == axis || ps[a] == xs[a];
    if (!fits) {
        char b1[96], b2[96];
        return tko_fail(oc, TK_ERR_SHAPE, "%s of shape %s does not block x of shape %s by block_size %lld along axis %d", what,
                        tkr_shape_str(pn, ps, b1, sizeof b1), tkr_shape_str(nd, xs, b2, sizeof b2), (long long)block, axis);
    }
    /* [.., B, ..] -> [.., B, 1, ..] -> [.., B, block, ..] -> [.., B*block, ..] -> [.., n, ..] */
    int64_t shape[TK_MAX_DIMS + 1];
    for (int a = 0, k = 0; a < nd; a++) {
        shape[k++] = ps[a];
        if (a == axis) shape[k++] = block;
    }
    tk_tensor *u = NULL, *e = NULL, *r = NULL;
    tk_status s = tk_unsqueeze(ctx, p, axis + 1, &u);
    if (!s) s = tk_expand(ctx, u, nd + 1, shape, &e);
    int64_t merged[TK_MAX_DIMS];
    for (int a = 0; a < nd; a++) merged[a] = a == axis ? ps[a] * block : ps[a];
    if (!s) s = tk_reshape(ctx, e, nd, merged, &r);
    if (!s) s = tk_slice(ctx, r, axis, 0, xs[axis], 1, out);
    tk_tensor_release(u), tk_tensor_release(e), tk_tensor_release(r);
    return tko_wrap(oc, s);
}

typedef struct {
    tk_dtype x, scale, zp, y;
    tk_dtype div;        /* Quantize: the type x / scale is rounded to */
    bool has_zp;
    bool wide;           /* Dequantize: numpy computes in f64 (an i32 zero point promotes f32 to f64) */
    bool saturate;       /* Quantize into float8: clip to the largest finite value */
    double lo, hi;
} QuantLoop;

/* The common case as loops the compiler vectorises: f32 x and scale, u8/i8
 * y, x and y contiguous along the run; the scale and zero point each one
 * value for the run (stride 0) or contiguous. Bit for bit the generic loop's
 * result: the f32 quotient is bounded first (NaN to the low bound, as
 * numpy's cast of NaN ends at the type's lowest), then rounded half to even
 * by adding and subtracting 1.5·2²³ (exact for |v| < 2²²). */
#define QUANT_F32(name, T, S_AT, Z_AT)                                                                        \
    static void name(T *restrict y, const float *restrict x, const float *restrict sc, const T *restrict zp, \
                     int64_t n, int32_t lo, int32_t hi)                                                       \
    {                                                                                                         \
        for (int64_t i = 0; i < n; i++) {                                                                     \
            float v = x[i] / sc[S_AT];                                                                        \
            v = v >= -65536.0f ? v : -65536.0f;                                                               \
            v = v <= 65536.0f ? v : 65536.0f;                                                                 \
            int32_t t = (int32_t)((v + 12582912.0f) - 12582912.0f) + (int32_t)zp[Z_AT];                       \
            y[i] = (T)(t < lo ? lo : t > hi ? hi : t);                                                        \
        }                                                                                                     \
    }
QUANT_F32(quant_u8_ss, uint8_t, 0, 0)
QUANT_F32(quant_u8_vs, uint8_t, i, 0)
QUANT_F32(quant_u8_vv, uint8_t, i, i)
QUANT_F32(quant_i8_ss, int8_t, 0, 0)
QUANT_F32(quant_i8_vs, int8_t, i, 0)
QUANT_F32(quant_i8_vv, int8_t, i, i)

static bool quantize_fast(char **p, const int64_t *st, int64_t n, const QuantLoop *q)
{
    static const uint8_t no_zero_point[1] = { 0 };
    int64_t zst = q->has_zp ? st[3] : 0;
    if (q->x != TK_DTYPE_F32 || q->scale != TK_DTYPE_F32 || q->div != TK_DTYPE_F32 || tk_dtype_size(q->y) != 1 ||
        tkr_dtype_is_lowp_float(q->y) || st[0] != 1 ||
        st[1] != 4 || (st[2] != 0 && st[2] != 4) || (zst != 0 && zst != 1) || (st[2] == 0 && zst == 1))
        return false;
    const float *x = (const float *)p[1], *sc = (const float *)p[2];
    const void *zp = q->has_zp ? (const void *)p[3] : (const void *)no_zero_point;
    int32_t lo = (int32_t)q->lo, hi = (int32_t)q->hi;
    bool u8 = q->y == TK_DTYPE_U8;
    if (st[2] == 0) u8 ? quant_u8_ss((uint8_t *)p[0], x, sc, zp, n, lo, hi) : quant_i8_ss((int8_t *)p[0], x, sc, zp, n, lo, hi);
    else if (zst == 0) u8 ? quant_u8_vs((uint8_t *)p[0], x, sc, zp, n, lo, hi) : quant_i8_vs((int8_t *)p[0], x, sc, zp, n, lo, hi);
    else u8 ? quant_u8_vv((uint8_t *)p[0], x, sc, zp, n, lo, hi) : quant_i8_vv((int8_t *)p[0], x, sc, zp, n, lo, hi);
    return true;
}

/* operands: y, x, scale, zero point (optional) */
static void quantize_run(char **p, const int64_t *st, int64_t n, void *arg)
{
    const QuantLoop *q = arg;
    if (quantize_fast(p, st, n, q)) return;
    for (int64_t i = 0; i < n; i++) {
        double x = tkr_load_f(p[1] + i * st[1], q->x), sc = tkr_load_f(p[2] + i * st[2], q->scale);
        double v = q->div == TK_DTYPE_F64 ? x / sc : round_to((double)((float)round_to(x, q->div) / (float)round_to(sc, q->div)), q->div);
        double zp = q->has_zp ? tkr_load_f(p[3] + i * st[3], q->zp) : 0;
        if (is_float8(q->y)) *(uint8_t *)(p[0] + i * st[0]) = tkr_lowp_encode(q->y, v, q->saturate, TKR_ROUND_UP);
        else if (q->y == TK_DTYPE_F4E2M1)   /* x / scale + zp in f32 (numpy), then the cast (which saturates) */
            *(uint8_t *)(p[0] + i * st[0]) = tkr_lowp_encode(q->y, (float)((float)v + (float)zp), false, TKR_ROUND_UP);
        else tkr_store_i(p[0] + i * st[0], q->y, (int64_t)saturate(v, zp, q->lo, q->hi));
    }
}

/* The common dequantization as vectorisable loops: u8/i8 x (and zero point), f32 scale and y. */
#define DEQUANT_F32(name, T, S_AT, Z_AT)                                                                      \
    static void name(float *restrict y, const T *restrict x, const float *restrict sc, const T *restrict zp, \
                     int64_t n)                                                                               \
    {                                                                                                         \
        for (int64_t i = 0; i < n; i++) y[i] = (float)((int32_t)x[i] - (int32_t)zp[Z_AT]) * sc[S_AT];        \
    }
DEQUANT_F32(dequant_u8_ss, uint8_t, 0, 0)
DEQUANT_F32(dequant_u8_vs, uint8_t, i, 0)
DEQUANT_F32(dequant_u8_vv, uint8_t, i, i)
DEQUANT_F32(dequant_i8_ss, int8_t, 0, 0)
DEQUANT_F32(dequant_i8_vs, int8_t, i, 0)
DEQUANT_F32(dequant_i8_vv, int8_t, i, i)

static bool dequantize_fast(char **p, const int64_t *st, int64_t n, const QuantLoop *q)
{
    static const uint8_t no_zero_point[1] = { 0 };
    int64_t zst = q->has_zp ? st[3] : 0;
    if ((q->x != TK_DTYPE_U8 && q->x != TK_DTYPE_I8) || q->scale != TK_DTYPE_F32 || q->y != TK_DTYPE_F32 || st[0] != 4 ||
        st[1] != 1 || (st[2] != 0 && st[2] != 4) || (zst != 0 && zst != 1) || (st[2] == 0 && zst == 1))
        return false;
    float *y = (float *)p[0];
    const float *sc = (const float *)p[2];
    const void *zp = q->has_zp ? (const void *)p[3] : (const void *)no_zero_point;
    bool u8 = q->x == TK_DTYPE_U8;
    if (st[2] == 0) u8 ? dequant_u8_ss(y, (const uint8_t *)p[1], sc, zp, n) : dequant_i8_ss(y, (const int8_t *)p[1], sc, zp, n);
    else if (zst == 0) u8 ? dequant_u8_vs(y, (const uint8_t *)p[1], sc, zp, n) : dequant_i8_vs(y, (const int8_t *)p[1], sc, zp, n);
    else u8 ? dequant_u8_vv(y, (const uint8_t *)p[1], sc, zp, n) : dequant_i8_vv(y, (const int8_t *)p[1], sc, zp, n);
    return true;
}

static void dequantize_run(char **p, const int64_t *st, int64_t n, void *arg)
{
    const QuantLoop *q = arg;
    if (dequantize_fast(p, st, n, q)) return;
    for (int64_t i = 0; i < n; i++) {
        double x = (float)tkr_load_f(p[1] + i * st[1], q->x), sc = tkr_load_f(p[2] + i * st[2], q->scale);
        double zp = q->has_zp ? tkr_load_f(p[3] + i * st[3], q->zp) : 0;
        double v = q->wide ? (x - zp) * sc : (double)((float)(x - zp) * (float)sc);
        tkr_store_f(p[0] + i * st[0], q->y, v);
    }
}

/* Runs fn over y, x and the broadcast scale / zero point. */
static tk_status quant_loop(TkoOpCtx *oc, TkrLoopFn fn, QuantLoop *q, const tk_tensor *x, const tk_tensor *scale,
                            const tk_tensor *zp, tk_tensor **out)
{
    tk_tensor *y;
    tk_status s = tkr_new(oc->ctx, q->y, tk_tensor_ndim(x), tk_tensor_shape(x), &y);
    if (s) return tko_wrap(oc, s);
    const tk_tensor *ops[4] = { y, x, scale, zp };
    TkrIter it;
    s = tkr_iter_init(oc->ctx, oc->node->op, &it, tk_tensor_ndim(x), tk_tensor_shape(x), zp ? 4 : 3, ops);
    if (s) {
        tk_tensor_release(y);
        return tko_wrap(oc, s);
    }
    tkr_iter_run(oc->ctx, &it, fn, q);
    *out = y;
    return TK_OK;
}

/* The quantization axis and block size (per-tensor ops ignore them). */
static tk_status quant_axis(TkoOpCtx *oc, int *axis, int64_t *block)
{
    int nd = tk_tensor_ndim(oc->in[0]);
    *block = tko_attr_int(oc->node, "block_size", 0);
    if (*block < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "block_size %lld is negative", (long long)*block);
    bool per_tensor = tk_tensor_numel(oc->in[1]) == 1;
    if (nd == 0 || per_tensor) {
        *axis = 0;
        return TK_OK;
    }
    return tko_axis(oc, tko_attr_int(oc->node, "axis", 1), nd, axis);
}

static tk_status run_quantize(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0], *scale = oc->in[1], *zp = oc->nin > 2 ? oc->in[2] : NULL;
    QuantLoop q = { .x = tk_tensor_dtype(x), .scale = tk_tensor_dtype(scale), .has_zp = zp != NULL };
    int64_t odt = tko_attr_int(n, "output_dtype", 0), prec = tko_attr_int(n, "precision", 0);
    q.y = zp ? tk_tensor_dtype(zp) : odt ? (tk_dtype)tkr_onnx_dtype(odt) : TK_DTYPE_U8;
    q.zp = q.y;
    if (!is_quant_type(q.y))
        return tko_fail(oc, TK_ERR_DTYPE, "the quantized type is %s; u8, i8, u16, i16, i4, u4, i2, u2, float8 and f4e2m1 are supported",
                        tk_dtype_name(q.y));
    q.saturate = tko_attr_int(n, "saturate", 1) != 0;
    if (zp && odt && tkr_onnx_dtype(odt) != (int)q.y)
        return tko_fail(oc, TK_ERR_DTYPE, "output_dtype %s differs from the zero point's type %s", tkr_onnx_type_name(odt),
                        tk_dtype_name(q.y));
    if (!tk_dtype_is_float(q.scale)) return tko_fail(oc, TK_ERR_DTYPE, "y_scale is %s; it must be a float", tk_dtype_name(q.scale));
    if (q.x != TK_DTYPE_I32 && !tk_dtype_is_float(q.x)) return tko_fail(oc, TK_ERR_DTYPE, "x is %s; float or i32 is required", tk_dtype_name(q.x));
    /* numpy: x / scale in their common type (i32 with a float gives f64), or in `precision` */
    q.div = prec ? (tk_dtype)tkr_onnx_dtype(prec) : q.x == TK_DTYPE_I32 ? TK_DTYPE_F64 : tk_promote_types(q.x, q.scale);
    quant_range(q.y, &q.lo, &q.hi);
    int axis;
    int64_t block;
    tk_status s = quant_axis(oc, &axis, &block);
    tk_tensor *sb = NULL, *zb = NULL;
    if (!s) s = broadcast_param(oc, "y_scale", scale, x, axis, block, &sb);
    if (!s && zp) s = broadcast_param(oc, "y_zero_point", zp, x, axis, block, &zb);
    if (!s) s = quant_loop(oc, quantize_run, &q, x, sb, zb, &oc->out[0]);
    tk_tensor_release(sb), tk_tensor_release(zb);
    return s;
}

static tk_status run_dequantize(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0], *scale = oc->in[1], *zp = oc->nin > 2 ? oc->in[2] : NULL;
    QuantLoop q = { .x = tk_tensor_dtype(x), .scale = tk_tensor_dtype(scale), .has_zp = zp != NULL };
    int64_t odt = tko_attr_int(n, "output_dtype", 0);
    q.y = odt ? (tk_dtype)tkr_onnx_dtype(odt) : q.scale;
    if (!tk_dtype_is_float(q.scale)) return tko_fail(oc, TK_ERR_DTYPE, "x_scale is %s; it must be a float", tk_dtype_name(q.scale));
    if (!is_quant_type(q.x) && q.x != TK_DTYPE_I32)
        return tko_fail(oc, TK_ERR_DTYPE, "x is %s; u8, i8, u16, i16, i32, i4, u4, i2, u2, float8 or f4e2m1 is supported",
                        tk_dtype_name(q.x));
    if (zp) {
        q.zp = tk_tensor_dtype(zp);
        if (q.zp != q.x)
            return tko_fail(oc, TK_ERR_DTYPE, "x is %s but x_zero_point is %s", tk_dtype_name(q.x), tk_dtype_name(q.zp));
        if (is_float8(q.zp)) {   /* the reference requires float8 zero points to be zero (their bytes, as uint8) */
            tk_tensor *c = NULL;
            tk_status s = tko_wrap(oc, tkr_contiguous(oc->ctx, zp, &c));
            if (s) return s;
            const uint8_t *b = (const uint8_t *)tkr_ptr(c);
            bool nonzero = false;
            for (int64_t i = 0; i < tk_tensor_numel(c); i++) nonzero |= b[i] != 0;
            tk_tensor_release(c);
            if (nonzero) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "x_zero_point of %s must be zero", tk_dtype_name(q.zp));
        }
        q.wide = q.zp == TK_DTYPE_I32;
    }
    int axis;
    int64_t block;
    tk_status s = quant_axis(oc, &axis, &block);
    tk_tensor *sb = NULL, *zb = NULL;
    if (!s) s = broadcast_param(oc, "x_scale", scale, x, axis, block, &sb);
    if (!s && zp) s = broadcast_param(oc, "x_zero_point", zp, x, axis, block, &zb);
    if (!s) s = quant_loop(oc, dequantize_run, &q, x, sb, zb, &oc->out[0]);
    tk_tensor_release(sb), tk_tensor_release(zb);
    return s;
}

/* Refuses at load the types the runtime does not have (int4, uint16, float8, ...). */
static const char *check_quant(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    bool quantize = strcmp(n->op, "QuantizeLinear") == 0;
    int64_t odt = tko_attr_int(n, "output_dtype", 0), prec = tko_attr_int(n, "precision", 0);
    int odt_rt = tkr_onnx_dtype(odt);
    if (odt && quantize && (odt_rt < 0 || !is_quant_type((tk_dtype)odt_rt))) {
        snprintf(why, len, "output_dtype %s is not supported (u8, i8, u16, i16, i4, u4, i2, u2, float8 and f4e2m1 are)",
                 tkr_onnx_type_name(odt));
        return why;
    }
    if (odt && !quantize && odt != ONNX_FLOAT && odt != ONNX_FLOAT16 && odt != ONNX_BFLOAT16) {
        snprintf(why, len, "output_dtype %s is not supported (f32, f16 and bf16 are)", tkr_onnx_type_name(odt));
        return why;
    }
    if (prec && prec != ONNX_FLOAT && prec != ONNX_FLOAT16 && prec != ONNX_BFLOAT16) {
        snprintf(why, len, "precision %s is not supported (f32, f16 and bf16 are)", tkr_onnx_type_name(prec));
        return why;
    }
    return NULL;
}

/* DynamicQuantizeLinear: u8 with the scale and zero point that map
 * [min(0, min x), max(0, max x)] onto 0..255, in f32 as the reference. */
static tk_status run_dynamic_quantize(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_dtype(x) != TK_DTYPE_F32) return tko_fail(oc, TK_ERR_DTYPE, "x is %s; f32 is required", tk_dtype_name(tk_tensor_dtype(x)));
    if (tk_tensor_numel(x) == 0) return tko_fail(oc, TK_ERR_SHAPE, "x is empty; its range is undefined");
    tk_tensor *mx = NULL, *mn = NULL, *sc = NULL, *zp = NULL;
    double vmax, vmin;
    int64_t idx[TK_MAX_DIMS] = { 0 };
    tk_status s = tk_reduce(ctx, TK_MAX, x, NULL, &mx);
    if (!s) s = tk_reduce(ctx, TK_MIN, x, NULL, &mn);
    if (!s) s = tk_item(ctx, mx, idx, &vmax);
    if (!s) s = tk_item(ctx, mn, idx, &vmin);
    tk_tensor_release(mx), tk_tensor_release(mn);
    if (s) return tko_wrap(oc, s);
    float maxx = vmax > 0 ? (float)vmax : 0.0f, minx = vmin < 0 ? (float)vmin : 0.0f;
    float scale = (maxx == minx ? 1.0f : maxx - minx) / 255.0f;
    float zp0 = 0.0f - minx / scale;
    double zpi = rint(zp0 < 0 ? 0 : zp0 > 255 ? 255 : zp0);
    uint8_t zp8 = (uint8_t)zpi;
    s = tk_from_data(ctx, &scale, TK_DTYPE_F32, 0, NULL, &sc);
    if (!s) s = tk_from_data(ctx, &zp8, TK_DTYPE_U8, 0, NULL, &zp);
    QuantLoop q = { .x = TK_DTYPE_F32, .scale = TK_DTYPE_F32, .zp = TK_DTYPE_U8, .y = TK_DTYPE_U8, .div = TK_DTYPE_F32, .has_zp = true,
                    .lo = 0, .hi = 255 };
    if (s) s = tko_wrap(oc, s);
    else s = quant_loop(oc, quantize_run, &q, x, sc, zp, &oc->out[0]);
    if (s) {
        tk_tensor_release(sc), tk_tensor_release(zp);
        return s;
    }
    oc->out[1] = sc, oc->out[2] = zp;
    return TK_OK;
}

/* t as i32 minus its zero point (NULL: none); a per-row zero point of A (1-D,
 * M values) becomes a column [M, 1]; B's per-column one broadcasts as is. */
static tk_status centred(TkoOpCtx *oc, const tk_tensor *t, const tk_tensor *zp, bool rows, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    tk_dtype d = tk_tensor_dtype(t);
    if (d != TK_DTYPE_U8 && d != TK_DTYPE_I8) return tko_fail(oc, TK_ERR_DTYPE, "an operand is %s; u8 or i8 is required", tk_dtype_name(d));
    tk_tensor *w = NULL, *z = NULL, *zr = NULL;
    tk_status s = tk_to_dtype(ctx, t, TK_DTYPE_I32, &w);
    if (s || !zp) {
        *out = w;
        return tko_wrap(oc, s);
    }
    if (tk_tensor_dtype(zp) != d) {
        tk_tensor_release(w);
        return tko_fail(oc, TK_ERR_DTYPE, "an operand is %s but its zero point is %s", tk_dtype_name(d), tk_dtype_name(tk_tensor_dtype(zp)));
    }
    s = tk_to_dtype(ctx, zp, TK_DTYPE_I32, &z);
    if (!s && rows && tk_tensor_ndim(z) == 1 && tk_tensor_numel(z) > 1)
        s = tk_reshape(ctx, z, 2, (int64_t[]){ tk_tensor_numel(z), 1 }, &zr);
    if (!s) s = tk_sub(ctx, w, zr ? zr : z, out);
    tk_tensor_release(w), tk_tensor_release(z), tk_tensor_release(zr);
    return tko_wrap(oc, s);
}

/* MatMulInteger: (A - a_zp) · (B - b_zp) in i32 (exact, wrapping past i32 as the spec's int32 accumulator). */
static tk_status run_matmul_integer(TkoOpCtx *oc)
{
    tk_tensor *a = NULL, *b = NULL;
    tk_status s = centred(oc, oc->in[0], oc->nin > 2 ? oc->in[2] : NULL, true, &a);
    if (!s) s = centred(oc, oc->in[1], oc->nin > 3 ? oc->in[3] : NULL, false, &b);
    if (!s) s = tko_wrap(oc, tk_matmul(oc->ctx, a, b, &oc->out[0]));
    tk_tensor_release(a), tk_tensor_release(b);
    return s;
}

typedef struct {
    double m, zp, lo, hi;
    tk_dtype y;
} Requant;

/* operands: y, the i32 product */
static void requantize_run(char **p, const int64_t *st, int64_t n, void *arg)
{
    const Requant *r = arg;
    for (int64_t i = 0; i < n; i++) {
        double c = (double)*(const int32_t *)(p[1] + i * st[1]);
        double v = rint(c * r->m + r->zp);   /* numpy: int32 * float gives f64; the zero point is added before rint */
        tkr_store_i(p[0] + i * st[0], r->y, (int64_t)(v < r->lo ? r->lo : v > r->hi ? r->hi : v));
    }
}

/* One value of a per-tensor scale or zero point. */
static tk_status scalar_in(TkoOpCtx *oc, int i, const char *what, double *v)
{
    if (tk_tensor_numel(oc->in[i]) != 1)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "%s has %lld values; only per-tensor quantization is supported", what,
                        (long long)tk_tensor_numel(oc->in[i]));
    return tko_input_scalar(oc, i, v);
}

/* QLinearMatMul: the integer product requantized with a_scale·b_scale/y_scale,
 * that multiplier computed in the scales' own type as the reference does. */
static tk_status run_qlinear_matmul(TkoOpCtx *oc)
{
    double as, bs, ys, yzp;
    tk_status s;
    if ((s = scalar_in(oc, 1, "a_scale", &as)) || (s = scalar_in(oc, 4, "b_scale", &bs)) || (s = scalar_in(oc, 6, "y_scale", &ys)) ||
        (s = scalar_in(oc, 7, "y_zero_point", &yzp)) || (s = scalar_in(oc, 2, "a_zero_point", &(double){ 0 })) ||
        (s = scalar_in(oc, 5, "b_zero_point", &(double){ 0 })))
        return s;
    tk_dtype sd = tk_tensor_dtype(oc->in[1]);
    if (!tk_dtype_is_float(sd)) return tko_fail(oc, TK_ERR_DTYPE, "a_scale is %s; it must be a float", tk_dtype_name(sd));
    Requant r = { .m = round_to(round_to(as * bs, sd) / ys, sd), .zp = yzp, .y = tk_tensor_dtype(oc->in[7]) };
    if (!is_quant_type(r.y)) return tko_fail(oc, TK_ERR_DTYPE, "y_zero_point is %s; u8 or i8 is required", tk_dtype_name(r.y));
    quant_range(r.y, &r.lo, &r.hi);
    tk_tensor *a = NULL, *b = NULL, *c = NULL, *y = NULL;
    s = centred(oc, oc->in[0], oc->in[2], true, &a);
    if (!s) s = centred(oc, oc->in[3], oc->in[5], false, &b);
    if (!s) s = tko_wrap(oc, tk_matmul(oc->ctx, a, b, &c));
    if (!s) s = tko_wrap(oc, tkr_new(oc->ctx, r.y, tk_tensor_ndim(c), tk_tensor_shape(c), &y));
    if (!s) {
        const tk_tensor *ops[2] = { y, c };
        TkrIter it;
        s = tko_wrap(oc, tkr_iter_init(oc->ctx, "QLinearMatMul", &it, tk_tensor_ndim(c), tk_tensor_shape(c), 2, ops));
        if (!s) tkr_iter_run(oc->ctx, &it, requantize_run, &r);
    }
    tk_tensor_release(a), tk_tensor_release(b), tk_tensor_release(c);
    if (s) {
        tk_tensor_release(y);
        return s;
    }
    oc->out[0] = y;
    return TK_OK;
}

static const TkoOpDef defs[] = {
    OPDEF("QuantizeLinear", 10, 12, "", run_quantize, NULL, 2, 3, 0),
    OPDEF("QuantizeLinear", 13, 18, "axis", run_quantize, NULL, 2, 3, 0),
    OPDEF("QuantizeLinear", 19, 20, "axis,saturate", run_quantize, NULL, 2, 3, 0),
    OPDEF("QuantizeLinear", 21, 22, "axis,saturate,block_size,output_dtype", run_quantize, check_quant, 2, 3, 0),
    OPDEF("QuantizeLinear", 23, TKO_ANY, "axis,saturate,block_size,output_dtype,precision", run_quantize, check_quant, 2, 3, 0),
    OPDEF("DequantizeLinear", 10, 12, "", run_dequantize, NULL, 2, 3, 0),
    OPDEF("DequantizeLinear", 13, 20, "axis", run_dequantize, NULL, 2, 3, 0),
    OPDEF("DequantizeLinear", 21, 22, "axis,block_size", run_dequantize, NULL, 2, 3, 0),
    OPDEF("DequantizeLinear", 23, TKO_ANY, "axis,block_size,output_dtype", run_dequantize, check_quant, 2, 3, 0),
    OPDEF("DynamicQuantizeLinear", 11, TKO_ANY, "", run_dynamic_quantize, NULL, 1, 1, 0),
    OPDEF("MatMulInteger", 10, TKO_ANY, "", run_matmul_integer, NULL, 2, 4, 0),
    OPDEF("QLinearMatMul", 10, TKO_ANY, "", run_qlinear_matmul, NULL, 8, 8, 0),
};

TKO_FAMILY_OF(tko_ops_quant, defs);
