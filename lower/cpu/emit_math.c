/* emit_math.c — exp, exp2, log, tanh, sigmoid, erf and the erf GELU of f32 as
 * straight-line LLVM IR.
 *
 * Why not llvm.exp / llvm.tanh: without a vector math library LLVM lowers
 * them to one libm call per element, so a vectorised loop over a tile turns
 * back into 16 scalar calls per zmm — softmax, attention, SiLU and GELU
 * epilogues spent most of their time there. These are plain fmul/fadd/fma,
 * selects and integer bit tricks, which the loop vectoriser widens to any
 * vector width on every target (and which the GPU backends take as they are).
 *
 * Accuracy (f32, against the double-precision reference): exp and exp2 within
 * 2 ulp over the whole range, subnormal results and overflow to inf included;
 * tanh within 2 ulp; log within 1 ulp (subnormal inputs included); erf within
 * 2 ulp; gelu_erf within 5 ulp (of the result, also where it is tiny: the
 * x < 0 side is x/2·erfc(|x|/√2), never 1 + erf(..) cancelling). NaN in, NaN
 * out; exp(-inf) = 0, exp(inf) = inf, tanh(±inf) = ±1, log(0) = -inf,
 * log(x < 0) = NaN, erf(±inf) = ±1, gelu_erf(inf) = inf, gelu_erf(-inf) = -0.
 * tests/math/accuracy.c measures every bound over the whole f32 range. */
#include "emit_math.h"

#include "cpu_math.h"

#include <math.h>
#include <string.h>

static LLVMValueRef cf(Emit *E, double v) { return LLVMConstReal(E->f32, v); }

/* A constant of x's type (scalar or vector). */
static LLVMValueRef like(Emit *E, LLVMValueRef x, LLVMValueRef scalar)
{
    (void)E;
    LLVMTypeRef t = LLVMTypeOf(x);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return scalar;
    return emit_const_splat(scalar, LLVMGetVectorSize(t));
}

static LLVMTypeRef int_like(Emit *E, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(E->i32, LLVMGetVectorSize(t)) : E->i32;
}

static LLVMValueRef call1(Emit *E, const char *name, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return emit_intrinsic(E, name, &t, 1, &x, 1);
}

static LLVMValueRef call2(Emit *E, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef args[2] = { x, y };
    return emit_intrinsic(E, name, &t, 1, args, 2);
}

static LLVMValueRef fma3(Emit *E, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[3] = { a, b, c };
    return emit_intrinsic(E, "llvm.fma", &t, 1, args, 3);
}

/* p(r) ≈ e^r for |r| ≤ ln2/2: the Taylor polynomial to r^7 (truncation
 * below 6e-9 relative), by Horner with FMAs. */
static LLVMValueRef exp_poly(Emit *E, LLVMValueRef r)
{
    static const double c[] = { 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0 };
    LLVMValueRef p = like(E, r, cf(E, c[0]));
    for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = fma3(E, p, r, like(E, r, cf(E, c[i])));
    return p;
}

/* p · 2^n for an integral-valued float n in [-151, 129]: one llvm.ldexp where
 * the target has an instruction for it (intrinsics/cpu_math.c), else n is
 * split in two halves so that each power of two is a normal float — subnormal
 * results and overflow to inf then come out of the two (exact or final)
 * multiplications. */
static LLVMValueRef scale_pow2(Emit *E, LLVMValueRef p, LLVMValueRef n)
{
    LLVMTypeRef pt = LLVMTypeOf(p);
    unsigned lanes = LLVMGetTypeKind(pt) == LLVMVectorTypeKind ? LLVMGetVectorSize(pt) : 1;
    const char *scalef = lanes > 1 ? tk_cpu_scalef_vector(E->features, lanes) : NULL;
    if (scalef) {   /* vscalefps with n as it is: no round trip through integers */
        LLVMValueRef args[5] = { p, n, p, LLVMConstAllOnes(lanes == 16 ? E->i16 : E->i8), emit_const_i32(E, 4) };
        return emit_intrinsic(E, scalef, NULL, 0, args, lanes == 16 ? 5 : 4);   /* 4: the current rounding mode */
    }
    LLVMTypeRef it = int_like(E, n);
    LLVMValueRef ni = LLVMBuildFPToSI(E->b, n, it, "");
    if (tk_cpu_fast_ldexp(E->features)) {   /* one vscalefps instead of eight integer ops */
        LLVMTypeRef tys[2] = { LLVMTypeOf(p), it };
        LLVMValueRef args[2] = { p, ni };
        return emit_intrinsic(E, "llvm.ldexp", tys, 2, args, 2);
    }
    LLVMValueRef n1 = LLVMBuildAShr(E->b, ni, like(E, ni, emit_const_i32(E, 1)), "");
    LLVMValueRef n2 = LLVMBuildSub(E->b, ni, n1, "");
    LLVMValueRef bias = like(E, ni, emit_const_i32(E, 127)), sh = like(E, ni, emit_const_i32(E, 23));
    LLVMValueRef s1 = LLVMBuildBitCast(E->b, LLVMBuildShl(E->b, LLVMBuildAdd(E->b, n1, bias, ""), sh, ""), LLVMTypeOf(p), "");
    LLVMValueRef s2 = LLVMBuildBitCast(E->b, LLVMBuildShl(E->b, LLVMBuildAdd(E->b, n2, bias, ""), sh, ""), LLVMTypeOf(p), "");
    return LLVMBuildFMul(E->b, LLVMBuildFMul(E->b, p, s1, ""), s2, "");
}

static LLVMValueRef keep_nan(Emit *E, LLVMValueRef x, LLVMValueRef r)
{
    return LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealUNO, x, x, ""), x, r, "");
}

/* Lanes whose exact result rounds to +0 (x below `limit`, -inf included) are
 * computed from x = 0 and then replaced by 0: scaling them down to 0 would be
 * an underflow, which Intel cores handle in a microcode assist of ~100+ cycles
 * per instruction. Masked scores are -inf in every softmax and attention edge
 * tile, so this made a ragged softmax's one edge tile per row strip cost as
 * much as ten interior tiles (4096×992 f32: 3.7 ms, 4096×960: 2.2 ms). The
 * result is the same bits: below `limit` it was +0 already. */
static LLVMValueRef flush_zero_lanes(Emit *E, LLVMValueRef x, double limit, LLVMValueRef *xs)
{
    LLVMValueRef zero = LLVMBuildFCmp(E->b, LLVMRealOLT, x, like(E, x, cf(E, limit)), "");
    *xs = LLVMBuildSelect(E->b, zero, like(E, x, cf(E, 0.0)), x, "");
    return zero;
}

LLVMValueRef emit_exp_f32(Emit *E, LLVMValueRef x)
{
    /* e^x = 2^n · e^r, n = round(x / ln2), r = x − n·ln2 (ln2 in two parts so
     * that n·ln2_hi is exact). Clamped so that n stays in [-151, 129]: below
     * -104 the result rounds to 0 (flush_zero_lanes), above 89 to inf.
     * maxnum/minnum drop a NaN; keep_nan puts it back. */
    LLVMValueRef xs, zero = flush_zero_lanes(E, x, -104.0, &xs);
    /* xs is ≥ -104 already (or NaN): only the upper clamp is left, as a
     * compare-and-select that is one vminps (a NaN lane comes out as 89 and
     * keep_nan restores it) where llvm.minnum costs three instructions */
    LLVMValueRef hi = like(E, x, cf(E, 89.0));
    LLVMValueRef xc = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOLT, xs, hi, ""), xs, hi, "");
    LLVMValueRef n = call1(E, "llvm.roundeven", LLVMBuildFMul(E->b, xc, like(E, x, cf(E, 1.4426950408889634)), ""));
    LLVMValueRef r = fma3(E, n, like(E, x, cf(E, -0.693145751953125)), xc);
    r = fma3(E, n, like(E, x, cf(E, -1.4286068203094172e-06)), r);
    LLVMValueRef e = keep_nan(E, x, scale_pow2(E, exp_poly(E, r), n));
    return LLVMBuildSelect(E->b, zero, like(E, x, cf(E, 0.0)), e, "");
}

LLVMValueRef emit_exp2_f32(Emit *E, LLVMValueRef x)
{
    /* 2^x = 2^n · e^((x − n)·ln2); x − n is exact. Below -151 the result is
     * +0 (flush_zero_lanes). */
    LLVMValueRef xs, zero = flush_zero_lanes(E, x, -151.0, &xs);
    LLVMValueRef xc = call2(E, "llvm.minnum", call2(E, "llvm.maxnum", xs, like(E, x, cf(E, -151.0))), like(E, x, cf(E, 129.0)));
    LLVMValueRef n = call1(E, "llvm.roundeven", xc);
    LLVMValueRef r = LLVMBuildFMul(E->b, LLVMBuildFSub(E->b, xc, n, ""), like(E, x, cf(E, 0.6931471805599453)), "");
    LLVMValueRef e = keep_nan(E, x, scale_pow2(E, exp_poly(E, r), n));
    return LLVMBuildSelect(E->b, zero, like(E, x, cf(E, 0.0)), e, "");
}

LLVMValueRef emit_tanh_f32(Emit *E, LLVMValueRef x)
{
    /* |x| ≥ 0.5: 1 − 2/(e^{2|x|} + 1) with the sign of x (no cancellation:
     * the result is ≥ 0.46). |x| < 0.5: the odd Taylor series to x^15
     * (truncation below 1e-8 relative), which keeps tiny x exact. */
    static const double c[] = { -929569.0 / 638512875, 21844.0 / 6081075, -1382.0 / 155925, 62.0 / 2835, -17.0 / 315,
                                2.0 / 15, -1.0 / 3 };
    LLVMValueRef ax = call1(E, "llvm.fabs", x);
    LLVMValueRef e = emit_exp_f32(E, LLVMBuildFAdd(E->b, ax, ax, ""));
    LLVMValueRef one = like(E, x, cf(E, 1.0));
    LLVMValueRef big = LLVMBuildFSub(E->b, one, LLVMBuildFDiv(E->b, like(E, x, cf(E, 2.0)), LLVMBuildFAdd(E->b, e, one, ""), ""), "");
    LLVMValueRef x2 = LLVMBuildFMul(E->b, x, x, "");
    LLVMValueRef q = like(E, x, cf(E, c[0]));
    for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) q = fma3(E, q, x2, like(E, x, cf(E, c[i])));
    LLVMValueRef small = fma3(E, LLVMBuildFMul(E->b, x, x2, ""), q, x);
    LLVMValueRef is_small = LLVMBuildFCmp(E->b, LLVMRealOLT, ax, like(E, x, cf(E, 0.5)), "");
    /* tanh is odd: the sign of x, also for -0 (which the series makes +0) */
    return call2(E, "llvm.copysign", LLVMBuildSelect(E->b, is_small, small, big, ""), x);
}

LLVMValueRef emit_sigmoid_f32(Emit *E, LLVMValueRef x)
{
    /* e = e^{-|x|} ≤ 1 never overflows: 1/(1 + e) for x ≥ 0, e/(1 + e) for
     * x < 0 — so sigmoid(-88.8) is the subnormal it should be, not 1/inf. */
    LLVMValueRef one = like(E, x, cf(E, 1.0));
    LLVMValueRef e = emit_exp_f32(E, LLVMBuildFNeg(E->b, call1(E, "llvm.fabs", x), ""));
    LLVMValueRef pos = LLVMBuildFDiv(E->b, one, LLVMBuildFAdd(E->b, one, e, ""), "");
    LLVMValueRef neg = LLVMBuildFMul(E->b, e, pos, "");
    LLVMValueRef is_neg = LLVMBuildFCmp(E->b, LLVMRealOLT, x, like(E, x, cf(E, 0.0)), "");
    return LLVMBuildSelect(E->b, is_neg, neg, pos, "");
}

/* Horner's rule with FMAs: c[0]·x^(n-1) + ... + c[n-1]. */
static LLVMValueRef horner(Emit *E, const double *c, unsigned n, LLVMValueRef x)
{
    LLVMValueRef p = like(E, x, cf(E, c[0]));
    for (unsigned i = 1; i < n; i++) p = fma3(E, p, x, like(E, x, cf(E, c[i])));
    return p;
}

LLVMValueRef emit_log_f32(Emit *E, LLVMValueRef x)
{
    /* x = m·2^e with m in [√½, √2): log x = e·ln2 + log m. With f = m − 1
     * (exact) and s = f/(2 + f), log m = 2·atanh(s) = f − s·(f − R(s²)),
     * R = 2s²/3 + 2s⁴/5 + ...: the correction s·(..) is at most 0.17·f, so
     * its rounding hardly reaches the result. Subnormal x are scaled by 2^23
     * first. The exponent split: the bits of x minus those of √½, shifted. */
    static const double r[] = { 2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3, 0.0 };
    LLVMTypeRef it = int_like(E, x), ft = LLVMTypeOf(x);
    LLVMValueRef tiny = LLVMBuildFCmp(E->b, LLVMRealOLT, x, like(E, x, cf(E, 0x1p-126)), "");
    LLVMValueRef xs = LLVMBuildSelect(E->b, tiny, LLVMBuildFMul(E->b, x, like(E, x, cf(E, 0x1p23)), ""), x, "");
    LLVMValueRef bits = LLVMBuildBitCast(E->b, xs, it, "");
    LLVMValueRef ei = LLVMBuildAShr(E->b, LLVMBuildSub(E->b, bits, like(E, bits, emit_const_i32(E, 0x3f3504f3)), ""),
                                    like(E, bits, emit_const_i32(E, 23)), "");
    LLVMValueRef m = LLVMBuildBitCast(E->b, LLVMBuildSub(E->b, bits, LLVMBuildShl(E->b, ei, like(E, bits, emit_const_i32(E, 23)), ""), ""), ft, "");
    LLVMValueRef e = LLVMBuildSIToFP(E->b, ei, ft, "");
    e = LLVMBuildFSub(E->b, e, LLVMBuildSelect(E->b, tiny, like(E, x, cf(E, 23.0)), like(E, x, cf(E, 0.0)), ""), "");
    LLVMValueRef f = LLVMBuildFSub(E->b, m, like(E, x, cf(E, 1.0)), "");
    LLVMValueRef s = LLVMBuildFDiv(E->b, f, LLVMBuildFAdd(E->b, f, like(E, x, cf(E, 2.0)), ""), "");
    LLVMValueRef R = horner(E, r, sizeof r / sizeof r[0], LLVMBuildFMul(E->b, s, s, ""));
    LLVMValueRef logm = LLVMBuildFSub(E->b, f, LLVMBuildFMul(E->b, s, LLVMBuildFSub(E->b, f, R, ""), ""), "");
    /* e·ln2 with ln2 in two parts: e·ln2_hi is exact (|e| < 2^8, ln2_hi has 16 bits) */
    LLVMValueRef lo = fma3(E, e, like(E, x, cf(E, 1.4286068203094172e-06)), logm);
    LLVMValueRef v = fma3(E, e, like(E, x, cf(E, 0.693145751953125)), lo);
    /* specials: log(+inf) = inf, log(±0) = -inf, log(x < 0) = NaN, NaN stays */
    v = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOEQ, x, like(E, x, cf(E, INFINITY)), ""), x, v, "");
    v = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOEQ, x, like(E, x, cf(E, 0.0)), ""), like(E, x, cf(E, -INFINITY)), v, "");
    v = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOLT, x, like(E, x, cf(E, 0.0)), ""), like(E, x, cf(E, NAN)), v, "");
    return keep_nan(E, x, v);
}

/* Coefficients from scripts/fit_erf.py (Chebyshev interpolants; it prints
 * them with their fit error). erf(x)/x in s = x² for |x| < 1: 1.3e-9. */
static const double erf_small[] = {
    7.8758750626854883e-5, -0.00080168642871658695, 0.005189087423433974, -0.026854212010626412,
    0.11283594715160218,   -0.37612626666720331,    1.1283791658483509,
};
/* z·erfc(z)·e^(z²) in w = 2.1978·(1/z) − 1.1978 ∈ [-1, 1] for z in [1, 11.1]: 2.1e-9;
 * and in w = 2·(1/z) − 3 for z in [0.5, 1]: 3.9e-9. */
static const double erfc_tail[] = {
    -1.2188861443614316e-5, 2.260367679255343e-5,    1.4646521335080053e-5,  -8.298244667325052e-5,
    0.00016334635175168775, -0.00025688377042560579, 0.00012444218254884252, 0.00096407724700105912,
    -0.0042113301454171783, 0.0094490078425069098,   -0.0045242899588126323, -0.077269950755227862,
    0.50320307740536003,
};
static const double erfc_near[] = {
    -1.7577091837037774e-6, 7.4175829666180608e-6, -2.3222019405571778e-5, 6.3883110182610579e-5, -7.2824396686298025e-5,
    -0.00074148076581698519, 0.0082892398604498784, -0.059199023387721271, 0.35952293862040013,
};

/* erf(x)/x − 1 for |x| < 1 (x² given): erf(x) = x + x·(this), so the
 * rounding of 2/√π = 1.128.. does not reach the result. */
static LLVMValueRef erf_small_ratio_m1(Emit *E, LLVMValueRef x2)
{
    double c[sizeof erf_small / sizeof erf_small[0]];
    memcpy(c, erf_small, sizeof c);
    c[sizeof c / sizeof c[0] - 1] -= 1.0;
    return horner(E, c, sizeof c / sizeof c[0], x2);
}

/* erfc(z) for z ≥ 1 (with `near`: z ≥ 0.5), given z² as z2 + z2lo (the
 * product's rounding error, so that e^(−z²) keeps its relative accuracy for
 * large z: a 0.5-ulp error in z² = 80 would be 5e-6 relative in the result).
 * erfc(z) = e^(−z²)·R(1/z)/z: R is smooth and changes slowly, so z's own
 * rounding hardly matters; all of erfc's steepness is in e^(−z²). With
 * `scale_t` (s/z, exactly, from the caller) the result is s·erfc(z): the
 * caller's factor replaces 1/z, whose rounding then never reaches it, and is
 * multiplied in before e^(−z²), so a result near the underflow is rounded
 * once, not first as a subnormal erfc (7 ulp of gelu_erf at x = −13.1). */
static LLVMValueRef erfc_tail_of(Emit *E, LLVMValueRef z, LLVMValueRef z2, LLVMValueRef z2lo, bool near, LLVMValueRef scale_t)
{
    LLVMValueRef zc = call2(E, "llvm.minnum", z, like(E, z, cf(E, 11.0)));
    LLVMValueRef t = LLVMBuildFDiv(E->b, like(E, z, cf(E, 1.0)), zc, "");
    LLVMValueRef w = fma3(E, t, like(E, z, cf(E, 2.1978021978021978)), like(E, z, cf(E, -1.1978021978021978)));
    LLVMValueRef g = horner(E, erfc_tail, sizeof erfc_tail / sizeof erfc_tail[0], w);
    if (near) {
        LLVMValueRef wn = fma3(E, t, like(E, z, cf(E, 2.0)), like(E, z, cf(E, -3.0)));
        LLVMValueRef gn = horner(E, erfc_near, sizeof erfc_near / sizeof erfc_near[0], wn);
        g = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOGT, t, like(E, z, cf(E, 1.0)), ""), gn, g, "");
    }
    LLVMValueRef e = emit_exp_f32(E, LLVMBuildFNeg(E->b, z2, ""));
    e = LLVMBuildFMul(E->b, e, LLVMBuildFSub(E->b, like(E, z, cf(E, 1.0)), z2lo, ""), "");
    return LLVMBuildFMul(E->b, LLVMBuildFMul(E->b, g, scale_t ? scale_t : t, ""), e, "");
}

LLVMValueRef emit_erf_f32(Emit *E, LLVMValueRef x)
{
    /* |x| < 1: x·P(x²); beyond, 1 − erfc(|x|) with the sign of x (erfc ≤ 0.16
     * there, so its error shrinks six-fold in the result). */
    LLVMValueRef ax = call1(E, "llvm.fabs", x);
    LLVMValueRef small = fma3(E, ax, erf_small_ratio_m1(E, LLVMBuildFMul(E->b, ax, ax, "")), ax);
    /* beyond 11 erfc is 0 in f32; the clamp keeps x² and its error finite */
    LLVMValueRef ac = call2(E, "llvm.minnum", ax, like(E, x, cf(E, 11.0)));
    LLVMValueRef x2 = LLVMBuildFMul(E->b, ac, ac, "");
    LLVMValueRef x2lo = fma3(E, ac, ac, LLVMBuildFNeg(E->b, x2, ""));
    LLVMValueRef big = LLVMBuildFSub(E->b, like(E, x, cf(E, 1.0)), erfc_tail_of(E, ac, x2, x2lo, false, NULL), "");
    LLVMValueRef is_small = LLVMBuildFCmp(E->b, LLVMRealOLT, ax, like(E, x, cf(E, 1.0)), "");
    return keep_nan(E, x, call2(E, "llvm.copysign", LLVMBuildSelect(E->b, is_small, small, big, ""), x));
}

LLVMValueRef emit_gelu_erf_f32(Emit *E, LLVMValueRef x)
{
    /* x/2·(1 + erf(z)), z = x/√2. For z in (−0.5, 1) as written (1 + erf(z)
     * ≥ 0.48). Beyond: x − x/2·erfc(z) for z ≥ 1, and x/2·erfc(|z|) for
     * z ≤ −0.5, which keeps its relative accuracy down to the underflow
     * (1 + erf(z) would cancel: 11 ulp at x = −1.33 when written so). z² =
     * x²/2 is split exactly as x·x + its error. */
    LLVMValueRef hx = LLVMBuildFMul(E->b, x, like(E, x, cf(E, 0.5)), "");
    LLVMValueRef z = LLVMBuildFMul(E->b, x, like(E, x, cf(E, 0.70710678118654752)), "");
    LLVMValueRef az = call1(E, "llvm.fabs", z);
    /* beyond |x| = 16 erfc(|z|) is 0 in f32; the clamp keeps x² and its error finite */
    LLVMValueRef xc = call2(E, "llvm.minnum", call2(E, "llvm.maxnum", x, like(E, x, cf(E, -16.0))), like(E, x, cf(E, 16.0)));
    LLVMValueRef xx = LLVMBuildFMul(E->b, xc, xc, "");
    LLVMValueRef z2 = LLVMBuildFMul(E->b, xx, like(E, x, cf(E, 0.5)), "");
    LLVMValueRef z2lo = LLVMBuildFMul(E->b, fma3(E, xc, xc, LLVMBuildFNeg(E->b, xx, "")), like(E, x, cf(E, 0.5)), "");
    LLVMValueRef one = like(E, x, cf(E, 1.0));
    LLVMValueRef erf_z = fma3(E, z, erf_small_ratio_m1(E, LLVMBuildFMul(E->b, z, z, "")), z);
    LLVMValueRef small = LLVMBuildFMul(E->b, hx, LLVMBuildFAdd(E->b, one, erf_z, ""), "");
    /* (x/2)·erfc(|z|) = ±(1/√2)·R(1/|z|)·e^(−z²): x/2 over |z| is ±1/√2 exactly */
    LLVMValueRef s = call2(E, "llvm.copysign", like(E, x, cf(E, 0.70710678118654752)), x);
    LLVMValueRef tail = erfc_tail_of(E, call2(E, "llvm.maxnum", az, like(E, x, cf(E, 0.5))), z2, z2lo, true, s);
    LLVMValueRef pos = LLVMBuildFSub(E->b, x, tail, "");
    LLVMValueRef use_small = LLVMBuildAnd(E->b, LLVMBuildFCmp(E->b, LLVMRealOGT, z, like(E, x, cf(E, -0.5)), ""),
                                          LLVMBuildFCmp(E->b, LLVMRealOLT, z, one, ""), "");
    LLVMValueRef big = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOGT, x, like(E, x, cf(E, 0.0)), ""), pos, tail, "");
    LLVMValueRef v = LLVMBuildSelect(E->b, use_small, small, big, "");
    /* the limits at ±inf (inf·0 would make NaN): inf and -0 */
    LLVMValueRef inf = like(E, x, cf(E, INFINITY));
    v = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOEQ, x, inf, ""), inf, v, "");
    v = LLVMBuildSelect(E->b, LLVMBuildFCmp(E->b, LLVMRealOEQ, x, LLVMBuildFNeg(E->b, inf, ""), ""), like(E, x, cf(E, -0.0)), v, "");
    return keep_nan(E, x, v);
}
