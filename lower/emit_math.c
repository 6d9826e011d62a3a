/* emit_math.c — exp, exp2 and tanh of f32 as straight-line LLVM IR.
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
 * tanh within 2 ulp. NaN in, NaN out; exp(-inf) = 0, exp(inf) = inf,
 * tanh(±inf) = ±1. */
#include "emit_math.h"

static LLVMValueRef cf(Emit *E, double v) { return LLVMConstReal(E->f32, v); }

/* A constant of x's type (scalar or vector). */
static LLVMValueRef like(Emit *E, LLVMValueRef x, LLVMValueRef scalar)
{
    (void)E;
    LLVMTypeRef t = LLVMTypeOf(x);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return scalar;
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef elems[64];
    for (unsigned i = 0; i < n && i < 64; i++) elems[i] = scalar;
    return LLVMConstVector(elems, n);
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

/* p · 2^n for an integral-valued float n in [-151, 129]: n is split in two
 * halves so that each power of two is a normal float — subnormal results and
 * overflow to inf then come out of the two (exact or final) multiplications. */
static LLVMValueRef scale_pow2(Emit *E, LLVMValueRef p, LLVMValueRef n)
{
    LLVMTypeRef it = int_like(E, n);
    LLVMValueRef ni = LLVMBuildFPToSI(E->b, n, it, "");
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

LLVMValueRef emit_exp_f32(Emit *E, LLVMValueRef x)
{
    /* e^x = 2^n · e^r, n = round(x / ln2), r = x − n·ln2 (ln2 in two parts so
     * that n·ln2_hi is exact). Clamped so that n stays in [-151, 129]: below
     * -104 the result rounds to 0, above 89 to inf. maxnum/minnum drop a NaN;
     * keep_nan puts it back. */
    LLVMValueRef xc = call2(E, "llvm.minnum", call2(E, "llvm.maxnum", x, like(E, x, cf(E, -104.0))), like(E, x, cf(E, 89.0)));
    LLVMValueRef n = call1(E, "llvm.roundeven", LLVMBuildFMul(E->b, xc, like(E, x, cf(E, 1.4426950408889634)), ""));
    LLVMValueRef r = fma3(E, n, like(E, x, cf(E, -0.693145751953125)), xc);
    r = fma3(E, n, like(E, x, cf(E, -1.4286068203094172e-06)), r);
    return keep_nan(E, x, scale_pow2(E, exp_poly(E, r), n));
}

LLVMValueRef emit_exp2_f32(Emit *E, LLVMValueRef x)
{
    /* 2^x = 2^n · e^((x − n)·ln2); x − n is exact */
    LLVMValueRef xc = call2(E, "llvm.minnum", call2(E, "llvm.maxnum", x, like(E, x, cf(E, -151.0))), like(E, x, cf(E, 129.0)));
    LLVMValueRef n = call1(E, "llvm.roundeven", xc);
    LLVMValueRef r = LLVMBuildFMul(E->b, LLVMBuildFSub(E->b, xc, n, ""), like(E, x, cf(E, 0.6931471805599453)), "");
    return keep_nan(E, x, scale_pow2(E, exp_poly(E, r), n));
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
