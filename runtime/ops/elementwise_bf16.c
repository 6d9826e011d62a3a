/* elementwise_bf16.c — bf16 element-wise ops on dense runs without a trip
 * through the chunk buffers: 16 elements at a time are widened to f32 in
 * registers, computed in f32 and rounded to nearest even back to bf16, as
 * PyTorch computes bf16 ops. The arithmetic ops (add, sub, mul, div) are
 * exact f32 operations, so their results are the buffered path's bits. The
 * math (exp, sigmoid, silu, tanh, gelu, gelu_tanh) uses the vector exp and
 * erfc below instead of libm's scalar calls: within about 2 f32 ulp (erfc
 * 1.2e-7 relative), far below bf16's 2⁻⁹, so a result differs from the
 * correctly rounded bf16 only where the f32 value lies within that of a
 * rounding boundary.
 *
 * The vectors are GCC's generic vectors (TKR_VECTOR_CLONES picks AVX-512,
 * AVX2 or the baseline at load time; every lane computes the same
 * expression, so the bits do not depend on the clone). A run's ragged end
 * goes through the same vector code on a padded copy, so an element's
 * result never depends on where a thread's piece starts. */
#include <math.h>
#include <string.h>

#include "elementwise.h"
#include "tk/dtype.h"

/* The helpers are always inlined into each clone (a 64-byte vector passed to
 * a baseline helper would change ABI), so the ABI note concerns no call. */
#pragma GCC diagnostic ignored "-Wpsabi"

typedef float VecF __attribute__((vector_size(64)));
typedef uint16_t VecH __attribute__((vector_size(32)));
typedef uint32_t VecU __attribute__((vector_size(64)));
typedef int32_t VecI __attribute__((vector_size(64)));

#define LANES 16
#define INLINE static inline __attribute__((always_inline))

INLINE VecF splat(float v)
{
    return (VecF){ 0 } + v;
}

/* C has no ?: on vectors: lanes of a where mask is set, else of b. */
INLINE VecF pick(VecI mask, VecF a, VecF b)
{
    return (VecF)(((VecI)a & mask) | ((VecI)b & ~mask));
}

INLINE VecF widen(const uint16_t *p)
{
    VecH h;
    memcpy(&h, p, sizeof h);
    return (VecF)(__builtin_convertvector(h, VecU) << 16);
}

/* Round to nearest even, NaN kept quiet: tk_bf16_from_f32 lane by lane. */
INLINE void narrow(uint16_t *p, VecF f)
{
    VecU u = (VecU)f;
    VecU r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    VecU q = (u >> 16) | 0x40u;
    VecI nan = (VecI)((u & 0x7fffffffu) > 0x7f800000u);
    VecU out = ((VecU)nan & q) | (~(VecU)nan & r);
    VecH h = __builtin_convertvector(out, VecH);
    memcpy(p, &h, sizeof h);
}

/* e^x: Cody–Waite reduction by ln 2 and Cephes' degree-6 polynomial (about
 * 1 ulp); 2^n applied in two halves so overflow gives inf and underflow
 * goes gradually to 0. NaN stays NaN. */
INLINE VecF vexp(VecF x)
{
    x = pick(x < splat(-104.0f), splat(-104.0f), x);
    x = pick(x > splat(89.0f), splat(89.0f), x);
    VecF t = x * splat(1.44269504088896341f) + splat(12582912.0f);   /* 1.5·2²³: rounds to an integer */
    VecF n = t - splat(12582912.0f);
    VecF r = x - n * splat(0.693359375f) - n * splat(-2.12194440e-4f);
    VecF p = splat(1.9875691500e-4f);
    p = p * r + splat(1.3981999507e-3f);
    p = p * r + splat(8.3334519073e-3f);
    p = p * r + splat(4.1665795894e-2f);
    p = p * r + splat(1.6666665459e-1f);
    p = p * r + splat(5.0000001201e-1f);
    VecF y = p * r * r + r + splat(1.0f);
    VecI ni = __builtin_convertvector(n, VecI), n1 = ni >> 1, n2 = ni - n1;
    VecF s1 = (VecF)((n1 + 127) << 23), s2 = (VecF)((n2 + 127) << 23);
    return y * s1 * s2;
}

/* erfc(z) for z >= 0 (Numerical Recipes' erfcc: relative error < 1.2e-7). */
INLINE VecF verfc_pos(VecF z)
{
    VecF t = splat(1.0f) / (splat(1.0f) + splat(0.5f) * z);
    VecF p = splat(0.17087277f);
    p = p * t + splat(-0.82215223f);
    p = p * t + splat(1.48851587f);
    p = p * t + splat(-1.13520398f);
    p = p * t + splat(0.27886807f);
    p = p * t + splat(-0.18628806f);
    p = p * t + splat(0.09678418f);
    p = p * t + splat(0.37409196f);
    p = p * t + splat(1.00002368f);
    p = p * t + splat(-1.26551223f);
    return t * vexp(p - z * z);
}

INLINE VecF vabs(VecF x)
{
    return (VecF)((VecI)x & 0x7fffffff);
}

/* tanh: Cephes' odd polynomial below 0.625, 1 - 2/(e^2x + 1) above (no cancellation there). */
INLINE VecF vtanh(VecF x)
{
    VecF z = x * x;
    VecF p = splat(-5.70498872745e-3f);
    p = p * z + splat(2.06390887954e-2f);
    p = p * z + splat(-5.37397155531e-2f);
    p = p * z + splat(1.33314422036e-1f);
    p = p * z + splat(-3.33332819422e-1f);
    VecF small = p * z * x + x;
    VecF a = vabs(x), big = splat(1.0f) - splat(2.0f) / (vexp(a + a) + splat(1.0f));
    big = (VecF)((VecI)big | ((VecI)x & (int32_t)0x80000000));   /* the sign of x */
    return pick(a < splat(0.625f), small, big);
}

INLINE VecF unary_math(int op, VecF x)
{
    switch (op) {
    case TK_EXP: return vexp(x);
    case TK_SIGMOID: return splat(1.0f) / (splat(1.0f) + vexp(-x));
    case TK_SILU: return x / (splat(1.0f) + vexp(-x));
    case TK_TANH: return vtanh(x);
    case TK_GELU: {   /* x/2 · (1 + erf(x/√2)) = x/2 · erfc(-x/√2) */
        VecF w = x * splat(-0.70710678118654752f), e = verfc_pos(vabs(w));
        return splat(0.5f) * x * pick(w < splat(0.0f), splat(2.0f) - e, e);
    }
    case TK_GELU_TANH: {   /* x/2 · (1 + tanh y) = x / (1 + e^-2y) */
        VecF y = splat(0.7978845608028654f) * (x + splat(0.044715f) * x * x * x);
        return x / (splat(1.0f) + vexp(splat(-2.0f) * y));
    }
    default: return x;   /* not reached: tkr_bf16_unary_has(op) is checked first */
    }
}

INLINE VecF binary_arith(tk_binary_op op, VecF x, VecF y)
{
    switch (op) {
    case TK_ADD: return x + y;
    case TK_SUB: return x - y;
    case TK_MUL: return x * y;
    default: return x / y;   /* TK_DIV; tkr_bf16_binary_has(op) is checked first */
    }
}

bool tkr_bf16_unary_has(int op)
{
    return op == TK_EXP || op == TK_SIGMOID || op == TK_SILU || op == TK_TANH || op == TK_GELU || op == TK_GELU_TANH;
}

bool tkr_bf16_binary_has(tk_binary_op op)
{
    return op == TK_ADD || op == TK_SUB || op == TK_MUL || op == TK_DIV;
}

/* o[i] = op(a[i]) over n contiguous elements (the switch on op is loop
 * invariant: the compiler unswitches it). */
TKR_VECTOR_CLONES void tkr_bf16_unary(int op, uint16_t *o, const uint16_t *a, int64_t n)
{
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES) narrow(o + i, unary_math(op, widen(a + i)));
    if (i < n) {
        uint16_t in[LANES] = { 0 }, out[LANES];
        memcpy(in, a + i, (size_t)(n - i) * sizeof *in);
        narrow(out, unary_math(op, widen(in)));
        memcpy(o + i, out, (size_t)(n - i) * sizeof *out);
    }
}

/* o[i] = a[i·sa] op b[i·sb] over n elements, sa and sb 1 (contiguous) or 0 (one value). */
TKR_VECTOR_CLONES void tkr_bf16_binary(tk_binary_op op, uint16_t *o, const uint16_t *a, int64_t sa, const uint16_t *b, int64_t sb,
                                       int64_t n)
{
    int64_t i = 0;
    VecF xa = splat(tk_bf16_to_f32(a[0])), xb = splat(tk_bf16_to_f32(b[0]));   /* used where the stride is 0 */
    for (; i + LANES <= n; i += LANES) {
        VecF x = sa ? widen(a + i) : xa, y = sb ? widen(b + i) : xb;
        narrow(o + i, binary_arith(op, x, y));
    }
    if (i < n) {
        uint16_t ta[LANES] = { 0 }, tb[LANES] = { 0 }, out[LANES];
        if (sa) memcpy(ta, a + i, (size_t)(n - i) * sizeof *ta);
        if (sb) memcpy(tb, b + i, (size_t)(n - i) * sizeof *tb);
        narrow(out, binary_arith(op, sa ? widen(ta) : xa, sb ? widen(tb) : xb));
        memcpy(o + i, out, (size_t)(n - i) * sizeof *out);
    }
}
