/* dtype.c — element types: sizes, names, PyTorch's promotion, and reading or
 * writing one element of any type as a double or an int64 (the general paths
 * of the ops; their fast paths are typed loops). */
#include <math.h>

#include "internal.h"
#include "tk/dtype.h"

static const struct {
    const char *name;
    size_t size;
    int category;   /* 0 bool, 1 integer, 2 float */
} info[TK_NUM_DTYPES] = {
    [TK_DTYPE_BOOL] = { "bool", 1, 0 }, [TK_DTYPE_I32] = { "i32", 4, 1 },  [TK_DTYPE_I64] = { "i64", 8, 1 },
    [TK_DTYPE_F32] = { "f32", 4, 2 },   [TK_DTYPE_F16] = { "f16", 2, 2 },  [TK_DTYPE_BF16] = { "bf16", 2, 2 },
    [TK_DTYPE_F64] = { "f64", 8, 2 },   [TK_DTYPE_I8] = { "i8", 1, 1 },    [TK_DTYPE_I16] = { "i16", 2, 1 },
    [TK_DTYPE_U8] = { "u8", 1, 1 },     [TK_DTYPE_U16] = { "u16", 2, 1 }, [TK_DTYPE_U32] = { "u32", 4, 1 },
    [TK_DTYPE_U64] = { "u64", 8, 1 },
    /* category 3: storage only (dtype_lowp.c), neither float nor integer to the ops */
    [TK_DTYPE_F8E4M3FN] = { "f8e4m3fn", 1, 3 }, [TK_DTYPE_F8E4M3FNUZ] = { "f8e4m3fnuz", 1, 3 },
    [TK_DTYPE_F8E5M2] = { "f8e5m2", 1, 3 },     [TK_DTYPE_F8E5M2FNUZ] = { "f8e5m2fnuz", 1, 3 },
    [TK_DTYPE_F8E8M0] = { "f8e8m0", 1, 3 },     [TK_DTYPE_F4E2M1] = { "f4e2m1", 1, 3 },
    [TK_DTYPE_I4] = { "i4", 1, 3 },             [TK_DTYPE_U4] = { "u4", 1, 3 },
    [TK_DTYPE_I2] = { "i2", 1, 3 },             [TK_DTYPE_U2] = { "u2", 1, 3 },
};

static bool valid(tk_dtype t) { return (unsigned)t < TK_NUM_DTYPES; }

size_t tk_dtype_size(tk_dtype t) { return valid(t) ? info[t].size : 0; }
const char *tk_dtype_name(tk_dtype t) { return valid(t) ? info[t].name : "?"; }
bool tk_dtype_is_float(tk_dtype t) { return valid(t) && info[t].category == 2; }

static tk_dtype storage_wide(tk_dtype t)
{
    if (tkr_dtype_is_lowp_float(t)) return TK_DTYPE_F32;
    return t == TK_DTYPE_I4 || t == TK_DTYPE_I2 ? TK_DTYPE_I8 : TK_DTYPE_U8;
}

tk_dtype tk_promote_types(tk_dtype a, tk_dtype b)
{
    if (!valid(a) || !valid(b)) return TK_DTYPE_F32;
    if (a == b) return a;
    int ca = info[a].category, cb = info[b].category;
    /* a storage type promotes as what it decodes to (f32 for the small floats, i8/u8 for the small ints) */
    if (ca == 3 || cb == 3) {
        tk_dtype wa = ca == 3 ? storage_wide(a) : a, wb = cb == 3 ? storage_wide(b) : b;
        return tk_promote_types(wa, wb);
    }
    if (ca != cb) return ca > cb ? a : b;
    if (ca == 2) {
        if ((a == TK_DTYPE_F16 && b == TK_DTYPE_BF16) || (a == TK_DTYPE_BF16 && b == TK_DTYPE_F16)) return TK_DTYPE_F32;
        return info[a].size >= info[b].size ? a : b;
    }
    /* integers, as NumPy: two of one signedness give the wider; unsigned with
     * signed gives the narrowest signed type holding both ranges (u8+i8 → i16,
     * u32+i32 → i64), and u64 with any signed type f64 (no integer holds both) */
    bool ua = tkr_dtype_is_unsigned(a), ub = tkr_dtype_is_unsigned(b);
    if (ua == ub) return info[a].size >= info[b].size ? a : b;
    tk_dtype u = ua ? a : b, s = ua ? b : a;
    if (info[s].size > info[u].size) return s;
    switch (info[u].size) {
    case 1: return TK_DTYPE_I16;
    case 2: return TK_DTYPE_I32;
    case 4: return TK_DTYPE_I64;
    default: return TK_DTYPE_F64;
    }
}

bool tkr_dtype_is_unsigned(tk_dtype t)
{
    return t == TK_DTYPE_U8 || t == TK_DTYPE_U16 || t == TK_DTYPE_U32 || t == TK_DTYPE_U64;
}

double tkr_load_f(const void *p, tk_dtype t)
{
    switch (t) {
    case TK_DTYPE_BOOL: return *(const uint8_t *)p != 0;
    case TK_DTYPE_I32: return *(const int32_t *)p;
    case TK_DTYPE_I64: return (double)*(const int64_t *)p;
    case TK_DTYPE_F32: return *(const float *)p;
    case TK_DTYPE_F16: return tk_f16_to_f32(*(const uint16_t *)p);
    case TK_DTYPE_BF16: return tk_bf16_to_f32(*(const uint16_t *)p);
    case TK_DTYPE_F64: return *(const double *)p;
    case TK_DTYPE_I8: return *(const int8_t *)p;
    case TK_DTYPE_I16: return *(const int16_t *)p;
    case TK_DTYPE_U8: return *(const uint8_t *)p;
    case TK_DTYPE_U16: return *(const uint16_t *)p;
    case TK_DTYPE_U32: return *(const uint32_t *)p;
    case TK_DTYPE_U64: return (double)*(const uint64_t *)p;   /* exact below 2^53, rounded to nearest above */
    default: if (tkr_dtype_is_lowp(t)) return tkr_lowp_decode(t, *(const uint8_t *)p); break;
    }
    return 0;
}

/* float → int64 by truncation; NaN → 0; out of range → the nearest end. */
static int64_t trunc_i64(double v)
{
    if (isnan(v)) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
}

/* float → u16/u32/u64 (NumPy's result on x86-64 for every value it defines):
 * truncate toward zero, then wrap modulo 2^64 (and the store wraps to the
 * type), so -1.0 → 2^bits - 1; NaN and values outside [-2^63, 2^64) → 0. */
static uint64_t trunc_wrap_u64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 18446744073709551616.0)) return 0;
    if (v < 0) return (uint64_t)(int64_t)v;
    return (uint64_t)v;
}

int64_t tkr_load_i(const void *p, tk_dtype t)
{
    switch (t) {
    case TK_DTYPE_BOOL: return *(const uint8_t *)p != 0;
    case TK_DTYPE_I32: return *(const int32_t *)p;
    case TK_DTYPE_I64: return *(const int64_t *)p;
    case TK_DTYPE_I8: return *(const int8_t *)p;
    case TK_DTYPE_I16: return *(const int16_t *)p;
    case TK_DTYPE_U8: return *(const uint8_t *)p;
    case TK_DTYPE_U16: return *(const uint16_t *)p;
    case TK_DTYPE_U32: return *(const uint32_t *)p;
    case TK_DTYPE_U64: return (int64_t)*(const uint64_t *)p;   /* the bit pattern: values >= 2^63 read negative */
    default: return trunc_i64(tkr_load_f(p, t));
    }
}

static int64_t clamp_i(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

void tkr_store_i(void *p, tk_dtype t, int64_t v)
{
    switch (t) {
    case TK_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    /* integer → narrower integer wraps, as C's (and PyTorch's) conversion does */
    case TK_DTYPE_I32: *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v; break;
    case TK_DTYPE_I64: *(int64_t *)p = v; break;
    case TK_DTYPE_I8: *(int8_t *)p = (int8_t)(uint8_t)(uint64_t)v; break;
    case TK_DTYPE_I16: *(int16_t *)p = (int16_t)(uint16_t)(uint64_t)v; break;
    case TK_DTYPE_U8: *(uint8_t *)p = (uint8_t)(uint64_t)v; break;
    case TK_DTYPE_U16: *(uint16_t *)p = (uint16_t)(uint64_t)v; break;
    case TK_DTYPE_U32: *(uint32_t *)p = (uint32_t)(uint64_t)v; break;
    case TK_DTYPE_U64: *(uint64_t *)p = (uint64_t)v; break;
    case TK_DTYPE_I4:
    case TK_DTYPE_U4:
    case TK_DTYPE_I2:
    case TK_DTYPE_U2: *(uint8_t *)p = tkr_lowp_encode_i(t, v); break;
    default: tkr_store_f(p, t, (double)v); break;
    }
}

uint64_t tkr_load_u64(const void *p, tk_dtype t)
{
    if (t == TK_DTYPE_U64) return *(const uint64_t *)p;
    if (tk_dtype_is_float(t)) return trunc_wrap_u64(tkr_load_f(p, t));
    return (uint64_t)tkr_load_i(p, t);
}

void tkr_store_u64(void *p, tk_dtype t, uint64_t v)
{
    switch (t) {
    case TK_DTYPE_F32: *(float *)p = (float)v; break;   /* one rounding, not two through double */
    case TK_DTYPE_F16:
    case TK_DTYPE_BF16:
    case TK_DTYPE_F64: tkr_store_f(p, t, (double)v); break;
    default: tkr_store_i(p, t, (int64_t)v); break;   /* integers wrap */
    }
}

void tkr_store_f(void *p, tk_dtype t, double v)
{
    switch (t) {
    case TK_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    case TK_DTYPE_F32: *(float *)p = (float)v; break;
    case TK_DTYPE_F16: *(uint16_t *)p = tk_f16_from_f32((float)v); break;   /* see below */
    case TK_DTYPE_BF16: *(uint16_t *)p = tk_bf16_from_f32((float)v); break;
    case TK_DTYPE_F64: *(double *)p = v; break;
    /* float → int: truncate toward zero, clamped to the type (NaN → 0) */
    case TK_DTYPE_I32: *(int32_t *)p = (int32_t)clamp_i(trunc_i64(v), INT32_MIN, INT32_MAX); break;
    case TK_DTYPE_I64: *(int64_t *)p = trunc_i64(v); break;
    case TK_DTYPE_I8: *(int8_t *)p = (int8_t)clamp_i(trunc_i64(v), INT8_MIN, INT8_MAX); break;
    case TK_DTYPE_I16: *(int16_t *)p = (int16_t)clamp_i(trunc_i64(v), INT16_MIN, INT16_MAX); break;
    case TK_DTYPE_U8: *(uint8_t *)p = (uint8_t)clamp_i(trunc_i64(v), 0, UINT8_MAX); break;
    /* the wider unsigned types wrap as NumPy does (u8 keeps its older clamp) */
    case TK_DTYPE_U16: *(uint16_t *)p = (uint16_t)trunc_wrap_u64(v); break;
    case TK_DTYPE_U32: *(uint32_t *)p = (uint32_t)trunc_wrap_u64(v); break;
    case TK_DTYPE_U64: *(uint64_t *)p = trunc_wrap_u64(v); break;
    /* the storage types: ml_dtypes' cast (no saturation; E8M0 rounds up, as ONNX Cast) */
    default: if (tkr_dtype_is_lowp(t)) *(uint8_t *)p = tkr_lowp_encode(t, v, false, TKR_ROUND_UP); break;
    }
}
/* A double rounded to f32 and then to bf16/f16 can differ from one rounding
 * straight to 16 bits only when the f32 rounding lands exactly on a 16-bit
 * halfway point; the runtime's 16-bit results come from f32 arithmetic
 * (PyTorch computes bf16/f16 ops in f32 too), so this is the same rounding. */
