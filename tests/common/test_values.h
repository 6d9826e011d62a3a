/* test_values.h — the input generators shared by the numeric suite
 * (tests/numeric) and the cross-target suite (tests/cross): one random number
 * generator and the value families that probe rounding, overflow and
 * subnormals. Header-only (static inline) so each suite links without the
 * other. Both suites must draw the same values from the same seed, so the
 * order of random draws here is part of the contract: changing it changes
 * every input of both suites. */
#ifndef TK_TEST_VALUES_H
#define TK_TEST_VALUES_H

#include <math.h>
#include <stdint.h>

/* xorshift64*: small, fast, and the same on every host */
static inline uint64_t tv_rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* uniform in [lo, hi), from the top 53 bits of one draw */
static inline double tv_uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(tv_rng_next(s) >> 11) / 9007199254740992.0);
}

/* ±0, ±inf, NaN, huge, tiny, subnormal and overflow edges, mixed half and half
 * with uniform values in [lo, hi) */
static inline double tv_special(uint64_t *rng, double lo, double hi)
{
    static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e30, -1e30, 1e-30, -1e-30, 1e-40, -3e-39,
                                 100.0, -100.0, 88.0, -88.0, 1.0, -1.0, 0.5 };
    uint64_t k = tv_rng_next(rng) % (2 * (sizeof sp / sizeof sp[0]));
    if (k < sizeof sp / sizeof sp[0]) return sp[k];
    return tv_uniform(rng, lo, hi);
}

/* magnitudes 2^-30 .. 2^20 with random signs, and some specials */
static inline double tv_wide(uint64_t *rng)
{
    static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 65504.0, 65520.0, -70000.0, 6e-8, -3e-8, 3.39e38 };
    uint64_t k = tv_rng_next(rng) % 64;
    if (k < sizeof sp / sizeof sp[0]) return sp[k];
    return tv_uniform(rng, -1, 1) * ldexp(1.0, (int)tv_uniform(rng, -30, 21));
}

/* Rounding ties and edges of f32 → bf16 and f32 → f16 (and f16 → bf16), by
 * element index: 1 + (2m+1)·2^-8 and 1 + (2m+1)·2^-11 are exact halfway points
 * (ties go to even), values just above and below them, the largest finite
 * values and the first that overflow, subnormal boundaries of f16, both signs.
 * One element in six is uniform in (-4, 4) (the only random draw). */
static inline double tv_tie(int64_t idx, uint64_t *rng)
{
    static const double edge[] = { 3.3895313892515355e38, 3.3961e38, 3.3963e38, 3.4e38, 65504.0, 65519.99, 65520.0,
                                   0x1p-14, 0x1.ff8p-15, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-126, 0x1.01p-127 };
    double sign = idx % 2 ? -1 : 1;
    int64_t k = idx / 2;
    switch (k % 6) {
    case 0: return sign * (1 + (double)(2 * (k % 64) + 1) * 0x1p-8) * ldexp(1.0, (int)(k % 20) - 10);
    case 1: return sign * (1 + (double)(2 * (k % 512) + 1) * 0x1p-11) * ldexp(1.0, (int)(k % 10) - 5);
    case 2: return sign * (1 + (double)(2 * (k % 64) + 1) * 0x1p-8 + 0x1p-20);
    case 3: return sign * (1 + (double)(2 * (k % 64) + 1) * 0x1p-8 - 0x1p-20);
    case 4: return sign * edge[(k / 6) % (sizeof edge / sizeof edge[0])];
    default: return sign * tv_uniform(rng, 0, 4);
    }
}

/* subnormal in both f32 and bf16, by element index (no random draw) */
static inline double tv_subnormal(int64_t idx)
{
    return (idx % 2 ? -1 : 1) * ldexp(1.0 + (double)(idx % 7) / 8, -127 - (int)(idx % 6));
}

#endif
