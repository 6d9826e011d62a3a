/* gen_values.c — see gen_values.h. */
#include "gen_values.h"

#include <math.h>

#include "../common/test_values.h"

/* ---------------------------------------------------------------- numbers */

uint64_t gen_rng_next(uint64_t *s) { return tv_rng_next(s); }

uint64_t gen_hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h ? h : 1;
}

/* ---------------------------------------------------------------- inputs
 * The same value families as the numeric suite's generators, from the shared
 * tests/common/test_values.h. */

double gen_value(const Gen *g, int64_t idx, uint64_t *rng)
{
    switch (g->kind) {
    case GEN_SPECIALS: return tv_special(rng, g->lo, g->hi);
    case GEN_WIDE: return tv_wide(rng);
    case GEN_TIES: return tv_tie(idx, rng);
    case GEN_PICK: return g->pick[tv_rng_next(rng) % g->npick];
    case GEN_SUBNORMAL: return tv_subnormal(idx);
    default: return tv_uniform(rng, g->lo, g->hi);
    }
}

/* ---------------------------------------------------------------- tolerances */


/* Defaults by element type. The runner compares with the interpreter's
 * double result rounded to the element type (the kernel's result is that
 * type), so an output that is one correctly rounded operation — data
 * movement, fills, conversions, + - * / sqrt, max/min, masks — must match
 * exactly in every type (as the numeric suite checks them, TOL_EXACT).
 *  f32:  rtol 2^-16 (≈ 1.5e-5, 256 f32 ulps). The interpreter keeps f32
 *        values in double; the kernel rounds each op to f32, contracts
 *        a·b + c into FMAs, calls libm (≤ 2 ulps; sigmoid/silu/gelu chains
 *        ≤ 8) and sums in another order (vectorised reductions, the mma
 *        micro-kernels): a chain of ≤ ~16 such steps stays well below 2^-16,
 *        while a wrong element, index, op or missing tail is off by far more.
 *  bf16, f16: rtol 0, ulps 0: exactly the interpreter's value rounded to the
 *        type. Both round every op that produces a 16-bit value RNE through
 *        f32, so a wrong rounding — truncation, a wrong tie, a flushed
 *        subnormal, NaN/inf in a software conversion — is caught. Results
 *        that go through libm or an f32 sum before the final rounding (exp,
 *        log, tanh, sigmoid, ..., row_sum, the attention example) may land
 *        on the other side of one rounding boundary: the manifest gives those
 *        cases ulps=1 (2 where a rounded value feeds further arithmetic).
 *  atol, every type, with uniform inputs (gen=uniform, |x| ≤ 1 by default):
 *        1e-4. Sums of up to ~2·127 products of magnitude ≤ 1 (mma with
 *        K ≤ 127, mma_converted's two products per step) and reductions of
 *        ≤ 128 terms, accumulated in f32 in another order than the
 *        interpreter's exact double: partial sums have magnitude ≈ √K ≲ 12,
 *        each of the K roundings adds ≤ 2^-24·12 ≈ 7e-7, a random walk of
 *        ≈ √K·7e-7 ≈ 8e-6 (all in one direction: K·7e-7 ≈ 9e-5). 1e-4 covers
 *        even that, and is needed where such a sum cancels to near zero
 *        (rtol does not help there). The BF16 instructions of
 *        aarch64-neon-bf16 (BFMMLA, BFDOT) sum with round-to-odd steps: the
 *        same order of error. An absolute slack hides nothing of that size
 *        for inputs of magnitude ~1, but would hide everything about tiny
 *        values:
 *  atol with the other generators (specials, wide, ties, subnormal): 0.
 *        They exist to test tiny and huge values — subnormals kept, not
 *        flushed, underflow, rounding edges — which any absolute slack would
 *        let through; the manifest gives an atol where one is needed (f32
 *        underflow of a libm result vs the interpreter's double: 1.2e-38). */
Tol gen_default_tol(TkTypeKind elem, GenKind gen)
{
    double atol = gen == GEN_UNIFORM ? 1e-4 : 0;
    if (elem == TK_TY_F32) return (Tol){ .rtol = 0x1p-16, .atol = atol, .ulps = 0 };
    return (Tol){ .rtol = 0, .atol = atol, .ulps = 0 };
}
