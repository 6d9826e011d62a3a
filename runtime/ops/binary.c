/* binary.c — the typed loops of the binary element-wise ops and of where.
 * A kernel computes o[i] = f(a[i·sa], b[i·sb]) over one run in one compute
 * type; its unit-stride and one-operand-is-a-scalar (stride 0) cases are
 * separate loops GCC vectorises. The loop function picks the kernel once per
 * run: straight on the tensors when every operand already has the compute
 * type (f32, f64, i32, i64) and unit or zero strides, else through chunk
 * buffers that convert (elementwise_convert.c). Semantics are PyTorch's. */
#include <math.h>
#include <string.h>
#include <tgmath.h>

#include "elementwise.h"

/* -O2 (RelWithDebInfo) only vectorises loops with no runtime checks or
 * epilogue; these loops have both, so ask GCC for its full cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

/* The four stride shapes of one kernel; strides in elements. */
#define BIN_KERNEL(NAME, T, OT, EXPR)                                                                             \
    static void NAME(OT *o, const T *a, int64_t sa, const T *b, int64_t sb, int64_t n, const TkrBinParams *p)      \
    {                                                                                                             \
        (void)p;                                                                                                  \
        if (sa == 1 && sb == 1) {                                                                                 \
            for (int64_t i = 0; i < n; i++) {                                                                     \
                T x = a[i], y = b[i];                                                                             \
                o[i] = (OT)(EXPR);                                                                                \
            }                                                                                                     \
        } else if (sa == 1 && sb == 0) {                                                                          \
            const T y = b[0];                                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                                     \
                T x = a[i];                                                                                       \
                o[i] = (OT)(EXPR);                                                                                \
            }                                                                                                     \
        } else if (sa == 0 && sb == 1) {                                                                          \
            const T x = a[0];                                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                                     \
                T y = b[i];                                                                                       \
                o[i] = (OT)(EXPR);                                                                                \
            }                                                                                                     \
        } else {                                                                                                  \
            for (int64_t i = 0; i < n; i++) {                                                                     \
                T x = a[i * sa], y = b[i * sb];                                                                   \
                o[i] = (OT)(EXPR);                                                                                \
            }                                                                                                     \
        }                                                                                                         \
    }

/* ------------------------------------------------------------ floats */

/* torch's div_floor: the quotient of the exact remainder, rounded down, with
 * the sign of a zero quotient kept; x / 0 gives ±inf or NaN. */
#define FLOAT_HELPERS(T, SUF)                                                        \
    static inline T floordiv_##SUF(T x, T y)                                         \
    {                                                                                \
        if (y == 0) return x / y;                                                    \
        T mod = fmod(x, y);                                                          \
        T div = (x - mod) / y;                                                       \
        if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1;                           \
        if (div == 0) return copysign((T)0, x / y);                                  \
        T fl = floor(div);                                                           \
        if (div - fl > (T)0.5) fl += 1;                                              \
        return fl;                                                                   \
    }                                                                                \
    static inline T remainder_##SUF(T x, T y)                                        \
    {                                                                                \
        T mod = fmod(x, y);                                                          \
        if (mod != 0 && ((y < 0) != (mod < 0))) mod += y;                            \
        return mod;                                                                  \
    }                                                                                \
    /* NaN propagates; otherwise std::max / std::min (which keep a on ties) */       \
    static inline T maximum_##SUF(T x, T y) { return x != x ? x : y != y ? y : (x < y ? y : x); } \
    static inline T minimum_##SUF(T x, T y) { return x != x ? x : y != y ? y : (y < x ? y : x); }

FLOAT_HELPERS(float, f32)
FLOAT_HELPERS(double, f64)

#define FLOAT_KERNELS(T, SUF)                                                     \
    BIN_KERNEL(add_##SUF, T, T, x + y)                                            \
    BIN_KERNEL(sub_##SUF, T, T, x - y)                                            \
    BIN_KERNEL(mul_##SUF, T, T, x * y)                                            \
    BIN_KERNEL(div_##SUF, T, T, x / y)                                            \
    BIN_KERNEL(floordiv_k_##SUF, T, T, floordiv_##SUF(x, y))                      \
    BIN_KERNEL(remainder_k_##SUF, T, T, remainder_##SUF(x, y))                    \
    BIN_KERNEL(fmod_##SUF, T, T, fmod(x, y))                                      \
    BIN_KERNEL(pow_##SUF, T, T, pow(x, y))                                        \
    BIN_KERNEL(maximum_k_##SUF, T, T, maximum_##SUF(x, y))                        \
    BIN_KERNEL(minimum_k_##SUF, T, T, minimum_##SUF(x, y))                        \
    BIN_KERNEL(atan2_##SUF, T, T, atan2(x, y))                                    \
    BIN_KERNEL(eq_##SUF, T, uint8_t, x == y)                                      \
    BIN_KERNEL(ne_##SUF, T, uint8_t, x != y)                                      \
    BIN_KERNEL(lt_##SUF, T, uint8_t, x < y)                                       \
    BIN_KERNEL(le_##SUF, T, uint8_t, x <= y)                                      \
    BIN_KERNEL(gt_##SUF, T, uint8_t, x > y)                                       \
    BIN_KERNEL(ge_##SUF, T, uint8_t, x >= y)                                      \
    BIN_KERNEL(land_##SUF, T, uint8_t, (x != 0) & (y != 0))                       \
    BIN_KERNEL(lor_##SUF, T, uint8_t, (x != 0) | (y != 0))                        \
    BIN_KERNEL(lxor_##SUF, T, uint8_t, (x != 0) ^ (y != 0))                       \
    static TkrKernelFn float_kernel_##SUF(tk_binary_op op)                        \
    {                                                                             \
        switch (op) {                                                             \
        case TK_ADD: return (TkrKernelFn)add_##SUF;                               \
        case TK_SUB: return (TkrKernelFn)sub_##SUF;                               \
        case TK_MUL: return (TkrKernelFn)mul_##SUF;                               \
        case TK_DIV: return (TkrKernelFn)div_##SUF;                               \
        case TK_FLOOR_DIVIDE: return (TkrKernelFn)floordiv_k_##SUF;               \
        case TK_REMAINDER: return (TkrKernelFn)remainder_k_##SUF;                 \
        case TK_FMOD: return (TkrKernelFn)fmod_##SUF;                             \
        case TK_POW: return (TkrKernelFn)pow_##SUF;                               \
        case TK_MAXIMUM: return (TkrKernelFn)maximum_k_##SUF;                     \
        case TK_MINIMUM: return (TkrKernelFn)minimum_k_##SUF;                     \
        case TK_ATAN2: return (TkrKernelFn)atan2_##SUF;                           \
        case TK_EQ: return (TkrKernelFn)eq_##SUF;                                 \
        case TK_NE: return (TkrKernelFn)ne_##SUF;                                 \
        case TK_LT: return (TkrKernelFn)lt_##SUF;                                 \
        case TK_LE: return (TkrKernelFn)le_##SUF;                                 \
        case TK_GT: return (TkrKernelFn)gt_##SUF;                                 \
        case TK_GE: return (TkrKernelFn)ge_##SUF;                                 \
        case TK_LOGICAL_AND: return (TkrKernelFn)land_##SUF;                      \
        case TK_LOGICAL_OR: return (TkrKernelFn)lor_##SUF;                        \
        case TK_LOGICAL_XOR: return (TkrKernelFn)lxor_##SUF;                      \
        default: return NULL; /* bitwise and shifts take no floats */            \
        }                                                                         \
    }

FLOAT_KERNELS(float, f32)
FLOAT_KERNELS(double, f64)

/* ------------------------------------------------------------ integers */

/* Wrapping arithmetic through the unsigned type; the division family never
 * sees a zero divisor (elementwise.c refuses it first, as PyTorch raises)
 * and treats -1 apart so INT_MIN / -1 wraps instead of trapping. */
#define INT_HELPERS(T, UT, SUF)                                                              \
    static inline T floordiv_##SUF(T x, T y)                                                 \
    {                                                                                        \
        if (y == 0) return 0;                                                                \
        if (y == -1) return (T)(0 - (UT)x);                                                  \
        T q = x / y;                                                                         \
        if (x % y != 0 && ((x < 0) != (y < 0))) q--;                                         \
        return q;                                                                            \
    }                                                                                        \
    static inline T remainder_##SUF(T x, T y)                                                \
    {                                                                                        \
        if (y == 0 || y == -1) return 0;                                                     \
        T r = x % y;                                                                         \
        if (r != 0 && ((r < 0) != (y < 0))) r += y;                                          \
        return r;                                                                            \
    }                                                                                        \
    static inline T fmod_##SUF(T x, T y) { return (y == 0 || y == -1) ? 0 : x % y; }         \
    /* torch's powi: negative exponents give 0 except for bases 1 and -1 */                  \
    static inline T pow_##SUF(T x, T y)                                                      \
    {                                                                                        \
        if (y < 0) return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;                    \
        UT r = 1, b = (UT)x;                                                                 \
        for (T e = y; e; e >>= 1) {                                                          \
            if (e & 1) r *= b;                                                               \
            b *= b;                                                                          \
        }                                                                                    \
        return (T)r;                                                                         \
    }                                                                                        \
    static inline T shl_##SUF(T x, T y, const TkrBinParams *p)                               \
    {                                                                                        \
        return (y < 0 || y >= p->width) ? 0 : (T)((UT)x << y);                               \
    }                                                                                        \
    static inline T shr_##SUF(T x, T y, const TkrBinParams *p)                               \
    {                                                                                        \
        return (y < 0 || y >= p->max_rshift) ? (T)(x >> p->max_rshift) : (T)(x >> y);        \
    }

INT_HELPERS(int32_t, uint32_t, i32)
INT_HELPERS(int64_t, uint64_t, i64)

#define INT_KERNELS(T, UT, SUF)                                                   \
    BIN_KERNEL(add_##SUF, T, T, (UT)x + (UT)y)                                    \
    BIN_KERNEL(sub_##SUF, T, T, (UT)x - (UT)y)                                    \
    BIN_KERNEL(mul_##SUF, T, T, (UT)x * (UT)y)                                    \
    BIN_KERNEL(floordiv_k_##SUF, T, T, floordiv_##SUF(x, y))                      \
    BIN_KERNEL(remainder_k_##SUF, T, T, remainder_##SUF(x, y))                    \
    BIN_KERNEL(fmod_k_##SUF, T, T, fmod_##SUF(x, y))                              \
    BIN_KERNEL(pow_k_##SUF, T, T, pow_##SUF(x, y))                                \
    BIN_KERNEL(maximum_##SUF, T, T, x < y ? y : x)                                \
    BIN_KERNEL(minimum_##SUF, T, T, y < x ? y : x)                                \
    BIN_KERNEL(eq_##SUF, T, uint8_t, x == y)                                      \
    BIN_KERNEL(ne_##SUF, T, uint8_t, x != y)                                      \
    BIN_KERNEL(lt_##SUF, T, uint8_t, x < y)                                       \
    BIN_KERNEL(le_##SUF, T, uint8_t, x <= y)                                      \
    BIN_KERNEL(gt_##SUF, T, uint8_t, x > y)                                       \
    BIN_KERNEL(ge_##SUF, T, uint8_t, x >= y)                                      \
    BIN_KERNEL(land_##SUF, T, uint8_t, (x != 0) & (y != 0))                       \
    BIN_KERNEL(lor_##SUF, T, uint8_t, (x != 0) | (y != 0))                        \
    BIN_KERNEL(lxor_##SUF, T, uint8_t, (x != 0) ^ (y != 0))                       \
    BIN_KERNEL(band_##SUF, T, T, x & y)                                           \
    BIN_KERNEL(bor_##SUF, T, T, x | y)                                            \
    BIN_KERNEL(bxor_##SUF, T, T, x ^ y)                                           \
    BIN_KERNEL(shl_k_##SUF, T, T, shl_##SUF(x, y, p))                             \
    BIN_KERNEL(shr_k_##SUF, T, T, shr_##SUF(x, y, p))                             \
    static TkrKernelFn int_kernel_##SUF(tk_binary_op op)                          \
    {                                                                             \
        switch (op) {                                                             \
        case TK_ADD: return (TkrKernelFn)add_##SUF;                               \
        case TK_SUB: return (TkrKernelFn)sub_##SUF;                               \
        case TK_MUL: return (TkrKernelFn)mul_##SUF;                               \
        case TK_FLOOR_DIVIDE: return (TkrKernelFn)floordiv_k_##SUF;               \
        case TK_REMAINDER: return (TkrKernelFn)remainder_k_##SUF;                 \
        case TK_FMOD: return (TkrKernelFn)fmod_k_##SUF;                           \
        case TK_POW: return (TkrKernelFn)pow_k_##SUF;                             \
        case TK_MAXIMUM: return (TkrKernelFn)maximum_##SUF;                       \
        case TK_MINIMUM: return (TkrKernelFn)minimum_##SUF;                       \
        case TK_EQ: return (TkrKernelFn)eq_##SUF;                                 \
        case TK_NE: return (TkrKernelFn)ne_##SUF;                                 \
        case TK_LT: return (TkrKernelFn)lt_##SUF;                                 \
        case TK_LE: return (TkrKernelFn)le_##SUF;                                 \
        case TK_GT: return (TkrKernelFn)gt_##SUF;                                 \
        case TK_GE: return (TkrKernelFn)ge_##SUF;                                 \
        case TK_LOGICAL_AND: return (TkrKernelFn)land_##SUF;                      \
        case TK_LOGICAL_OR: return (TkrKernelFn)lor_##SUF;                        \
        case TK_LOGICAL_XOR: return (TkrKernelFn)lxor_##SUF;                      \
        case TK_BITWISE_AND: return (TkrKernelFn)band_##SUF;                      \
        case TK_BITWISE_OR: return (TkrKernelFn)bor_##SUF;                        \
        case TK_BITWISE_XOR: return (TkrKernelFn)bxor_##SUF;                      \
        case TK_SHIFT_LEFT: return (TkrKernelFn)shl_k_##SUF;                      \
        case TK_SHIFT_RIGHT: return (TkrKernelFn)shr_k_##SUF;                     \
        default: return NULL; /* div and atan2 compute in floats */              \
        }                                                                         \
    }

INT_KERNELS(int32_t, uint32_t, i32)
INT_KERNELS(int64_t, uint64_t, i64)

/* u64 (u16/u32 compute exactly in i64): unsigned order for the comparisons,
 * max/min, division and right shift, where i64's would go wrong above 2^63.
 * A shift by the width or more gives 0 both ways. */
static inline uint64_t pow_u64(uint64_t x, uint64_t y)
{
    uint64_t r = 1;
    for (uint64_t e = y; e; e >>= 1) {
        if (e & 1) r *= x;
        x *= x;
    }
    return r;
}

#define U64 uint64_t
BIN_KERNEL(add_u64, U64, U64, x + y)
BIN_KERNEL(sub_u64, U64, U64, x - y)
BIN_KERNEL(mul_u64, U64, U64, x *y)
BIN_KERNEL(div_k_u64, U64, U64, y ? x / y : 0)   /* a zero divisor is refused before the loop */
BIN_KERNEL(rem_k_u64, U64, U64, y ? x % y : 0)
BIN_KERNEL(pow_k_u64, U64, U64, pow_u64(x, y))
BIN_KERNEL(maximum_u64, U64, U64, x < y ? y : x)
BIN_KERNEL(minimum_u64, U64, U64, y < x ? y : x)
BIN_KERNEL(eq_u64, U64, uint8_t, x == y)
BIN_KERNEL(ne_u64, U64, uint8_t, x != y)
BIN_KERNEL(lt_u64, U64, uint8_t, x < y)
BIN_KERNEL(le_u64, U64, uint8_t, x <= y)
BIN_KERNEL(gt_u64, U64, uint8_t, x > y)
BIN_KERNEL(ge_u64, U64, uint8_t, x >= y)
BIN_KERNEL(land_u64, U64, uint8_t, (x != 0) & (y != 0))
BIN_KERNEL(lor_u64, U64, uint8_t, (x != 0) | (y != 0))
BIN_KERNEL(lxor_u64, U64, uint8_t, (x != 0) ^ (y != 0))
BIN_KERNEL(band_u64, U64, U64, x &y)
BIN_KERNEL(bor_u64, U64, U64, x | y)
BIN_KERNEL(bxor_u64, U64, U64, x ^ y)
BIN_KERNEL(shl_k_u64, U64, U64, y >= 64 ? 0 : x << y)
BIN_KERNEL(shr_k_u64, U64, U64, y >= 64 ? 0 : x >> y)
#undef U64

static TkrKernelFn uint_kernel_u64(tk_binary_op op)
{
    switch (op) {
    case TK_ADD: return (TkrKernelFn)add_u64;
    case TK_SUB: return (TkrKernelFn)sub_u64;
    case TK_MUL: return (TkrKernelFn)mul_u64;
    case TK_FLOOR_DIVIDE: return (TkrKernelFn)div_k_u64;   /* unsigned: floor, remainder and fmod are C's / and % */
    case TK_REMAINDER:
    case TK_FMOD: return (TkrKernelFn)rem_k_u64;
    case TK_POW: return (TkrKernelFn)pow_k_u64;
    case TK_MAXIMUM: return (TkrKernelFn)maximum_u64;
    case TK_MINIMUM: return (TkrKernelFn)minimum_u64;
    case TK_EQ: return (TkrKernelFn)eq_u64;
    case TK_NE: return (TkrKernelFn)ne_u64;
    case TK_LT: return (TkrKernelFn)lt_u64;
    case TK_LE: return (TkrKernelFn)le_u64;
    case TK_GT: return (TkrKernelFn)gt_u64;
    case TK_GE: return (TkrKernelFn)ge_u64;
    case TK_LOGICAL_AND: return (TkrKernelFn)land_u64;
    case TK_LOGICAL_OR: return (TkrKernelFn)lor_u64;
    case TK_LOGICAL_XOR: return (TkrKernelFn)lxor_u64;
    case TK_BITWISE_AND: return (TkrKernelFn)band_u64;
    case TK_BITWISE_OR: return (TkrKernelFn)bor_u64;
    case TK_BITWISE_XOR: return (TkrKernelFn)bxor_u64;
    case TK_SHIFT_LEFT: return (TkrKernelFn)shl_k_u64;
    case TK_SHIFT_RIGHT: return (TkrKernelFn)shr_k_u64;
    default: return NULL;   /* div and atan2 compute in floats */
    }
}

typedef void (*KF32)(float *, const float *, int64_t, const float *, int64_t, int64_t, const TkrBinParams *);
typedef void (*KF64)(double *, const double *, int64_t, const double *, int64_t, int64_t, const TkrBinParams *);
typedef void (*KI64)(int64_t *, const int64_t *, int64_t, const int64_t *, int64_t, int64_t, const TkrBinParams *);
typedef void (*KU64)(uint64_t *, const uint64_t *, int64_t, const uint64_t *, int64_t, int64_t, const TkrBinParams *);
typedef void (*CU64)(uint8_t *, const uint64_t *, int64_t, const uint64_t *, int64_t, int64_t, const TkrBinParams *);
typedef void (*KI32)(int32_t *, const int32_t *, int64_t, const int32_t *, int64_t, int64_t, const TkrBinParams *);
typedef void (*CF32)(uint8_t *, const float *, int64_t, const float *, int64_t, int64_t, const TkrBinParams *);
typedef void (*CF64)(uint8_t *, const double *, int64_t, const double *, int64_t, int64_t, const TkrBinParams *);
typedef void (*CI64)(uint8_t *, const int64_t *, int64_t, const int64_t *, int64_t, int64_t, const TkrBinParams *);
typedef void (*CI32)(uint8_t *, const int32_t *, int64_t, const int32_t *, int64_t, int64_t, const TkrBinParams *);

bool tkr_binary_prepare(TkrBinaryLoop *L)
{
    switch (L->ct) {
    case TKR_CT_F32: L->kernel = float_kernel_f32(L->op); break;
    case TKR_CT_F64: L->kernel = float_kernel_f64(L->op); break;
    case TKR_CT_I64: L->kernel = int_kernel_i64(L->op); break;
    case TKR_CT_U64: L->kernel = uint_kernel_u64(L->op); break;
    }
    L->kernel_i32 = L->common == TK_DTYPE_I32 ? int_kernel_i32(L->op) : NULL;
    /* shifts are of the common dtype (an in-place i8 <<= i32 shifts in i32, then wraps) */
    int bits = (int)tk_dtype_size(L->common) * 8;
    bool is_unsigned = tkr_dtype_is_unsigned(L->common) || L->common == TK_DTYPE_BOOL;
    L->params.width = bits;
    L->params.max_rshift = bits - !is_unsigned;
    return L->kernel != NULL;
}

/* The compute type's own dtype: operands of it need no conversion. */
static tk_dtype native_dtype(TkrComputeType ct)
{
    return ct == TKR_CT_F32 ? TK_DTYPE_F32 : ct == TKR_CT_F64 ? TK_DTYPE_F64 : ct == TKR_CT_U64 ? TK_DTYPE_U64 : TK_DTYPE_I64;
}

static bool unit_or_zero(int64_t s, int64_t es) { return s == es || s == 0; }

/* Straight on the tensors: every operand of the kernel's own type, the
 * output unit-strided, the inputs unit-strided or broadcast. */
static bool run_direct(const TkrBinaryLoop *L, char **p, const int64_t *s, int64_t n)
{
    tk_dtype nat = native_dtype(L->ct);
    TkrKernelFn k = L->kernel;
    if (L->kernel_i32 && L->a == TK_DTYPE_I32 && L->b == TK_DTYPE_I32) nat = TK_DTYPE_I32, k = L->kernel_i32;
    if (L->a != nat || L->b != nat || L->out != (L->bool_out ? TK_DTYPE_BOOL : nat)) return false;
    int64_t es = (int64_t)tk_dtype_size(nat);
    if (s[0] != (L->bool_out ? 1 : es) || !unit_or_zero(s[1], es) || !unit_or_zero(s[2], es)) return false;
    int64_t sa = s[1] / es, sb = s[2] / es;
    const TkrBinParams *pp = &L->params;
    switch (nat) {
    case TK_DTYPE_F32:
        if (L->bool_out) ((CF32)k)((uint8_t *)p[0], (const float *)p[1], sa, (const float *)p[2], sb, n, pp);
        else ((KF32)k)((float *)p[0], (const float *)p[1], sa, (const float *)p[2], sb, n, pp);
        return true;
    case TK_DTYPE_F64:
        if (L->bool_out) ((CF64)k)((uint8_t *)p[0], (const double *)p[1], sa, (const double *)p[2], sb, n, pp);
        else ((KF64)k)((double *)p[0], (const double *)p[1], sa, (const double *)p[2], sb, n, pp);
        return true;
    case TK_DTYPE_I64:
        if (L->bool_out) ((CI64)k)((uint8_t *)p[0], (const int64_t *)p[1], sa, (const int64_t *)p[2], sb, n, pp);
        else ((KI64)k)((int64_t *)p[0], (const int64_t *)p[1], sa, (const int64_t *)p[2], sb, n, pp);
        return true;
    case TK_DTYPE_U64:
        if (L->bool_out) ((CU64)k)((uint8_t *)p[0], (const uint64_t *)p[1], sa, (const uint64_t *)p[2], sb, n, pp);
        else ((KU64)k)((uint64_t *)p[0], (const uint64_t *)p[1], sa, (const uint64_t *)p[2], sb, n, pp);
        return true;
    case TK_DTYPE_I32:
        if (L->bool_out) ((CI32)k)((uint8_t *)p[0], (const int32_t *)p[1], sa, (const int32_t *)p[2], sb, n, pp);
        else ((KI32)k)((int32_t *)p[0], (const int32_t *)p[1], sa, (const int32_t *)p[2], sb, n, pp);
        return true;
    default: return false;
    }
}

/* Loads m elements of one operand (or its one element, when broadcast) into
 * buf, converted to the common dtype; returns the buffer's element stride. */
static int64_t load_operand(const TkrBinaryLoop *L, void *buf, const char *p, int64_t s, tk_dtype dt, int64_t m)
{
    int64_t count = s == 0 ? 1 : m;
    switch (L->ct) {
    case TKR_CT_F32: tkr_ew_load_f32(buf, p, s, dt, L->common, count); break;
    case TKR_CT_F64: tkr_ew_load_f64(buf, p, s, dt, count); break;
    case TKR_CT_I64: tkr_ew_load_i64(buf, p, s, dt, count); break;
    case TKR_CT_U64: tkr_ew_load_u64(buf, p, s, dt, count); break;
    }
    return s == 0 ? 0 : 1;
}

void tkr_binary_loop(char **p, const int64_t *s, int64_t n, void *arg)
{
    const TkrBinaryLoop *L = arg;
    if (run_direct(L, p, s, n)) return;
    /* dense bf16 arithmetic: widened, computed and rounded in registers (elementwise_bf16.c) */
    if (L->a == TK_DTYPE_BF16 && L->b == TK_DTYPE_BF16 && L->common == TK_DTYPE_BF16 && L->out == TK_DTYPE_BF16 && !L->bool_out &&
        tkr_bf16_binary_has(L->op) && s[0] == 2 && (s[1] == 2 || s[1] == 0) && (s[2] == 2 || s[2] == 0)) {
        tkr_bf16_binary(L->op, (uint16_t *)(void *)p[0], (const uint16_t *)(const void *)p[1], s[1] / 2,
                        (const uint16_t *)(const void *)p[2], s[2] / 2, n);
        return;
    }
    union {
        float f[TKR_EW_CHUNK];
        double d[TKR_EW_CHUNK];
        int64_t i[TKR_EW_CHUNK];
        uint64_t u[TKR_EW_CHUNK];
    } ba, bb, bo;
    uint8_t bools[TKR_EW_CHUNK];
    for (int64_t off = 0; off < n; off += TKR_EW_CHUNK) {
        int64_t m = n - off < TKR_EW_CHUNK ? n - off : TKR_EW_CHUNK;
        int64_t sa = load_operand(L, &ba, p[1] + off * s[1], s[1], L->a, m);
        int64_t sb = load_operand(L, &bb, p[2] + off * s[2], s[2], L->b, m);
        char *o = p[0] + off * s[0];
        switch (L->ct) {
        case TKR_CT_F32:
            if (L->bool_out) ((CF32)L->kernel)(bools, ba.f, sa, bb.f, sb, m, &L->params);
            else ((KF32)L->kernel)(bo.f, ba.f, sa, bb.f, sb, m, &L->params), tkr_ew_store_f32(o, s[0], L->out, bo.f, m);
            break;
        case TKR_CT_F64:
            if (L->bool_out) ((CF64)L->kernel)(bools, ba.d, sa, bb.d, sb, m, &L->params);
            else ((KF64)L->kernel)(bo.d, ba.d, sa, bb.d, sb, m, &L->params), tkr_ew_store_f64(o, s[0], L->out, bo.d, m);
            break;
        case TKR_CT_I64:
            if (L->bool_out) ((CI64)L->kernel)(bools, ba.i, sa, bb.i, sb, m, &L->params);
            else ((KI64)L->kernel)(bo.i, ba.i, sa, bb.i, sb, m, &L->params), tkr_ew_store_i64(o, s[0], L->out, bo.i, m);
            break;
        case TKR_CT_U64:
            if (L->bool_out) ((CU64)L->kernel)(bools, ba.u, sa, bb.u, sb, m, &L->params);
            else ((KU64)L->kernel)(bo.u, ba.u, sa, bb.u, sb, m, &L->params), tkr_ew_store_u64(o, s[0], L->out, bo.u, m);
            break;
        }
        if (L->bool_out) tkr_ew_store_bool(o, s[0], L->out, bools, m);
    }
}

/* ------------------------------------------------------------ where */

#define SELECT(o, c, x, y, m) \
    for (int64_t i = 0; i < (m); i++) (o)[i] = (c)[i] ? (x)[i] : (y)[i];

void tkr_where_loop(char **p, const int64_t *s, int64_t n, void *arg)
{
    const TkrBinaryLoop *L = arg;
    union {
        float f[TKR_EW_CHUNK];
        double d[TKR_EW_CHUNK];
        int64_t i[TKR_EW_CHUNK];
        uint64_t u[TKR_EW_CHUNK];
    } ba, bb, bo;
    uint8_t cond[TKR_EW_CHUNK];
    for (int64_t off = 0; off < n; off += TKR_EW_CHUNK) {
        int64_t m = n - off < TKR_EW_CHUNK ? n - off : TKR_EW_CHUNK;
        char *o = p[0] + off * s[0];
        const char *pc = p[1] + off * s[1], *pa = p[2] + off * s[2], *pb = p[3] + off * s[3];
        tkr_ew_load_truth(cond, pc, s[1], L->cond, m);
        switch (L->ct) {
        case TKR_CT_F32:
            tkr_ew_load_f32(ba.f, pa, s[2], L->a, L->common, m);
            tkr_ew_load_f32(bb.f, pb, s[3], L->b, L->common, m);
            SELECT(bo.f, cond, ba.f, bb.f, m)
            tkr_ew_store_f32(o, s[0], L->out, bo.f, m);
            break;
        case TKR_CT_F64:
            tkr_ew_load_f64(ba.d, pa, s[2], L->a, m);
            tkr_ew_load_f64(bb.d, pb, s[3], L->b, m);
            SELECT(bo.d, cond, ba.d, bb.d, m)
            tkr_ew_store_f64(o, s[0], L->out, bo.d, m);
            break;
        case TKR_CT_I64:
            tkr_ew_load_i64(ba.i, pa, s[2], L->a, m);
            tkr_ew_load_i64(bb.i, pb, s[3], L->b, m);
            SELECT(bo.i, cond, ba.i, bb.i, m)
            tkr_ew_store_i64(o, s[0], L->out, bo.i, m);
            break;
        case TKR_CT_U64:
            tkr_ew_load_u64(ba.u, pa, s[2], L->a, m);
            tkr_ew_load_u64(bb.u, pb, s[3], L->b, m);
            SELECT(bo.u, cond, ba.u, bb.u, m)
            tkr_ew_store_u64(o, s[0], L->out, bo.u, m);
            break;
        }
    }
}
