/* unary.c — the typed loops of the unary element-wise ops, the activations
 * with a parameter and clamp. As in binary.c a kernel computes o[i] =
 * f(a[i·sa]) in one compute type (float math in the result's precision:
 * <tgmath.h> picks expf for floats), straight on f32/f64 tensors with unit
 * strides, else through chunk buffers that convert. */
#include <math.h>
#include <tgmath.h>

#include "elementwise.h"

/* -O2 (RelWithDebInfo) only vectorises loops with no runtime checks or
 * epilogue; these loops have both, so ask GCC for its full cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#define UN_KERNEL(NAME, T, OT, EXPR)                                                            \
    static void NAME(OT *o, const T *a, int64_t sa, int64_t n, const TkrUnParams *p)             \
    {                                                                                           \
        (void)p;                                                                                \
        if (sa == 1) {                                                                          \
            for (int64_t i = 0; i < n; i++) {                                                   \
                T x = a[i];                                                                     \
                o[i] = (OT)(EXPR);                                                              \
            }                                                                                   \
        } else {                                                                                \
            for (int64_t i = 0; i < n; i++) {                                                   \
                T x = a[i * sa];                                                                \
                o[i] = (OT)(EXPR);                                                              \
            }                                                                                   \
        }                                                                                       \
    }

/* torch's constants and formulas (PyTorch 1.13's CPU kernels) */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

#define FLOAT_UNARY_HELPERS(T, SUF)                                                                        \
    static inline T sign_##SUF(T x) { return (T)((0 < x) - (x < 0)); } /* NaN → 0, as torch 1.13 */      \
    static inline T softplus_##SUF(T x) { return x > 20 ? x : log1p(exp(x)); } /* beta 1, threshold 20 */ \
    static inline T hardsigmoid_##SUF(T x)                                                                 \
    {                                                                                                      \
        T r = x + 3;                                                                                       \
        r = r < 0 ? 0 : r;                                                                                 \
        r = r > 6 ? 6 : r;                                                                                 \
        return r / 6;                                                                                      \
    }                                                                                                      \
    static inline T gelu_tanh_##SUF(T x)                                                                   \
    {                                                                                                      \
        const T k = (T)0.7978845608028654; /* sqrt(2/pi) */                                               \
        return (T)0.5 * x * (1 + tanh(k * (x + (T)0.044715 * x * x * x)));                                 \
    }                                                                                                      \
    static inline T clamp_##SUF(T x, T lo, T hi)                                                           \
    {                                                                                                      \
        T r = x < lo ? lo : x; /* NaN stays NaN; lo > hi gives hi, as torch */                            \
        return r > hi ? hi : r;                                                                            \
    }

FLOAT_UNARY_HELPERS(float, f32)
FLOAT_UNARY_HELPERS(double, f64)

#define FLOAT_UNARY_KERNELS(T, SUF)                                                                        \
    UN_KERNEL(neg_##SUF, T, T, -x)                                                                         \
    UN_KERNEL(abs_##SUF, T, T, fabs(x))                                                                    \
    UN_KERNEL(sign_k_##SUF, T, T, sign_##SUF(x))                                                           \
    UN_KERNEL(reciprocal_##SUF, T, T, 1 / x)                                                               \
    UN_KERNEL(square_##SUF, T, T, x *x)                                                                    \
    UN_KERNEL(exp_##SUF, T, T, exp(x))                                                                     \
    UN_KERNEL(exp2_##SUF, T, T, exp2(x))                                                                   \
    UN_KERNEL(expm1_##SUF, T, T, expm1(x))                                                                 \
    UN_KERNEL(log_##SUF, T, T, log(x))                                                                     \
    UN_KERNEL(log2_##SUF, T, T, log2(x))                                                                   \
    UN_KERNEL(log10_##SUF, T, T, log10(x))                                                                 \
    UN_KERNEL(log1p_##SUF, T, T, log1p(x))                                                                 \
    UN_KERNEL(sqrt_##SUF, T, T, sqrt(x))                                                                   \
    UN_KERNEL(rsqrt_##SUF, T, T, 1 / sqrt(x))                                                              \
    UN_KERNEL(sin_##SUF, T, T, sin(x))                                                                     \
    UN_KERNEL(cos_##SUF, T, T, cos(x))                                                                     \
    UN_KERNEL(tan_##SUF, T, T, tan(x))                                                                     \
    UN_KERNEL(asin_##SUF, T, T, asin(x))                                                                   \
    UN_KERNEL(acos_##SUF, T, T, acos(x))                                                                   \
    UN_KERNEL(atan_##SUF, T, T, atan(x))                                                                   \
    UN_KERNEL(sinh_##SUF, T, T, sinh(x))                                                                   \
    UN_KERNEL(cosh_##SUF, T, T, cosh(x))                                                                   \
    UN_KERNEL(tanh_##SUF, T, T, tanh(x))                                                                   \
    UN_KERNEL(asinh_##SUF, T, T, asinh(x))                                                                 \
    UN_KERNEL(acosh_##SUF, T, T, acosh(x))                                                                 \
    UN_KERNEL(atanh_##SUF, T, T, atanh(x))                                                                 \
    UN_KERNEL(erf_##SUF, T, T, erf(x))                                                                     \
    UN_KERNEL(erfc_##SUF, T, T, erfc(x))                                                                   \
    UN_KERNEL(floor_##SUF, T, T, floor(x))                                                                 \
    UN_KERNEL(ceil_##SUF, T, T, ceil(x))                                                                   \
    UN_KERNEL(round_##SUF, T, T, nearbyint(x)) /* half to even in the default rounding mode */            \
    UN_KERNEL(trunc_##SUF, T, T, trunc(x))                                                                 \
    UN_KERNEL(sigmoid_##SUF, T, T, 1 / (1 + exp(-x)))                                                      \
    UN_KERNEL(relu_##SUF, T, T, x < 0 ? 0 : x)                                                             \
    UN_KERNEL(gelu_##SUF, T, T, x * (T)0.5 * (1 + erf(x * (T)0.70710678118654752440)))                     \
    UN_KERNEL(gelu_tanh_k_##SUF, T, T, gelu_tanh_##SUF(x))                                                 \
    UN_KERNEL(silu_##SUF, T, T, x / (1 + exp(-x)))                                                         \
    UN_KERNEL(mish_##SUF, T, T, x * tanh(log1p(exp(x))))                                                   \
    UN_KERNEL(softplus_k_##SUF, T, T, softplus_##SUF(x))                                                   \
    UN_KERNEL(hardsigmoid_k_##SUF, T, T, hardsigmoid_##SUF(x))                                             \
    UN_KERNEL(hardswish_##SUF, T, T, x * hardsigmoid_##SUF(x))                                             \
    UN_KERNEL(selu_##SUF, T, T, x > 0 ? (T)SELU_SCALE * x : (T)(SELU_SCALE * SELU_ALPHA) * expm1(x))       \
    UN_KERNEL(leaky_relu_##SUF, T, T, x > 0 ? x : x * (T)p->slope)                                         \
    UN_KERNEL(elu_##SUF, T, T, x > 0 ? x : (T)p->alpha * expm1(x))                                         \
    UN_KERNEL(clamp_k_##SUF, T, T, clamp_##SUF(x, (T)p->lo, (T)p->hi))                                     \
    UN_KERNEL(lnot_##SUF, T, uint8_t, x == 0)                                                              \
    UN_KERNEL(isnan_##SUF, T, uint8_t, x != x)                                                             \
    UN_KERNEL(isinf_##SUF, T, uint8_t, fabs(x) == (T)INFINITY)                                             \
    UN_KERNEL(isfinite_##SUF, T, uint8_t, fabs(x) < (T)INFINITY)                                           \
    static TkrKernelFn float_unary_##SUF(int op)                                                           \
    {                                                                                                      \
        switch (op) {                                                                                      \
        case TK_NEG: return (TkrKernelFn)neg_##SUF;                                                        \
        case TK_ABS: return (TkrKernelFn)abs_##SUF;                                                        \
        case TK_SIGN: return (TkrKernelFn)sign_k_##SUF;                                                    \
        case TK_RECIPROCAL: return (TkrKernelFn)reciprocal_##SUF;                                          \
        case TK_SQUARE: return (TkrKernelFn)square_##SUF;                                                  \
        case TK_EXP: return (TkrKernelFn)exp_##SUF;                                                        \
        case TK_EXP2: return (TkrKernelFn)exp2_##SUF;                                                      \
        case TK_EXPM1: return (TkrKernelFn)expm1_##SUF;                                                    \
        case TK_LOG: return (TkrKernelFn)log_##SUF;                                                        \
        case TK_LOG2: return (TkrKernelFn)log2_##SUF;                                                      \
        case TK_LOG10: return (TkrKernelFn)log10_##SUF;                                                    \
        case TK_LOG1P: return (TkrKernelFn)log1p_##SUF;                                                    \
        case TK_SQRT: return (TkrKernelFn)sqrt_##SUF;                                                      \
        case TK_RSQRT: return (TkrKernelFn)rsqrt_##SUF;                                                    \
        case TK_SIN: return (TkrKernelFn)sin_##SUF;                                                        \
        case TK_COS: return (TkrKernelFn)cos_##SUF;                                                        \
        case TK_TAN: return (TkrKernelFn)tan_##SUF;                                                        \
        case TK_ASIN: return (TkrKernelFn)asin_##SUF;                                                      \
        case TK_ACOS: return (TkrKernelFn)acos_##SUF;                                                      \
        case TK_ATAN: return (TkrKernelFn)atan_##SUF;                                                      \
        case TK_SINH: return (TkrKernelFn)sinh_##SUF;                                                      \
        case TK_COSH: return (TkrKernelFn)cosh_##SUF;                                                      \
        case TK_TANH: return (TkrKernelFn)tanh_##SUF;                                                      \
        case TK_ASINH: return (TkrKernelFn)asinh_##SUF;                                                    \
        case TK_ACOSH: return (TkrKernelFn)acosh_##SUF;                                                    \
        case TK_ATANH: return (TkrKernelFn)atanh_##SUF;                                                    \
        case TK_ERF: return (TkrKernelFn)erf_##SUF;                                                        \
        case TK_ERFC: return (TkrKernelFn)erfc_##SUF;                                                      \
        case TK_FLOOR: return (TkrKernelFn)floor_##SUF;                                                    \
        case TK_CEIL: return (TkrKernelFn)ceil_##SUF;                                                      \
        case TK_ROUND: return (TkrKernelFn)round_##SUF;                                                    \
        case TK_TRUNC: return (TkrKernelFn)trunc_##SUF;                                                    \
        case TK_SIGMOID: return (TkrKernelFn)sigmoid_##SUF;                                                \
        case TK_RELU: return (TkrKernelFn)relu_##SUF;                                                      \
        case TK_GELU: return (TkrKernelFn)gelu_##SUF;                                                      \
        case TK_GELU_TANH: return (TkrKernelFn)gelu_tanh_k_##SUF;                                          \
        case TK_SILU: return (TkrKernelFn)silu_##SUF;                                                      \
        case TK_MISH: return (TkrKernelFn)mish_##SUF;                                                      \
        case TK_SOFTPLUS: return (TkrKernelFn)softplus_k_##SUF;                                            \
        case TK_HARDSIGMOID: return (TkrKernelFn)hardsigmoid_k_##SUF;                                      \
        case TK_HARDSWISH: return (TkrKernelFn)hardswish_##SUF;                                            \
        case TK_SELU: return (TkrKernelFn)selu_##SUF;                                                      \
        case TK_LOGICAL_NOT: return (TkrKernelFn)lnot_##SUF;                                               \
        case TK_ISNAN: return (TkrKernelFn)isnan_##SUF;                                                    \
        case TK_ISINF: return (TkrKernelFn)isinf_##SUF;                                                    \
        case TK_ISFINITE: return (TkrKernelFn)isfinite_##SUF;                                              \
        case TKR_U_LEAKY_RELU: return (TkrKernelFn)leaky_relu_##SUF;                                       \
        case TKR_U_ELU: return (TkrKernelFn)elu_##SUF;                                                     \
        case TKR_U_CLAMP: return (TkrKernelFn)clamp_k_##SUF;                                               \
        default: return NULL; /* bitwise_not takes no floats */                                           \
        }                                                                                                  \
    }

FLOAT_UNARY_KERNELS(float, f32)
FLOAT_UNARY_KERNELS(double, f64)

/* Integers (and bool) keep their dtype for these; wrapping through uint64. */
UN_KERNEL(neg_i64, int64_t, int64_t, 0 - (uint64_t)x)
UN_KERNEL(abs_i64, int64_t, int64_t, x < 0 ? 0 - (uint64_t)x : (uint64_t)x)
UN_KERNEL(sign_i64, int64_t, int64_t, (0 < x) - (x < 0))
UN_KERNEL(square_i64, int64_t, int64_t, (uint64_t)x * (uint64_t)x)
UN_KERNEL(copy_i64, int64_t, int64_t, x)   /* floor, ceil, round, trunc of an int */
UN_KERNEL(relu_i64, int64_t, int64_t, x < 0 ? 0 : x)
UN_KERNEL(bnot_i64, int64_t, int64_t, ~x)
UN_KERNEL(clamp_i64, int64_t, int64_t, x < p->ilo ? p->ilo : x > p->ihi ? p->ihi : x)
UN_KERNEL(lnot_i64, int64_t, uint8_t, x == 0)
UN_KERNEL(false_i64, int64_t, uint8_t, 0 * x)     /* isnan, isinf of an int */
UN_KERNEL(true_i64, int64_t, uint8_t, 1 + 0 * x)  /* isfinite of an int */

static TkrKernelFn int_unary(int op)
{
    switch (op) {
    case TK_NEG: return (TkrKernelFn)neg_i64;
    case TK_ABS: return (TkrKernelFn)abs_i64;
    case TK_SIGN: return (TkrKernelFn)sign_i64;
    case TK_SQUARE: return (TkrKernelFn)square_i64;
    case TK_FLOOR:
    case TK_CEIL:
    case TK_ROUND:
    case TK_TRUNC: return (TkrKernelFn)copy_i64;
    case TK_RELU: return (TkrKernelFn)relu_i64;
    case TK_BITWISE_NOT: return (TkrKernelFn)bnot_i64;
    case TKR_U_CLAMP: return (TkrKernelFn)clamp_i64;
    case TK_LOGICAL_NOT: return (TkrKernelFn)lnot_i64;
    case TK_ISNAN:
    case TK_ISINF: return (TkrKernelFn)false_i64;
    case TK_ISFINITE: return (TkrKernelFn)true_i64;
    default: return NULL;   /* the math functions compute ints in f32 */
    }
}

/* u64: unsigned order where i64's would read values >= 2^63 as negative
 * (abs, sign, relu, clamp); the wrapping ones (neg, square, ~) share the bits. */
UN_KERNEL(neg_u64, uint64_t, uint64_t, 0 - x)
UN_KERNEL(sign_u64, uint64_t, uint64_t, x != 0)
UN_KERNEL(square_u64, uint64_t, uint64_t, x *x)
UN_KERNEL(copy_u64, uint64_t, uint64_t, x)   /* abs, relu, floor, ceil, round, trunc */
UN_KERNEL(bnot_u64, uint64_t, uint64_t, ~x)
UN_KERNEL(clamp_u64, uint64_t, uint64_t, x < p->ulo ? p->ulo : x > p->uhi ? p->uhi : x)
UN_KERNEL(lnot_u64, uint64_t, uint8_t, x == 0)
UN_KERNEL(false_u64, uint64_t, uint8_t, 0 * x)
UN_KERNEL(true_u64, uint64_t, uint8_t, 1 + 0 * x)

static TkrKernelFn uint_unary(int op)
{
    switch (op) {
    case TK_NEG: return (TkrKernelFn)neg_u64;
    case TK_SIGN: return (TkrKernelFn)sign_u64;
    case TK_SQUARE: return (TkrKernelFn)square_u64;
    case TK_ABS:
    case TK_RELU:
    case TK_FLOOR:
    case TK_CEIL:
    case TK_ROUND:
    case TK_TRUNC: return (TkrKernelFn)copy_u64;
    case TK_BITWISE_NOT: return (TkrKernelFn)bnot_u64;
    case TKR_U_CLAMP: return (TkrKernelFn)clamp_u64;
    case TK_LOGICAL_NOT: return (TkrKernelFn)lnot_u64;
    case TK_ISNAN:
    case TK_ISINF: return (TkrKernelFn)false_u64;
    case TK_ISFINITE: return (TkrKernelFn)true_u64;
    default: return NULL;
    }
}

typedef void (*UF32)(float *, const float *, int64_t, int64_t, const TkrUnParams *);
typedef void (*UF64)(double *, const double *, int64_t, int64_t, const TkrUnParams *);
typedef void (*UI64)(int64_t *, const int64_t *, int64_t, int64_t, const TkrUnParams *);
typedef void (*BF32)(uint8_t *, const float *, int64_t, int64_t, const TkrUnParams *);
typedef void (*BF64)(uint8_t *, const double *, int64_t, int64_t, const TkrUnParams *);
typedef void (*BI64)(uint8_t *, const int64_t *, int64_t, int64_t, const TkrUnParams *);
typedef void (*UU64)(uint64_t *, const uint64_t *, int64_t, int64_t, const TkrUnParams *);
typedef void (*BU64)(uint8_t *, const uint64_t *, int64_t, int64_t, const TkrUnParams *);

bool tkr_unary_prepare(TkrUnaryLoop *L)
{
    switch (L->ct) {
    case TKR_CT_F32: L->kernel = float_unary_f32(L->op); break;
    case TKR_CT_F64: L->kernel = float_unary_f64(L->op); break;
    case TKR_CT_I64: L->kernel = int_unary(L->op); break;
    case TKR_CT_U64:
        L->kernel = uint_unary(L->op);
        /* clamp's int bounds as u64: INT64_MAX is "no max"; a negative bound is below every value */
        L->params.ulo = L->params.ilo < 0 ? 0 : (uint64_t)L->params.ilo;
        L->params.uhi = L->params.ihi == INT64_MAX ? UINT64_MAX : L->params.ihi < 0 ? 0 : (uint64_t)L->params.ihi;
        break;
    }
    return L->kernel != NULL;
}

static void call(const TkrUnaryLoop *L, void *o, const void *a, int64_t sa, int64_t n)
{
    const TkrUnParams *pp = &L->params;
    switch (L->ct) {
    case TKR_CT_F32:
        if (L->bool_out) ((BF32)L->kernel)(o, a, sa, n, pp);
        else ((UF32)L->kernel)(o, a, sa, n, pp);
        break;
    case TKR_CT_F64:
        if (L->bool_out) ((BF64)L->kernel)(o, a, sa, n, pp);
        else ((UF64)L->kernel)(o, a, sa, n, pp);
        break;
    case TKR_CT_I64:
        if (L->bool_out) ((BI64)L->kernel)(o, a, sa, n, pp);
        else ((UI64)L->kernel)(o, a, sa, n, pp);
        break;
    case TKR_CT_U64:
        if (L->bool_out) ((BU64)L->kernel)(o, a, sa, n, pp);
        else ((UU64)L->kernel)(o, a, sa, n, pp);
        break;
    }
}

void tkr_unary_loop(char **p, const int64_t *s, int64_t n, void *arg)
{
    const TkrUnaryLoop *L = arg;
    /* dense bf16 → bf16: widened, computed and rounded in registers (elementwise_bf16.c) */
    if (L->in == TK_DTYPE_BF16 && L->common == TK_DTYPE_BF16 && L->out == TK_DTYPE_BF16 && s[0] == 2 && s[1] == 2 &&
        tkr_bf16_unary_has(L->op)) {
        tkr_bf16_unary(L->op, (uint16_t *)(void *)p[0], (const uint16_t *)(const void *)p[1], n);
        return;
    }
    /* dense f32 → f32 math: the same vector exp / erfc (libm's scalar calls took 5-10× longer) */
    if (L->in == TK_DTYPE_F32 && L->common == TK_DTYPE_F32 && L->out == TK_DTYPE_F32 && s[0] == 4 && s[1] == 4 &&
        tkr_bf16_unary_has(L->op)) {
        tkr_f32_unary(L->op, (float *)(void *)p[0], (const float *)(const void *)p[1], n);
        return;
    }
    /* straight on the tensors: f32 → f32, f64 → f64, i64 → i64, u64 → u64 (or bool results) with unit strides */
    tk_dtype nat = L->ct == TKR_CT_F32 ? TK_DTYPE_F32 : L->ct == TKR_CT_F64 ? TK_DTYPE_F64 : L->ct == TKR_CT_U64 ? TK_DTYPE_U64 : TK_DTYPE_I64;
    int64_t es = (int64_t)tk_dtype_size(nat);
    if (L->in == nat && L->common == nat && L->out == (L->bool_out ? TK_DTYPE_BOOL : nat) && s[0] == (L->bool_out ? 1 : es) && (s[1] == es || s[1] == 0)) {
        call(L, p[0], p[1], s[1] / es, n);
        return;
    }
    union {
        float f[TKR_EW_CHUNK];
        double d[TKR_EW_CHUNK];
        int64_t i[TKR_EW_CHUNK];
        uint64_t u[TKR_EW_CHUNK];
    } ba, bo;
    uint8_t bools[TKR_EW_CHUNK];
    for (int64_t off = 0; off < n; off += TKR_EW_CHUNK) {
        int64_t m = n - off < TKR_EW_CHUNK ? n - off : TKR_EW_CHUNK;
        const char *a = p[1] + off * s[1];
        char *o = p[0] + off * s[0];
        switch (L->ct) {
        case TKR_CT_F32: tkr_ew_load_f32(ba.f, a, s[1], L->in, L->common, m); break;
        case TKR_CT_F64: tkr_ew_load_f64(ba.d, a, s[1], L->in, m); break;
        case TKR_CT_I64: tkr_ew_load_i64(ba.i, a, s[1], L->in, m); break;
        case TKR_CT_U64: tkr_ew_load_u64(ba.u, a, s[1], L->in, m); break;
        }
        call(L, L->bool_out ? (void *)bools : (void *)&bo, &ba, 1, m);
        if (L->bool_out) tkr_ew_store_bool(o, s[0], L->out, bools, m);
        else if (L->ct == TKR_CT_F32) tkr_ew_store_f32(o, s[0], L->out, bo.f, m);
        else if (L->ct == TKR_CT_F64) tkr_ew_store_f64(o, s[0], L->out, bo.d, m);
        else if (L->ct == TKR_CT_U64) tkr_ew_store_u64(o, s[0], L->out, bo.u, m);
        else tkr_ew_store_i64(o, s[0], L->out, bo.i, m);
    }
}
