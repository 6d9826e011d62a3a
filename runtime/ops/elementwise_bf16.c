/* elementwise_bf16.c — bf16 element-wise ops (and f32 math: exp, sigmoid,
 * silu, tanh, gelu, gelu_tanh) on dense runs without a trip
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

/* Vectors never cross a function boundary by value: clang refuses a 64-byte
 * vector argument or return in code built without AVX-512 (the baseline
 * clone, the sanitizer and fuzz builds), and GCC notes the ABI change. The
 * helpers take and write vectors through pointers and are inlined. */
typedef float VecF __attribute__((vector_size(64)));
typedef uint16_t VecH __attribute__((vector_size(32)));
typedef uint32_t VecU __attribute__((vector_size(64)));
typedef int32_t VecI __attribute__((vector_size(64)));

#define LANES 16
#define INLINE static inline __attribute__((always_inline))
#define SPLAT(v) ((VecF){ 0 } + (float)(v))
/* C has no ?: on vectors: lanes of a where mask is set, else of b. */
#define PICK(mask, a, b) ((VecF)(((VecI)(a) & (mask)) | ((VecI)(b) & ~(mask))))
#define VABS(x) ((VecF)((VecI)(x) & 0x7fffffff))

INLINE void widen(VecF *v, const uint16_t *p)
{
    VecH h;
    memcpy(&h, p, sizeof h);
    VecU u = __builtin_convertvector(h, VecU) << 16;
    memcpy(v, &u, sizeof *v);
}

/* Round to nearest even, NaN kept quiet: tk_bf16_from_f32 lane by lane. */
INLINE void narrow(uint16_t *p, const VecF *f)
{
    VecU u = (VecU)*f;
    VecU r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    VecU q = (u >> 16) | 0x40u;
    VecU nan = (VecU)((u & 0x7fffffffu) > 0x7f800000u);
    VecU out = (nan & q) | (~nan & r);
    VecH h = __builtin_convertvector(out, VecH);
    memcpy(p, &h, sizeof h);
}

/* *y = e^x: Cody–Waite reduction by ln 2 and Cephes' degree-6 polynomial
 * (about 1 ulp); 2^n applied in two halves so overflow gives inf and
 * underflow goes gradually to 0. NaN stays NaN. */
INLINE void vexp(VecF *y, const VecF *px)
{
    VecF x = *px;
    x = PICK(x < SPLAT(-104.0f), SPLAT(-104.0f), x);
    x = PICK(x > SPLAT(89.0f), SPLAT(89.0f), x);
    VecF t = x * SPLAT(1.44269504088896341f) + SPLAT(12582912.0f);   /* 1.5·2²³: rounds to an integer */
    VecF n = t - SPLAT(12582912.0f);
    VecF r = x - n * SPLAT(0.693359375f) - n * SPLAT(-2.12194440e-4f);
    VecF p = SPLAT(1.9875691500e-4f);
    p = p * r + SPLAT(1.3981999507e-3f);
    p = p * r + SPLAT(8.3334519073e-3f);
    p = p * r + SPLAT(4.1665795894e-2f);
    p = p * r + SPLAT(1.6666665459e-1f);
    p = p * r + SPLAT(5.0000001201e-1f);
    VecF e = p * r * r + r + SPLAT(1.0f);
    VecI ni = __builtin_convertvector(n, VecI), n1 = ni >> 1, n2 = ni - n1;
    VecF s1 = (VecF)((n1 + 127) << 23), s2 = (VecF)((n2 + 127) << 23);
    *y = e * s1 * s2;
}

/* *y = erfc(z) for z >= 0 (Numerical Recipes' erfcc: relative error < 1.2e-7). */
INLINE void verfc_pos(VecF *y, const VecF *pz)
{
    VecF z = *pz;
    VecF t = SPLAT(1.0f) / (SPLAT(1.0f) + SPLAT(0.5f) * z);
    VecF p = SPLAT(0.17087277f);
    p = p * t + SPLAT(-0.82215223f);
    p = p * t + SPLAT(1.48851587f);
    p = p * t + SPLAT(-1.13520398f);
    p = p * t + SPLAT(0.27886807f);
    p = p * t + SPLAT(-0.18628806f);
    p = p * t + SPLAT(0.09678418f);
    p = p * t + SPLAT(0.37409196f);
    p = p * t + SPLAT(1.00002368f);
    p = p * t + SPLAT(-1.26551223f);
    VecF arg = p - z * z, e;
    vexp(&e, &arg);
    *y = t * e;
}

/* *y = tanh x: Cephes' odd polynomial below 0.625, 1 - 2/(e^2|x| + 1) with x's sign above (no cancellation there). */
INLINE void vtanh(VecF *y, const VecF *px)
{
    VecF x = *px, z = x * x;
    VecF p = SPLAT(-5.70498872745e-3f);
    p = p * z + SPLAT(2.06390887954e-2f);
    p = p * z + SPLAT(-5.37397155531e-2f);
    p = p * z + SPLAT(1.33314422036e-1f);
    p = p * z + SPLAT(-3.33332819422e-1f);
    VecF small = p * z * x + x;
    VecF a = VABS(x), twice = a + a, e;
    vexp(&e, &twice);
    VecF big = SPLAT(1.0f) - SPLAT(2.0f) / (e + SPLAT(1.0f));
    big = (VecF)((VecI)big | ((VecI)x & (int32_t)0x80000000));   /* the sign of x */
    *y = PICK(a < SPLAT(0.625f), small, big);
}

INLINE void unary_math(int op, VecF *y, const VecF *px)
{
    VecF x = *px, e, arg;
    switch (op) {
    case TK_EXP: vexp(y, &x); return;
    case TK_SIGMOID:
        arg = -x;
        vexp(&e, &arg);
        *y = SPLAT(1.0f) / (SPLAT(1.0f) + e);
        return;
    case TK_SILU:
        arg = -x;
        vexp(&e, &arg);
        *y = x / (SPLAT(1.0f) + e);
        return;
    case TK_TANH: vtanh(y, &x); return;
    case TK_GELU: {   /* x/2 · (1 + erf(x/√2)) = x/2 · erfc(-x/√2) */
        VecF w = x * SPLAT(-0.70710678118654752f), aw = VABS(w);
        verfc_pos(&e, &aw);
        *y = SPLAT(0.5f) * x * PICK(w < SPLAT(0.0f), SPLAT(2.0f) - e, e);
        return;
    }
    case TK_GELU_TANH: {   /* x/2 · (1 + tanh u) = x / (1 + e^-2u) */
        VecF u = SPLAT(0.7978845608028654f) * (x + SPLAT(0.044715f) * x * x * x);
        arg = SPLAT(-2.0f) * u;
        vexp(&e, &arg);
        *y = x / (SPLAT(1.0f) + e);
        return;
    }
    default: *y = x; return;   /* not reached: tkr_bf16_unary_has(op) is checked first */
    }
}

INLINE void binary_arith(tk_binary_op op, VecF *y, const VecF *a, const VecF *b)
{
    switch (op) {
    case TK_ADD: *y = *a + *b; return;
    case TK_SUB: *y = *a - *b; return;
    case TK_MUL: *y = *a * *b; return;
    default: *y = *a / *b; return;   /* TK_DIV; tkr_bf16_binary_has(op) is checked first */
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
    VecF x, y;
    for (; i + LANES <= n; i += LANES) {
        widen(&x, a + i);
        unary_math(op, &y, &x);
        narrow(o + i, &y);
    }
    if (i < n) {
        uint16_t in[LANES] = { 0 }, out[LANES];
        memcpy(in, a + i, (size_t)(n - i) * sizeof *in);
        widen(&x, in);
        unary_math(op, &y, &x);
        narrow(out, &y);
        memcpy(o + i, out, (size_t)(n - i) * sizeof *out);
    }
}

/* The same math on f32: o[i] = op(a[i]) over n contiguous floats, 16 lanes
 * at a time (the ragged end through a padded copy, so an element's bits do
 * not depend on where its run starts). About 1-2 ulp against libm's
 * correctly rounded-or-nearly scalar calls, which took 5-10× longer. */
TKR_VECTOR_CLONES void tkr_f32_unary(int op, float *o, const float *a, int64_t n)
{
    int64_t i = 0;
    VecF x, y;
    for (; i + LANES <= n; i += LANES) {
        memcpy(&x, a + i, sizeof x);
        unary_math(op, &y, &x);
        memcpy(o + i, &y, sizeof y);
    }
    if (i < n) {
        float in[LANES] = { 0 }, out[LANES];
        memcpy(in, a + i, (size_t)(n - i) * sizeof *in);
        memcpy(&x, in, sizeof x);
        unary_math(op, &y, &x);
        memcpy(out, &y, sizeof y);
        memcpy(o + i, out, (size_t)(n - i) * sizeof *out);
    }
}

/* o[i] = a[i·sa] op b[i·sb] over n elements, sa and sb 1 (contiguous) or 0 (one value). */
TKR_VECTOR_CLONES void tkr_bf16_binary(tk_binary_op op, uint16_t *o, const uint16_t *a, int64_t sa, const uint16_t *b, int64_t sb,
                                       int64_t n)
{
    int64_t i = 0;
    VecF xa = SPLAT(tk_bf16_to_f32(a[0])), xb = SPLAT(tk_bf16_to_f32(b[0])), x = xa, y = xb, r;   /* xa, xb where the stride is 0 */
    for (; i + LANES <= n; i += LANES) {
        if (sa) widen(&x, a + i);
        if (sb) widen(&y, b + i);
        binary_arith(op, &r, &x, &y);
        narrow(o + i, &r);
    }
    if (i < n) {
        uint16_t ta[LANES] = { 0 }, tb[LANES] = { 0 }, out[LANES];
        if (sa) memcpy(ta, a + i, (size_t)(n - i) * sizeof *ta), widen(&x, ta);
        if (sb) memcpy(tb, b + i, (size_t)(n - i) * sizeof *tb), widen(&y, tb);
        binary_arith(op, &r, &x, &y);
        narrow(out, &r);
        memcpy(o + i, out, (size_t)(n - i) * sizeof *out);
    }
}
