/* reduce_vec.c — the vectorised inner loops of the f32 and bf16 reductions
 * over contiguous runs (sums, sums of squares or of |x| or of squared
 * deviations, max and min), which the engine in reduce.c calls for the
 * long, dense runs that carry the memory traffic.
 *
 * A sum streams at the read bandwidth only if the adds keep up with the
 * loads: f32 lanes (not widened to double) in ACC_VECS independent vector
 * chains of 16 floats. Accuracy comes from blocking: a run is cut into
 * blocks of BLOCK elements fixed by their position in the run; inside a
 * block each of the 128 lanes adds BLOCK / 128 = 32 values, the lanes are
 * combined pairwise (a cascade) into the block's partial, and the partials
 * are added in double, in block order. The error is that of a 32-term float
 * sum plus a 7-level cascade per block, about 40 units in the last place of
 * the block's sum of |x| at worst, and it does not grow with the length.
 *
 * The vectors are GCC's generic vectors: every operation is defined lane by
 * lane, so the AVX-512, AVX2 and baseline clones (TKR_VECTOR_CLONES) add the
 * same values in the same order and return the same bits. No FMA contraction
 * (ISO C mode) either. */
#include <math.h>
#include <string.h>

#include "reduce.h"
#include "tk/dtype.h"

/* Vectors never cross a function boundary by value: clang refuses a 64-byte
 * vector argument or return in code built without AVX-512 (the baseline
 * clone, the sanitizer and fuzz builds), and GCC notes the ABI change. The
 * helpers write through pointers and are inlined. */
typedef float VecF __attribute__((vector_size(64)));          /* 16 f32 lanes */
typedef uint16_t VecH __attribute__((vector_size(32)));       /* 16 bf16 bit patterns */
typedef uint32_t VecU __attribute__((vector_size(64)));
typedef int32_t VecI __attribute__((vector_size(64)));

#define LANES 16
#define ACC_VECS 8                  /* 8 chains × 4-cycle add latency: two adds a cycle in flight */
#define STEP (LANES * ACC_VECS)     /* elements per loop trip: 128 */
#define BLOCK 4096                  /* elements per block partial (a multiple of STEP) */
#define INLINE static inline __attribute__((always_inline))

/* 16 elements at p as f32 lanes into *v: a plain (unaligned) load, or bf16 widened in registers. */
INLINE void load_f32(VecF *v, const void *p, int64_t i)
{
    memcpy(v, (const float *)p + i, sizeof *v);
}

INLINE void load_bf16(VecF *v, const void *p, int64_t i)
{
    VecH h;
    memcpy(&h, (const uint16_t *)p + i, sizeof h);
    VecU u = __builtin_convertvector(h, VecU) << 16;
    memcpy(v, &u, sizeof *v);
}

/* The tail of a block (fewer than STEP elements) padded with zeros, as f32. */
INLINE void tail_f32(const void *p, int64_t n, float *dst)
{
    memset(dst, 0, STEP * sizeof(float));
    memcpy(dst, p, (size_t)n * sizeof(float));
}

INLINE void tail_bf16(const void *p, int64_t n, float *dst)
{
    memset(dst, 0, STEP * sizeof(float));
    const uint16_t *h = p;
    for (int64_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)h[i] << 16;
        memcpy(&dst[i], &u, 4);
    }
}

static const VecI IOTA = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

/* The sum of a vector's lanes, pairwise. */
INLINE float lanes_sum(const VecF *v)
{
    float l[LANES];
    memcpy(l, v, sizeof l);
    for (int w = LANES / 2; w >= 1; w /= 2)
        for (int j = 0; j < w; j++) l[j] += l[j + w];
    return l[0];
}

/* Generates double NAME(const void *p, int64_t n, float shift) for element
 * type SUF (f32, bf16): the blocked sum of TERM(x) over n elements (x a
 * vector of 16 of them, sh the shift). A block's last partial trip runs on a
 * zero-padded copy with the lanes past the end masked out of the sum. */
#define BLOCKED_SUM(NAME, SUF, TERM)                                                           \
    TKR_VECTOR_CLONES double NAME(const void *p, int64_t n, float shift)                     \
    {                                                                                          \
        const VecF sh = (VecF){ 0 } + shift;                                                   \
        (void)sh;                                                                              \
        double total = 0;                                                                      \
        for (int64_t b = 0; b < n; b += BLOCK) {                                               \
            int64_t m = n - b < BLOCK ? n - b : BLOCK, i = 0;                                  \
            VecF acc[ACC_VECS], x;                                                             \
            for (int j = 0; j < ACC_VECS; j++) acc[j] = (VecF){ 0 };                           \
            for (; i + STEP <= m; i += STEP)                                                   \
                for (int j = 0; j < ACC_VECS; j++) {                                           \
                    load_##SUF(&x, p, b + i + LANES * j);                                      \
                    acc[j] += TERM;                                                            \
                }                                                                              \
            if (i < m) { /* the tail: its terms, zero past the end */                          \
                float t[STEP];                                                                 \
                tail_##SUF((const char *)p + (b + i) * (int64_t)sizeof(ELEM_##SUF), m - i, t); \
                for (int j = 0; j < ACC_VECS; j++) {                                           \
                    load_f32(&x, t, LANES * j);                                                \
                    VecI live = IOTA + (int32_t)(i + LANES * j) < (VecI){ 0 } + (int32_t)m;     \
                    VecF term = TERM;                                                          \
                    acc[j] += (VecF)((VecI)term & live);                                       \
                }                                                                              \
            }                                                                                  \
            for (int w = ACC_VECS / 2; w >= 1; w /= 2)                                         \
                for (int j = 0; j < w; j++) acc[j] += acc[j + w];                              \
            total += lanes_sum(&acc[0]);                                                       \
        }                                                                                      \
        return total;                                                                          \
    }

typedef float ELEM_f32;
typedef uint16_t ELEM_bf16;

#define T_SUM x
#define T_SQ (x * x)
#define T_ABS ((VecF)((VecI)x & 0x7fffffff))
#define T_SQDEV ((x - sh) * (x - sh))

BLOCKED_SUM(tkr_vsum_f32, f32, T_SUM)
BLOCKED_SUM(tkr_vsum_bf16, bf16, T_SUM)
BLOCKED_SUM(tkr_vsumsq_f32, f32, T_SQ)
BLOCKED_SUM(tkr_vsumsq_bf16, bf16, T_SQ)
BLOCKED_SUM(tkr_vabssum_f32, f32, T_ABS)
BLOCKED_SUM(tkr_vabssum_bf16, bf16, T_ABS)
BLOCKED_SUM(tkr_vsqdev_f32, f32, T_SQDEV)
BLOCKED_SUM(tkr_vsqdev_bf16, bf16, T_SQDEV)

/* The largest (want_max) or smallest of TERM(x) over n >= 1 elements, or
 * NaN if one is NaN: EXT_W running extremes and NaN flags, written as plain
 * arrays (the compiler turns each trip into vector loads, max/min and
 * compares; generic-vector selects came out lane by lane). Exact, so the
 * order does not matter. (A -0 and a +0 may come back either way.) */
#define EXT_W 64
#define AS_F32_f32(v) (v)
#define AS_F32_bf16(v) tk_bf16_to_f32(v)
#define EXTREME(NAME, SUF, TERM)                                                                    \
    TKR_VECTOR_CLONES float NAME(const void *p, int64_t n, bool want_max)                          \
    {                                                                                               \
        const ELEM_##SUF *q = p;                                                                    \
        float m[EXT_W], init = want_max ? -INFINITY : INFINITY;                                     \
        int32_t nan[EXT_W];                                                                         \
        for (int j = 0; j < EXT_W; j++) m[j] = init, nan[j] = 0;                                    \
        int64_t i = 0;                                                                              \
        if (want_max)                                                                               \
            for (; i + EXT_W <= n; i += EXT_W)                                                      \
                for (int j = 0; j < EXT_W; j++) {                                                   \
                    float x = AS_F32_##SUF(q[i + j]), v = TERM;                                     \
                    nan[j] |= v != v;                                                               \
                    m[j] = v > m[j] ? v : m[j];                                                     \
                }                                                                                   \
        else                                                                                        \
            for (; i + EXT_W <= n; i += EXT_W)                                                      \
                for (int j = 0; j < EXT_W; j++) {                                                   \
                    float x = AS_F32_##SUF(q[i + j]), v = TERM;                                     \
                    nan[j] |= v != v;                                                               \
                    m[j] = v < m[j] ? v : m[j];                                                     \
                }                                                                                   \
        int32_t any_nan = 0;                                                                        \
        float r = init;                                                                             \
        for (int j = 0; j < EXT_W; j++) {                                                           \
            any_nan |= nan[j];                                                                      \
            r = want_max ? (m[j] > r ? m[j] : r) : (m[j] < r ? m[j] : r);                           \
        }                                                                                           \
        for (; i < n; i++) {                                                                        \
            float x = AS_F32_##SUF(q[i]), v = TERM;                                                 \
            any_nan |= v != v;                                                                      \
            r = want_max ? (v > r ? v : r) : (v < r ? v : r);                                       \
        }                                                                                           \
        return any_nan ? NAN : r;                                                                   \
    }

#define E_ID x
#define E_ABS fabsf(x)

EXTREME(tkr_vextreme_f32, f32, E_ID)
EXTREME(tkr_vextreme_bf16, bf16, E_ID)
EXTREME(tkr_vabsextreme_f32, f32, E_ABS)
EXTREME(tkr_vabsextreme_bf16, bf16, E_ABS)
