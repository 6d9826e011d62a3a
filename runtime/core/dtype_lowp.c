/* dtype_lowp.c — the low-precision storage types: float8 (E4M3FN, E4M3FNUZ,
 * E5M2, E5M2FNUZ, E8M0), float4 (E2M1) and the 4- and 2-bit integers. One
 * element per byte in memory. Conversions follow ONNX 1.23's reference
 * (ml_dtypes' casts; onnx.numpy_helper.saturate_cast and to_float8e8m0):
 *
 *  - to a float8/float4: round to nearest even from the exact value; a value
 *    past the largest finite one becomes inf (E5M2) or NaN (the types without
 *    inf), or the largest finite value when saturating (Cast's saturate=1,
 *    which also maps ±inf to ±max). float4 has neither inf nor NaN: it always
 *    saturates, and NaN becomes a zero of the opposite sign (ml_dtypes' bits).
 *    FNUZ types have one NaN (0x80) and no -0 (a negative underflow is +0).
 *  - to E8M0 (a power of two, 0xFF = NaN): the float32 exponent, rounded up,
 *    down or to nearest by round_mode; the sign is dropped.
 *  - float to a 4-/2-bit integer: truncated toward zero; out of range or NaN
 *    gives 0 (what ml_dtypes' astype gives). Integer to them: wraps.
 *
 * The five minifloats share one table-driven encoder and decoder. */
#include <math.h>
#include <string.h>

#include "internal.h"

typedef struct {
    int ebits, mbits, bias;
    bool has_inf;     /* E5M2: exponent all ones, mantissa 0 */
    bool ieee_nan;    /* E5M2: exponent all ones, mantissa != 0 */
    bool fn_nan;      /* E4M3FN: only S.1111.111 */
    bool fnuz;        /* one NaN 0x80, no -0 */
    bool no_nan;      /* E2M1 */
    uint8_t nan_pos, nan_neg;   /* what NaN encodes to (ml_dtypes' choice) */
} Minifloat;

static const Minifloat *format_of(tk_dtype t)
{
    static const Minifloat e4m3fn = { 4, 3, 7, false, false, true, false, false, 0x7F, 0xFF };
    static const Minifloat e4m3fnuz = { 4, 3, 8, false, false, false, true, false, 0x80, 0x80 };
    static const Minifloat e5m2 = { 5, 2, 15, true, true, false, false, false, 0x7E, 0xFE };
    static const Minifloat e5m2fnuz = { 5, 2, 16, false, false, false, true, false, 0x80, 0x80 };
    static const Minifloat e2m1 = { 2, 1, 1, false, false, false, false, true, 0x08, 0x00 };
    switch (t) {
    case TK_DTYPE_F8E4M3FN: return &e4m3fn;
    case TK_DTYPE_F8E4M3FNUZ: return &e4m3fnuz;
    case TK_DTYPE_F8E5M2: return &e5m2;
    case TK_DTYPE_F8E5M2FNUZ: return &e5m2fnuz;
    case TK_DTYPE_F4E2M1: return &e2m1;
    default: return NULL;
    }
}

bool tkr_dtype_is_lowp(tk_dtype t) { return t >= TK_DTYPE_F8E4M3FN && t <= TK_DTYPE_U2; }
bool tkr_dtype_is_lowp_float(tk_dtype t) { return t >= TK_DTYPE_F8E4M3FN && t <= TK_DTYPE_F4E2M1; }

/* The integer types' ranges. */
static void int_range(tk_dtype t, int *lo, int *hi)
{
    switch (t) {
    case TK_DTYPE_I4: *lo = -8, *hi = 7; break;
    case TK_DTYPE_U4: *lo = 0, *hi = 15; break;
    case TK_DTYPE_I2: *lo = -2, *hi = 1; break;
    default: *lo = 0, *hi = 3; break;
    }
}

static double minifloat_decode(const Minifloat *f, uint8_t b)
{
    int width = 1 + f->ebits + f->mbits;
    b &= (uint8_t)((1u << width) - 1);
    unsigned sign = b >> (width - 1), exp = (b >> f->mbits) & ((1u << f->ebits) - 1), man = b & ((1u << f->mbits) - 1);
    unsigned emax = (1u << f->ebits) - 1;
    if (f->fnuz && b == 0x80) return NAN;
    if (f->fn_nan && exp == emax && man == (1u << f->mbits) - 1) return sign ? -NAN : NAN;
    if (f->ieee_nan && exp == emax) return man ? (sign ? -NAN : NAN) : (sign ? -INFINITY : INFINITY);
    double v = exp == 0 ? ldexp(man, 1 - f->bias - f->mbits) : ldexp((double)((1u << f->mbits) | man), (int)exp - f->bias - f->mbits);
    return sign ? -v : v;
}

/* The largest finite encoding (without sign) of a format. */
static uint8_t minifloat_max_bits(const Minifloat *f)
{
    unsigned emax = (1u << f->ebits) - 1, mall = (1u << f->mbits) - 1;
    if (f->has_inf) return (uint8_t)(((emax - 1) << f->mbits) | mall);   /* E5M2: below the inf/NaN exponent */
    if (f->fn_nan) return (uint8_t)((emax << f->mbits) | (mall - 1));    /* E4M3FN: S.1111.110 */
    return (uint8_t)((emax << f->mbits) | mall);                          /* FNUZ, E2M1: all bits */
}

static uint8_t minifloat_encode(const Minifloat *f, double v, bool saturate)
{
    int width = 1 + f->ebits + f->mbits;
    uint8_t sign_bit = (uint8_t)(1u << (width - 1));
    bool neg = signbit(v);
    if (isnan(v)) return neg ? f->nan_neg : f->nan_pos;
    uint8_t maxb = minifloat_max_bits(f);
    double maxv = minifloat_decode(f, maxb), a = fabs(v);
    uint8_t sign = neg ? sign_bit : 0;
    if (a > maxv && (saturate || f->no_nan)) return sign | maxb;   /* clipped first, as saturate_cast */
    if (isinf(a)) return f->has_inf ? (uint8_t)(sign | ((((1u << f->ebits) - 1)) << f->mbits)) : (neg ? f->nan_neg : f->nan_pos);
    int emin = 1 - f->bias, e;
    (void)frexp(a, &e);
    e -= 1;                                    /* a = 1.m · 2^e */
    if (e < emin) e = emin;                    /* subnormal: the smallest normal's quantum */
    double q = ldexp(1.0, e - f->mbits);
    double r = rint(a / q);                    /* round half to even (a / q is exact) */
    if (r == 0) return f->fnuz ? 0 : sign;     /* underflow: FNUZ has no -0 */
    if (r >= ldexp(1.0, f->mbits + 1)) r /= 2, e += 1;   /* rounded up into the next binade */
    if (r * q > maxv) {                        /* overflow after rounding */
        if (saturate || f->no_nan) return sign | maxb;
        return f->has_inf ? (uint8_t)(sign | ((((1u << f->ebits) - 1)) << f->mbits)) : (neg ? f->nan_neg : f->nan_pos);
    }
    unsigned bits;
    if (r < ldexp(1.0, f->mbits)) bits = (unsigned)r;   /* subnormal (exponent field 0) */
    else bits = ((unsigned)(e + f->bias) << f->mbits) | ((unsigned)r - (1u << f->mbits));
    return (uint8_t)(sign | bits);
}

/* onnx.numpy_helper.to_float8e8m0, one value: from the float32 bits. */
static uint8_t e8m0_encode(double v, bool saturate, TkrRoundMode rm)
{
    float x = (float)v;
    uint32_t bits;
    memcpy(&bits, &x, 4);
    unsigned exp = (bits >> 23) & 0xFF;
    if (exp == 0xFF) return 0xFF;
    bool up = false;
    if (rm == TKR_ROUND_NEAREST) {
        bool g = bits & 0x400000, r = bits & 0x200000, s = bits & 0x1FFFFF, lsb = exp > 0;
        up = g && (r || s || lsb);
    } else if (rm == TKR_ROUND_UP) {
        up = (bits & 0x7FFFFF) != 0;
    }
    if (up && saturate && exp == 0xFE) up = false;
    return (uint8_t)(exp + up);
}

double tkr_lowp_decode(tk_dtype t, uint8_t b)
{
    const Minifloat *f = format_of(t);
    if (f) return minifloat_decode(f, b);
    switch (t) {
    case TK_DTYPE_F8E8M0: return b == 0xFF ? NAN : ldexp(1.0, (int)b - 127);
    case TK_DTYPE_I4:
    case TK_DTYPE_I2: return (int8_t)b;
    default: return b;
    }
}

int64_t tkr_lowp_decode_i(tk_dtype t, uint8_t b)
{
    if (t == TK_DTYPE_I4 || t == TK_DTYPE_I2) return (int8_t)b;
    if (t == TK_DTYPE_U4 || t == TK_DTYPE_U2) return b;
    double v = tkr_lowp_decode(t, b);
    return isnan(v) ? 0 : v >= 9223372036854775807.0 ? INT64_MAX : v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
}

uint8_t tkr_lowp_encode(tk_dtype t, double v, bool saturate, TkrRoundMode rm)
{
    const Minifloat *f = format_of(t);
    if (f) return minifloat_encode(f, v, saturate);
    if (t == TK_DTYPE_F8E8M0) return e8m0_encode(v, saturate, rm);
    int lo, hi;
    int_range(t, &lo, &hi);
    double r = trunc(v);
    if (!(r >= lo && r <= hi)) return 0;   /* NaN, or out of range */
    return (uint8_t)(int8_t)r;
}

uint8_t tkr_lowp_encode_i(tk_dtype t, int64_t v)
{
    if (tkr_dtype_is_lowp_float(t)) return tkr_lowp_encode(t, (double)v, false, TKR_ROUND_UP);
    int lo, hi;
    int_range(t, &lo, &hi);
    unsigned bits = (unsigned)(hi - lo + 1);              /* 16 or 4: wrap modulo it */
    uint64_t w = (uint64_t)v & (bits - 1);
    int64_t r = lo < 0 && w > (uint64_t)hi ? (int64_t)w - (int64_t)bits : (int64_t)w;
    return (uint8_t)(int8_t)r;
}

tk_status tkr_lowp_no_arith(tk_context *ctx, const char *op, tk_dtype t)
{
    if (!tkr_dtype_is_lowp(t)) return TK_OK;
    return tkr_error(ctx, TK_ERR_DTYPE, "%s: %s has no arithmetic: convert it first (tk_to_dtype)", op, tk_dtype_name(t));
}

tk_status tkr_to_lowp(tk_context *ctx, const tk_tensor *x, tk_dtype dtype, bool saturate, TkrRoundMode rm, tk_tensor **out)
{
    *out = NULL;
    if (!tkr_dtype_is_lowp(dtype)) return tk_to_dtype(ctx, x, dtype, out);
    /* integers into the small integers wrap, from their exact value; everything
     * else goes through f64, which holds every value exactly but for i64/u64
     * beyond 2^53 (then rounded twice: no float8 or float4 can tell) */
    bool from_int = !tk_dtype_is_float(x->dtype) && !tkr_dtype_is_lowp_float(x->dtype) && !tkr_dtype_is_lowp_float(dtype);
    tk_tensor *src = NULL, *y = NULL;
    tk_status s = tk_to_dtype(ctx, x, from_int ? TK_DTYPE_I64 : TK_DTYPE_F64, &src);
    if (!s) s = tkr_new(ctx, dtype, x->ndim, x->shape, &y);
    if (s) {
        tk_tensor_release(src);
        return s;
    }
    int64_t n = tk_tensor_numel(x);
    uint8_t *dst = (uint8_t *)tkr_ptr(y);
    if (from_int) {
        const int64_t *v = (const int64_t *)(const void *)tkr_ptr(src);
        for (int64_t i = 0; i < n; i++) dst[i] = tkr_lowp_encode_i(dtype, v[i]);
    } else {
        const double *v = (const double *)(const void *)tkr_ptr(src);
        for (int64_t i = 0; i < n; i++) dst[i] = tkr_lowp_encode(dtype, v[i], saturate, rm);
    }
    tk_tensor_release(src);
    *out = y;
    return tkr_ok(ctx);
}
