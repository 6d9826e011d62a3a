/* tir_interp_bounds.c — the error model of tir_interp_run_bounded: for one
 * result, a bound on how far a compiled kernel's value may lie from the
 * interpreter's, from the documented error of the op (docs/ARCHITECTURE.md,
 * "Error bounds") and the bounds of its operands.
 *
 * The interpreter computes in double and rounds only bf16/f16 results; a
 * compiled kernel computes in f32 and rounds bf16/f16 results from f32. So
 * for a result r of element type T, with `delta` the difference its inputs'
 * differences can make (the op's Lipschitz constant on [x - e, x + e] times
 * e) and `rnd` the rounding the target adds in f32:
 *   T = f32:      delta + rnd
 *   T = bf16/f16: 0 when delta + rnd = 0 (the same f32 value rounds the same
 *                 way), else delta + rnd + one ulp of T (two values that
 *                 differ may round to neighbours).
 * rnd is u·|r| (u = 2^-24) for a correctly rounded f32 op (+ - · / sqrt),
 * which is 0 for bf16/f16 results: the kernel's f32 result is the
 * interpreter's value rounded to f32, and the interpreter rounds through f32
 * too. exp, tanh, sigmoid and friends are polynomials (lower/cpu/emit_math.c,
 * tests/math: exp/exp2 ≤ 1 ulp, tanh ≤ 2, sigmoid ≤ 3, log ≤ 1, erf ≤ 2,
 * gelu_erf ≤ 5): their rnd is twice the stated ulps. fma rounds once in f32. neg, abs, relu, max, min select or negate
 * an operand and add nothing, not even the ulp of T. Sums (reductions, mma)
 * in f32 in an unspecified order add at most 2·(n + 1)·u·Σ|terms|, which
 * also covers bf16 dot-product instructions that round their pair sums and
 * treat subnormal inputs as zero. */
#include "tir_interp_internal.h"

#include <float.h>
#include <math.h>

#include "ast.h"

#define U32 0x1p-24   /* unit roundoff of f32 */

/* Spacing of the values of T at magnitude m (the ulp of T there). */
static double ulp_of(TkTypeKind elem, double m)
{
    if (!isfinite(m)) return INFINITY;
    int p, emin;   /* precision (bits), smallest normal exponent */
    switch (elem) {
    case TK_TY_BF16: p = 8, emin = -126; break;
    case TK_TY_F16: p = 11, emin = -14; break;
    default: p = 24, emin = -126; break;
    }
    int e;
    frexp(m, &e);   /* m = f·2^e, f in [0.5, 1): the binade starts at 2^(e-1) */
    if (e - 1 < emin) e = emin + 1;
    return ldexp(1.0, e - p);
}

/* The bound of a result r of type elem with input difference delta, target
 * rounding rnd; `exact` ops (select, negate) never round to a neighbour. */
static double result(TkTypeKind elem, double r, double delta, double rnd, bool exact)
{
    double pre = delta + rnd;
    if (elem == TK_TY_F32 || exact || pre == 0) return pre;
    return pre + ulp_of(elem, fabs(r) + pre);
}

/* rnd of a correctly rounded op whose f32 result has magnitude m. */
static double rnd_cr(TkTypeKind elem, double m) { return elem == TK_TY_F32 ? U32 * m : 0; }

/* rnd of an approximated op: `ulps` of its f32 result (an ulp is at most 2u·|r|),
 * doubled, and a floor for results in f32's subnormal range. */
static double rnd_approx(double ulps, double m) { return 4 * ulps * U32 * m + 0x1p-126; }

static double fail(bool *bad)
{
    *bad = true;
    return INFINITY;
}

double tb_map1(TirFn fn, TkTypeKind elem, double x, double ex, double r, bool *bad)
{
    if (!isfinite(x) || !isfinite(r)) {
        /* the same special input gives the same special result (tests/math checks ours) */
        if (ex == 0 && (!isfinite(x) || fn == TIR_FN_LOG || fn == TIR_FN_SQRT || fn == TIR_FN_RSQRT)) return 0;
        return fail(bad);
    }
    double lo = x - ex, hi = x + ex, m = fabs(r) + ex, delta;
    switch (fn) {
    case TIR_FN_NEG:
    case TIR_FN_ABS:
    case TIR_FN_RELU: return ex;
    case TIR_FN_EXP:
        delta = ex ? exp(hi) * ex : 0;
        return isfinite(delta) ? result(elem, r, delta, rnd_approx(1, fabs(r) + delta), false) : fail(bad);
    case TIR_FN_EXP2:
        delta = ex ? 0.69314718055994530942 * exp2(hi) * ex : 0;
        return isfinite(delta) ? result(elem, r, delta, rnd_approx(1, fabs(r) + delta), false) : fail(bad);
    case TIR_FN_LOG:
        if (ex == 0) return result(elem, r, 0, rnd_approx(1, fabs(r)), false);
        if (lo <= 0) return fail(bad);
        delta = ex / lo;
        return result(elem, r, delta, rnd_approx(1, fabs(r) + delta), false);
    case TIR_FN_SQRT:
        if (ex == 0) return result(elem, r, 0, rnd_cr(elem, fabs(r)), false);
        if (lo < 0) return fail(bad);
        /* |√a − √b| ≤ √|a − b| covers the interval reaching 0 */
        delta = lo > 0 ? fmin(0.5 * ex / sqrt(lo), sqrt(ex)) : sqrt(ex);
        return result(elem, r, delta, rnd_cr(elem, fabs(r) + delta), false);
    case TIR_FN_RSQRT:
        /* 1 / sqrt(x): two correctly rounded ops */
        if (ex == 0) return result(elem, r, 0, rnd_approx(1, fabs(r)), false);
        if (lo <= 0) return fail(bad);
        delta = 0.5 * ex * pow(lo, -1.5);
        return result(elem, r, delta, rnd_approx(1, fabs(r) + delta), false);
    case TIR_FN_TANH: return result(elem, r, ex, rnd_approx(2, m), false);
    case TIR_FN_SIGMOID: return result(elem, r, 0.25 * ex, rnd_approx(3, m), false);
    case TIR_FN_SILU:
        /* x · sigmoid(x): |silu'| < 1.1; sigmoid's 3 ulps and the product's rounding */
        return result(elem, r, 1.1 * ex, rnd_approx(4, fabs(r) + 1.1 * ex), false);
    case TIR_FN_ERF:
        /* |erf'| ≤ 2/√π; 2 ulps (tests/math) */
        return result(elem, r, 1.13 * ex, rnd_approx(2, m), false);
    case TIR_FN_GELU_ERF:
        /* |gelu_erf'| < 1.13; 5 ulps of the result (tests/math), which never cancels */
        return result(elem, r, 1.13 * ex, rnd_approx(5, fabs(r) + 1.13 * ex), false);
    case TIR_FN_GELU:
        /* x/2 · (1 + tanh(√(2/π)(x + 0.044715x³))): |gelu'| < 1.13; its roundings are
         * relative to x as much as to the result (1 + tanh cancels for x < 0) */
        return result(elem, r, 1.13 * ex, rnd_approx(4, fabs(x) + ex + fabs(r) + 1.13 * ex), false);
    default: return fail(bad);
    }
}

/* A binary op with a non-finite operand: exact when every non-finite
 * operand is exact and the result does not hinge on the sign or size of an
 * inexact finite one. */
static double special2(TirFn fn, double a, double ea, double b, double eb, double r, bool *bad)
{
    if (ea == 0 && eb == 0) return 0;
    if ((!isfinite(a) && ea != 0) || (!isfinite(b) && eb != 0)) return fail(bad);
    double fin = isfinite(a) ? a : b, efin = isfinite(a) ? ea : eb;
    bool sign_known = fabs(fin) > efin;
    switch (fn) {
    case TIR_FN_ADD:
    case TIR_FN_SUB: return isfinite(r) ? fail(bad) : 0;          /* inf ± finite = inf */
    case TIR_FN_MUL: return sign_known ? 0 : fail(bad);           /* inf · finite: its sign */
    case TIR_FN_DIV:
        if (isfinite(a)) return isinf(b) ? 0 : fail(bad);         /* finite / inf = ±0 */
        return sign_known ? 0 : fail(bad);                        /* inf / finite */
    case TIR_FN_MAX:
    case TIR_FN_MIN: return isfinite(r) ? efin : 0;               /* the finite one, or the inf */
    default: return fail(bad);
    }
}

double tb_map2(TirFn fn, TkTypeKind elem, double a, double ea, double b, double eb, double r, bool *bad)
{
    if (!isfinite(a) || !isfinite(b)) return special2(fn, a, ea, b, eb, r, bad);
    if (!isfinite(r)) return ea == 0 && eb == 0 ? 0 : fail(bad);
    double delta;
    switch (fn) {
    case TIR_FN_ADD:
    case TIR_FN_SUB: delta = ea + eb; break;
    case TIR_FN_MUL: delta = fabs(a) * eb + fabs(b) * ea + ea * eb; break;
    case TIR_FN_DIV:
        if (ea == 0 && eb == 0) {
            delta = 0;
            break;
        }
        if (fabs(b) <= eb) return fail(bad);
        delta = (ea + fabs(r) * eb) / (fabs(b) - eb);
        break;
    case TIR_FN_MAX:
    case TIR_FN_MIN: return fmax(ea, eb);
    default: return fail(bad);
    }
    if (!isfinite(delta)) return fail(bad);
    return result(elem, r, delta, rnd_cr(elem, fabs(r) + delta), false);
}

double tb_fma(TkTypeKind elem, double a, double ea, double b, double eb, double ec, double r, bool *bad)
{
    if (!isfinite(a) || !isfinite(b) || !isfinite(r)) return ea == 0 && eb == 0 && ec == 0 ? 0 : fail(bad);
    double delta = fabs(a) * eb + fabs(b) * ea + ea * eb + ec;
    if (!isfinite(delta)) return fail(bad);
    /* the f32 fma rounds once, also on the way to a bf16/f16 result (whose
     * rounding result() adds): U32 for every element type */
    return result(elem, r, delta, U32 * (fabs(r) + delta), false);
}

double tb_convert(TkTypeKind elem, double r, double e)
{
    if (!isfinite(r)) return e;
    /* widening, and f32 → f32, are exact; narrowing rounds what may already differ */
    return elem == TK_TY_F32 ? e : result(elem, r, e, 0, false);
}

double tb_sum(TkTypeKind elem, double r, int64_t n, double sum_abs, double sum_err)
{
    if (!isfinite(r) || !isfinite(sum_abs)) return sum_err == 0 ? 0 : INFINITY;   /* the same specials sum alike */
    double rnd = n > 1 ? 2.0 * (double)(n + 1) * U32 * (sum_abs + sum_err) : rnd_cr(elem, fabs(r) + sum_err);
    return result(elem, r, sum_err, rnd, false);
}

double tb_mma(double acc, double eacc, int64_t K, double sum_abs, double sum_prop)
{
    double mag = fabs(acc) + eacc + sum_abs + sum_prop;
    /* + K·2^-126: products of subnormal bf16 inputs that a dot-product instruction flushes */
    return eacc + sum_prop + 2.0 * (double)(K + 2) * U32 * mag + (double)K * 0x1p-126;
}

bool tb_compare_decided(int op, double p, double ep, double q, double eq)
{
    double e = ep + eq;
    if (e == 0) return true;
    if (isnan(p) || isnan(q) || !isfinite(e)) return false;
    (void)op;   /* every ordering and (in)equality flips only where |p − q| ≤ e */
    return fabs(p - q) > e;
}
