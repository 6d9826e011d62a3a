/* test_elementwise.c — zeros/ones/fill (§6.1), the fourteen unary maps (§6.5)
 * and the six binary maps with the operators + - * / and unary - (§6.6), on
 * f32, bf16 and f16: rt in row and col layout, rv, and float scalars;
 * tile⊕tile, tile⊕scalar, scalar⊕tile, untyped constants, op= on tiles.
 *
 * Tolerances (the interpreter computes in double; f32 results are not rounded
 * there, bf16/f16 results are rounded exactly as the kernels round: the op in
 * f32, then RNE to the 16-bit type):
 *  - fill, neg, abs, relu, add, sub, mul, div, max, min, sqrt: IEEE operations
 *    correctly rounded in f32 (for div and sqrt the interpreter's double
 *    result rounded to f32 is the correctly rounded f32 result: double
 *    rounding is innocuous from binary64 to binary32). So f32 outputs equal the
 *    reference rounded to f32 and bf16/f16 outputs equal the reference: EXACT.
 *  - rsqrt = 1/sqrt(x): two roundings, at most 1.5 ulp: 2 f32 ulps; a 16-bit
 *    result may then land on the other side of a rounding boundary: 1 ulp.
 *  - exp, exp2, log, tanh, erf: polynomials (lower/cpu/emit_math.c), within 2 ulps
 *    over the whole f32 range (tests/math measures it): 2 f32 ulps; 16-bit
 *    outputs 1 ulp (the f32 result may straddle a rounding boundary of the
 *    narrower type).
 *  - gelu_erf: within 5 ulps of the result (tests/math; it never cancels):
 *    5 f32 ulps; 16-bit outputs 1 ulp.
 *  - sigmoid 1/(1+e), silu x/(1+e) with e = expf(-x) (-x is exact): expf is
 *    within 1 ulp, the sum 1+e passes that relative error on damped by
 *    e/(1+e) ≤ 1 and adds a rounding, the division another: ≤ 3 ulps; checked
 *    with 6 f32 ulps (2× margin); 16-bit outputs 1 ulp.
 *  - gelu: 1 + tanh(z) cancels for negative x, so the error is absolute: the
 *    f32 errors of z (≈ 4 ulps of |z|, damped by sech²) and of tanhf (2 ulps of
 *    1) and the sum (1 ulp of 2) are ≤ 8·2^-24 in (1 + tanh), times |x|/2 ≤ 4
 *    for |x| ≤ 8: atol 2e-6 plus 4 ulps relative; 16-bit outputs 1 ulp or
 *    that atol.
 *  - float scalar maps: the interpreter keeps f32 scalars in double, the JIT
 *    in f32 — the same bounds as the tile forms above apply to one op.
 * Special values (±0, ±inf, NaN, huge, tiny, subnormal) follow the C library
 * (§6.5) and are checked separately with the same tolerances; f32 outputs get
 * an atol of the smallest normal f32 (f32 underflow vs the interpreter's
 * double result), 16-bit outputs none (both round through f32, so their
 * subnormals must agree); the sign of zero is checked where the language
 * fixes it (neg, abs, relu, sqrt); NaN is accepted where the language leaves
 * the result open: relu, max, min with NaN, and silu/gelu at ±inf (0·inf in
 * the formula; gelu_erf fixes its limits, inf and -0). The unary and binary groups run again for x86-64-avx2 with
 * bf16 only (bf16 rounding without AVX512-BF16). */
#include <math.h>

#include "numeric.h"

static const char *const TYPES[] = { "f32", "bf16", "f16" };
static const TkTypeKind KINDS[] = { TK_TY_F32, TK_TY_BF16, TK_TY_F16 };

static const char *const UNARY[] = { "neg",     "abs",  "exp",  "exp2", "log", "sqrt", "rsqrt",
                                     "tanh",    "sigmoid", "relu", "gelu", "silu", "erf", "gelu_erf" };
#define NUNARY 14
static const char *const BINARY[] = { "add", "sub", "mul", "div", "max", "min" };
#define NBINARY 6

static NumProg fills, unary, binary;

/* The unary and binary groups run for the host with every element type, and
 * again for x86-64-avx2 with bf16 only: without AVX512-BF16 the rounding to
 * bf16 is done in integer ops (emit_fptrunc), not by vcvtneps2bf16. */
static unsigned t_lo = 0, t_hi = 3;
static const char *target;

/* ---------------------------------------------------------------- programs */

static void build_fills(void)
{
    NumStr s = { 0 };
    for (unsigned t = 0; t < 3; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel fills_%s(gl<%s, M, N> Z, gl<%s, M, N> O, gl<%s, M, N> F, gl<%s, M, N> G, gl<%s, M, N> H,\n"
                  "                gl<%s, M, N> SZ, gl<%s, M, N> SF, gl<%s, N> VZ, gl<%s, N> VO, gl<%s, N> VF, gl<%s, N> SV,\n"
                  "                %s s, bf16 b)\n"
                  "    grid(cdiv(N, 32), cdiv(M, 32)) warps(2) {\n"
                  "    st<%s, 32, 32> S0 = zeros();\n"
                  "    st<%s, 32, 32> S1 = fill(s);\n"
                  "    sv<%s, 32> S2;\n"
                  "    S2 = ones();\n"
                  "    sync();\n"
                  "    store(SZ, S0, block.y, block.x);\n"
                  "    store(SF, S1, block.y, block.x);\n"
                  "    if (block.y == 0) { store(SV, S2, block.x); }\n"
                  "    rt<%s, 16, 32> z = zeros();\n"
                  "    rt<%s, 16, 32, col> o = ones();\n"
                  "    rt<%s, 16, 32> f = fill(s);\n"
                  "    rt<%s, 16, 32, col> g = fill(-inf);\n"
                  "    rt<%s, 16, 32> h = fill(0.1);\n"
                  "    let r = 2 * block.y + warp.id;\n"
                  "    store(Z, z, r, block.x);\n"
                  "    store(O, o, r, block.x);\n"
                  "    store(F, f, r, block.x);\n"
                  "    store(G, g, r, block.x);\n"
                  "    store(H, h, r, block.x);\n"
                  "    if (block.y == 0 && warp.id == 0) {\n"
                  "        store(VZ, zeros<rv<%s, 32>>(), block.x);\n"
                  "        store(VO, ones<rv<%s, 32>>(), block.x);\n"
                  "        rv<%s, 32> vf = fill(s);\n"
                  "        store(VF, vf, block.x);\n"
                  "    }\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T);
    }
    /* widening fill values: a bf16 or f16 scalar into an f32 tile */
    ns_printf(&s,
              "kernel fill_widen(gl<f32, N> A, gl<f32, N> B, gl<f32, N> C, bf16 b, f16 h) grid(cdiv(N, 16)) {\n"
              "    rv<f32, 16> x = fill(b);\n"
              "    rv<f32, 16> y = fill(h);\n"
              "    rt<f32, 16, 16> z = fill(b);\n"
              "    store(A, x, block.x);\n"
              "    store(B, y, block.x);\n"
              "    store(C, row_sum(z), block.x);\n"
              "}\n");
    num_build(&fills, "fills", s.s);
    ns_free(&s);
}

static void build_unary(void)
{
    NumStr s = { 0 };
    for (unsigned t = t_lo; t < t_hi; t++)
        for (unsigned u = 0; u < NUNARY; u++) {
            const char *T = TYPES[t], *F = UNARY[u];
            /* row layout 32×16, rv<48>, and the scalar form; col layout 16×48 for some
             * (a map is one flat loop whatever the layout: the col form checks that the
             * layout survives it, which needs no more than a few maps) */
            bool col = !strcmp(F, "exp") || !strcmp(F, "gelu") || !strcmp(F, "abs") || !strcmp(F, "gelu_erf");
            ns_printf(&s,
                      "kernel un_%s_%s(gl<%s, M, N> X, gl<%s, M, N> Y, gl<%s, M, N> Z, gl<%s, N> V, gl<%s, N> W,\n"
                      "               gl<%s, 16> Q, %s s)\n"
                      "    grid(cdiv(N, 48), cdiv(M, 32)) {\n"
                      "    for (h in 0 .. 3) {\n"
                      "        rt<%s, 32, 16> a = load(X, block.y, 3 * block.x + h);\n"
                      "        store(Y, %s(a), block.y, 3 * block.x + h);\n"
                      "    }\n",
                      F, T, T, T, T, T, T, T, T, T, F);
            if (col)
                ns_printf(&s,
                          "    for (h in 0 .. 2) {\n"
                          "        rt<%s, 16, 48, col> c = load(X, 2 * block.y + h, block.x);\n"
                          "        store(Z, %s(c), 2 * block.y + h, block.x);\n"
                          "    }\n",
                          T, F);
            ns_printf(&s,
                      "    if (block.y == 0) {\n"
                      "        rv<%s, 48> v = load(V, block.x);\n"
                      "        store(W, %s(v), block.x);\n"
                      "    }\n"
                      "    if (block.x == 0 && block.y == 0) {\n"
                      "        %s r = %s(s);\n"
                      "        rv<%s, 16> q = fill(r);\n"
                      "        store(Q, q, 0);\n"
                      "    }\n"
                      "}\n",
                      T, F, T, F, T);
        }
    /* unary minus on tiles is neg */
    for (unsigned t = t_lo; t < t_hi; t++)
        ns_printf(&s,
                  "kernel un_minus_%s(gl<%s, M, N> X, gl<%s, M, N> Y, gl<%s, N> V, gl<%s, N> W) grid(cdiv(N, 16), cdiv(M, 16)) {\n"
                  "    rt<%s, 16, 16, col> a = load(X, block.y, block.x);\n"
                  "    store(Y, -a, block.y, block.x);\n"
                  "    if (block.y == 0) { rv<%s, 16> v = load(V, block.x); store(W, -v, block.x); }\n"
                  "}\n",
                  TYPES[t], TYPES[t], TYPES[t], TYPES[t], TYPES[t], TYPES[t], TYPES[t]);
    num_build_target(&unary, target ? "unary_bf16_avx2" : "unary", s.s, target);
    ns_free(&s);
}

static void build_binary(void)
{
    NumStr s = { 0 };
    for (unsigned t = t_lo; t < t_hi; t++)
        for (unsigned b = 0; b < NBINARY; b++) {
            const char *T = TYPES[t], *F = BINARY[b];
            /* tile⊕tile (row and col), tile⊕scalar, scalar⊕tile, tile⊕constant,
             * vector⊕vector, vector⊕scalar, scalar⊕scalar */
            ns_printf(&s,
                      "kernel bin_%s_%s(gl<%s, M, N> X, gl<%s, M, N> X2, gl<%s, M, N> TT, gl<%s, M, N> TC,\n"
                      "                gl<%s, M, N> TS, gl<%s, M, N> ST, gl<%s, M, N> TK,\n"
                      "                gl<%s, N> V, gl<%s, N> V2, gl<%s, N> VV, gl<%s, N> VS, gl<%s, 16> Q, %s s, %s s2)\n"
                      "    grid(cdiv(N, 32), cdiv(M, 16)) {\n"
                      "    rt<%s, 16, 32> a = load(X, block.y, block.x);\n"
                      "    rt<%s, 16, 32> b = load(X2, block.y, block.x);\n"
                      "    rt<%s, 16, 32, col> ac = load(X, block.y, block.x);\n"
                      "    rt<%s, 16, 32, col> bc = load(X2, block.y, block.x);\n"
                      "    store(TT, %s(a, b), block.y, block.x);\n"
                      "    store(TC, %s(ac, bc), block.y, block.x);\n"
                      "    store(TS, %s(a, s), block.y, block.x);\n"
                      "    store(ST, %s(s, bc), block.y, block.x);\n"
                      "    store(TK, %s(a, 0.375), block.y, block.x);\n"
                      "    if (block.y == 0) {\n"
                      "        rv<%s, 32> v = load(V, block.x);\n"
                      "        rv<%s, 32> w = load(V2, block.x);\n"
                      "        store(VV, %s(v, w), block.x);\n"
                      "        store(VS, %s(2.5, %s(v, s)), block.x);\n"
                      "    }\n"
                      "    if (block.x == 0 && block.y == 0) {\n"
                      "        %s r = %s(s, s2);\n"
                      "        rv<%s, 16> q = fill(r);\n"
                      "        store(Q, q, 0);\n"
                      "    }\n"
                      "}\n",
                      F, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, F, F, F, F, F, T, T, F, F, F, T, F, T);
        }
    /* the operators and op= on tiles and vectors */
    for (unsigned t = t_lo; t < t_hi; t++) {
        const char *T = TYPES[t];
        ns_printf(&s,
                  "kernel ops_%s(gl<%s, M, N> X, gl<%s, M, N> X2, gl<%s, M, N> A, gl<%s, M, N> B, gl<%s, M, N> C,\n"
                  "              gl<%s, N> V, gl<%s, N> W, %s s)\n"
                  "    grid(cdiv(N, 16), cdiv(M, 16)) {\n"
                  "    rt<%s, 16, 16> a = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 16> b = load(X2, block.y, block.x);\n"
                  "    store(A, a + b * s - a / 4.0, block.y, block.x);\n"
                  "    store(B, 2.0 * -a + (b - s) / (a * a + 1.0), block.y, block.x);\n"
                  "    rt<%s, 16, 16, col> c = load(X, block.y, block.x);\n"
                  "    rt<%s, 16, 16, col> d = load(X2, block.y, block.x);\n"
                  "    c += d;\n"
                  "    c *= s;\n"
                  "    c -= 0.5;\n"
                  "    c /= d;\n"
                  "    store(C, c, block.y, block.x);\n"
                  "    if (block.y == 0) {\n"
                  "        rv<%s, 16> v = load(V, block.x);\n"
                  "        v *= v;\n"
                  "        v += s;\n"
                  "        store(W, 1.0 - v / 3.0, block.x);\n"
                  "    }\n"
                  "}\n",
                  T, T, T, T, T, T, T, T, T, T, T, T, T, T);
    }
    num_build_target(&binary, target ? "binary_bf16_avx2" : "binary", s.s, target);
    ns_free(&s);
}

static void host_all_types(void) { t_lo = 0, t_hi = 3, target = NULL; }
static void avx2_bf16_only(void) { t_lo = 1, t_hi = 2, target = "x86-64-avx2"; }
static void teardown_fills(void) { num_free(&fills); }
static void teardown_unary(void) { num_free(&unary); }
static void teardown_binary(void) { num_free(&binary); }

/* ---------------------------------------------------------------- inputs */

typedef struct {
    double lo, hi;
    bool specials;   /* mix in ±0, ±inf, NaN, huge, tiny, subnormal */
} Range;

static double gen_range(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx)
{
    (void)p;
    const Range *r = ctx;
    (void)idx;
    (void)elem;
    if (r->specials) return tv_special(rng, r->lo, r->hi);
    return num_uniform(rng, r->lo, r->hi);
}

/* Domain of each unary map for the random inputs. */
static Range unary_range(const char *f)
{
    if (!strcmp(f, "log") || !strcmp(f, "sqrt") || !strcmp(f, "rsqrt")) return (Range){ 1e-3, 8, false };
    if (!strcmp(f, "exp") || !strcmp(f, "exp2")) return (Range){ -10, 10, false };
    return (Range){ -8, 8, false };
}

/* Tolerance of unary map f for an output of kind k (see the top of the file). */
static NumTol unary_tol(const char *f, TkTypeKind k)
{
    bool wide = k == TK_TY_F32;
    if (!strcmp(f, "neg") || !strcmp(f, "abs") || !strcmp(f, "relu") || !strcmp(f, "sqrt")) return TOL_EXACT;
    if (!strcmp(f, "rsqrt") || !strcmp(f, "exp") || !strcmp(f, "exp2") || !strcmp(f, "log") || !strcmp(f, "tanh") ||
        !strcmp(f, "erf"))
        return (NumTol){ .ulps = wide ? 2 : 1 };
    if (!strcmp(f, "gelu_erf")) return (NumTol){ .ulps = wide ? 5 : 1 };
    if (!strcmp(f, "sigmoid") || !strcmp(f, "silu")) return (NumTol){ .ulps = wide ? 6 : 1 };
    /* gelu */
    return (NumTol){ .rtol = wide ? 4 * 0x1p-24 : 0, .atol = 2e-6, .ulps = 1 };
}

/* ---------------------------------------------------------------- tests */

START_TEST(fill_zeros_ones_every_type)
{
    static const char *const sizes[] = { "M=1,N=1", "M=33,N=70", "M=64,N=32" };
    static const char *const sets[] = { "s=0.3,b=1", "s=-2.75,b=1", "s=-0", "s=65504", "s=1e-3" };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned k = 0; k < 3; k++)
            for (unsigned v = 0; v < 5; v++) {
                char name[32];
                snprintf(name, sizeof name, "fills_%s", TYPES[t]);
                NumSpec spec = { .sizes = sizes[k], .sets = sets[v], .tol = TOL_EXACT };
                NumRun r;
                num_run(&fills, name, &spec, &r);
                num_run_free(&r);
            }
    /* bf16 0.1 and f16 0.1 widen exactly into f32; row_sum of 16 equal values is exact-ish:
     * 16·x is exact in binary for any x (a power of two multiple) */
    static const char *const wsets[] = { "b=0.1,h=0.1", "b=-3.5e38,h=-65504", "b=1e-20,h=6e-8" };
    for (unsigned v = 0; v < 3; v++) {
        NumSpec spec = { .sizes = "N=40", .sets = wsets[v], .tol = TOL_EXACT };
        NumRun r;
        num_run(&fills, "fill_widen", &spec, &r);
        num_run_free(&r);
    }
}
END_TEST

static void unary_case(unsigned t, unsigned u, const char *sizes, const Range *range, double scalar, NumTol tol)
{
    char name[64], sets[64];
    snprintf(name, sizeof name, "un_%s_%s", UNARY[u], TYPES[t]);
    snprintf(sets, sizeof sets, "s=%.17g", scalar);
    NumSpec spec = { .sizes = sizes, .sets = sets, .gen = gen_range, .gen_ctx = (void *)range, .tol = tol };
    NumRun r;
    num_run(&unary, name, &spec, &r);
    num_run_free(&r);
}

START_TEST(unary_maps_random)
{
    if (unary.unavailable) return;   /* the target cannot run here */
    int u = _i;
    for (unsigned t = t_lo; t < t_hi; t++) {
        Range range = unary_range(UNARY[u]);
        NumTol tol = unary_tol(UNARY[u], KINDS[t]);
        unary_case(t, (unsigned)u, "M=40,N=100", &range, range.lo + 0.37 * (range.hi - range.lo), tol);
        unary_case(t, (unsigned)u, "M=1,N=17", &range, range.hi * 0.9, tol);
    }
}
END_TEST

START_TEST(unary_maps_special_values)
{
    if (unary.unavailable) return;   /* the target cannot run here */
    int u = _i;
    const char *f = UNARY[u];
    static const double scalars[] = { 0.0, -0.0, INFINITY, -INFINITY, 1e30, -100.0, 1e-40 };
    for (unsigned t = t_lo; t < t_hi; t++) {
        Range range = { -4, 4, true };
        NumTol tol = unary_tol(f, KINDS[t]);
        if (tol.rtol == 0 && tol.atol == 0) tol.rtol = tol.ulps ? 0x1p-24 * tol.ulps : 0x1p-25;   /* keep the ulp bound, as relative */
        /* f32 underflow: the interpreter's double result may be a tiny nonzero (for 16-bit
         * outputs the interpreter rounds through f32 like the kernel: no such slack, so that
         * bf16/f16 subnormal results are checked too) */
        if (t == 0 && tol.atol < 1.2e-38) tol.atol = 1.2e-38;
        tol.nan_ok = !strcmp(f, "relu") || !strcmp(f, "silu") || !strcmp(f, "gelu");
        /* neg flips the sign of 0, abs clears it, relu(-0) = +0, sqrt(-0) = -0 (IEEE, as C) */
        tol.zero_sign = !strcmp(f, "neg") || !strcmp(f, "abs") || !strcmp(f, "relu") || !strcmp(f, "sqrt");
        for (unsigned k = 0; k < sizeof scalars / sizeof scalars[0]; k++) unary_case(t, (unsigned)u, "M=32,N=48", &range, scalars[k], tol);
    }
}
END_TEST

START_TEST(unary_minus_is_neg)
{
    if (unary.unavailable) return;   /* the target cannot run here */
    for (unsigned t = t_lo; t < t_hi; t++) {
        char name[32];
        snprintf(name, sizeof name, "un_minus_%s", TYPES[t]);
        Range range = { -3, 3, true };
        NumSpec spec = { .sizes = "M=20,N=35", .gen = gen_range, .gen_ctx = &range, .tol = TOL_EXACT };
        NumRun r;
        num_run(&unary, name, &spec, &r);
        num_run_free(&r);
    }
}
END_TEST

START_TEST(binary_maps_all_forms)
{
    if (binary.unavailable) return;   /* the target cannot run here */
    int b = _i;
    static const char *const sizes[] = { "M=16,N=32", "M=37,N=71", "M=1,N=1" };
    static const char *const sets[] = { "s=0.75,s2=-1.25", "s=-3,s2=0.1", "s=0,s2=-0" };
    for (unsigned t = t_lo; t < t_hi; t++)
        for (unsigned k = 0; k < 3; k++) {
            char name[32];
            snprintf(name, sizeof name, "bin_%s_%s", BINARY[b], TYPES[t]);
            Range range = { -2, 2, false };
            /* EXACT: one correctly rounded IEEE op (see the top of the file); the scalar⊕scalar
             * output Q of f32, which the interpreter keeps in double, is also one rounding, so
             * exact after rounding the reference to f32. VS = F(2.5, F(v, s)) is two ops: for
             * bf16/f16 the interpreter rounds the inner result like the JIT (EXACT), for f32 it
             * does not: the inner f32 rounding (2^-24 of |F(v, s)| ≤ 5 for |v| < 2, |s| ≤ 3)
             * passes through the outer op, which for add/sub may cancel: atol 5·2^-24 ≈ 3e-7
             * (5e-7 used) plus 2 ulps relative (2^-22) for mul/div. */
            NumSpec spec = { .sizes = sizes[k], .sets = sets[k], .gen = gen_range, .gen_ctx = &range, .tol = TOL_EXACT };
            if (t == 0) spec.per[0] = (NumTolFor){ "VS", (NumTol){ .rtol = 0x1p-22, .atol = 5e-7 } };
            NumRun r;
            num_run(&binary, name, &spec, &r);
            num_run_free(&r);
        }
}
END_TEST

START_TEST(binary_maps_special_values)
{
    if (binary.unavailable) return;   /* the target cannot run here */
    int b = _i;
    for (unsigned t = t_lo; t < t_hi; t++) {
        char name[32];
        snprintf(name, sizeof name, "bin_%s_%s", BINARY[b], TYPES[t]);
        Range range = { -2, 2, true };
        /* NaN operands of max/min give an unspecified one of NaN and the other (§6.6) */
        bool nan_open = b >= 4;
        NumSpec spec = { .sizes = "M=48,N=64", .sets = "s=inf,s2=-inf", .gen = gen_range, .gen_ctx = &range,
                         .tol = (NumTol){ .nan_ok = nan_open } };
        /* VS for f32 (two ops, see above): the inner result overflows/underflows in f32
         * (1e30·inf, x/1e-40) where the interpreter's double does not: the f32 underflow
         * threshold as atol, NaN where the f32 intermediate is inf·0 */
        if (t == 0) spec.per[0] = (NumTolFor){ "VS", (NumTol){ .rtol = 0x1p-22, .atol = 1.2e-38, .nan_ok = true } };
        NumRun r;
        num_run(&binary, name, &spec, &r);
        num_run_free(&r);
        NumSpec spec2 = spec;
        spec2.sets = "s=1e-40,s2=nan";
        spec2.tol.nan_ok = true;   /* s2 = NaN only enters Q */
        spec2.per[1] = (NumTolFor){ "TT", (NumTol){ .nan_ok = nan_open } };
        num_run(&binary, name, &spec2, &r);
        num_run_free(&r);
    }
}
END_TEST

START_TEST(operators_and_compound_assignment)
{
    if (binary.unavailable) return;   /* the target cannot run here */
    for (unsigned t = t_lo; t < t_hi; t++) {
        char name[32];
        snprintf(name, sizeof name, "ops_%s", TYPES[t]);
        Range range = { -2, 2, false };
        /* several ops in a row: each rounded to the element type by the JIT. For bf16/f16 the
         * interpreter rounds after each op too (EXACT); for f32 it does not: a chain of ≤ 5
         * ops, each ≤ 0.5 ulp relative, on values whose magnitudes are within ~2^4 of the
         * result except where a - b cancels: 8·2^-24 relative to the largest operand ≈ 4
         * (b·s with |b| < 2, s ≤ 3; c /= d with |d| small amplifies: use 2^-20 relative). */
        NumTol tol = t == 0 ? (NumTol){ .rtol = 0x1p-19, .atol = 0x1p-19 } : TOL_EXACT;
        static const char *const sets[] = { "s=0.75", "s=-2.5" };
        for (unsigned k = 0; k < 2; k++) {
            NumSpec spec = { .sizes = k ? "M=17,N=1" : "M=50,N=40", .sets = sets[k], .gen = gen_range, .gen_ctx = &range, .tol = tol };
            NumRun r;
            num_run(&binary, name, &spec, &r);
            num_run_free(&r);
        }
    }
}
END_TEST

/* The host groups' AOT twins (numeric.h): NUM_AOT, NUM_AOT | NUM_JIT (bit-compared with the JIT too), 0 for none.
 * The unary maps are straight-line code (no libm call is left but sqrt's
 * instruction); the JIT and the shared object are bit-compared. */
static const unsigned AOT_FILL = NUM_AOT, AOT_UNARY = NUM_AOT | NUM_JIT, AOT_BINARY = NUM_AOT;

Suite *num_suite_elementwise(void)
{
    Suite *s = suite_create("elementwise");
    for (unsigned p = 0; p < 2; p++) {
        unsigned paths = num_variant(p, AOT_FILL);
        if (!paths) continue;
        TCase *tf = num_tcase_paths("fill", build_fills, teardown_fills, paths);
        tcase_add_test(tf, fill_zeros_ones_every_type);
        suite_add_tcase(s, tf);
    }
    /* v = 1: bf16 for x86-64-avx2 (these once failed to JIT-link there:
     * /tmp/codegen_bugs/jit_missing_truncsfbf2.tk), on the JIT only */
    for (int v = 0; v < 2; v++)
        for (unsigned p = 0; p < (v ? 1u : 2u); p++) {
            unsigned paths = num_variant(p, AOT_UNARY);
            if (paths) {
                TCase *tu = num_tcase_paths(v ? "unary_bf16_x86-64-avx2" : "unary", v ? avx2_bf16_only : host_all_types, NULL, paths);
                tcase_add_unchecked_fixture(tu, build_unary, teardown_unary);
                tcase_add_loop_test(tu, unary_maps_random, 0, NUNARY);
                tcase_add_loop_test(tu, unary_maps_special_values, 0, NUNARY);
                tcase_add_test(tu, unary_minus_is_neg);
                suite_add_tcase(s, tu);
            }
            paths = num_variant(p, AOT_BINARY);
            if (paths) {
                TCase *tb = num_tcase_paths(v ? "binary_bf16_x86-64-avx2" : "binary", v ? avx2_bf16_only : host_all_types, NULL, paths);
                tcase_add_unchecked_fixture(tb, build_binary, teardown_binary);
                tcase_add_loop_test(tb, binary_maps_all_forms, 0, NBINARY);
                tcase_add_loop_test(tb, binary_maps_special_values, 0, NBINARY);
                tcase_add_test(tb, operators_and_compound_assignment);
                suite_add_tcase(s, tb);
            }
        }
    return s;
}
