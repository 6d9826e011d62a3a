/* reduce_vec.c — the vectorised inner loops of the f32 and bf16 reductions
 * over contiguous runs (sums, sums of squares or of |x| or of squared
 * deviations, max and min, products, logsumexp's sum of shifted exps,
 * argmax/argmin), and all/any's search over runs of any dtype, which the
 * engine (reduce_kernels.c, reduce_engine.c) calls for the long, dense runs
 * that carry the memory traffic.
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

#include "elementwise.h"   /* tkr_f32_unary: the vector exp */
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

/* ------------------------------------------------------------ product */

/* The product of n elements in PROD_W double lanes (lane j takes positions
 * j, j + PROD_W, ...; the tail goes to lane 0), the lanes combined pairwise:
 * the compiler turns the trip into widening loads and vector multiplies.
 * Double lanes, not f32 ones: a product of a few thousand floats leaves the
 * f32 range long before its value does, and PyTorch's f32 result is what we
 * round to at the end. Same positions, same lanes: the same bits anywhere. */
#define PROD_W 32
#define VPROD(NAME, SUF)                                                       \
    TKR_VECTOR_CLONES double NAME(const void *p, int64_t n)                    \
    {                                                                          \
        const ELEM_##SUF *q = p;                                               \
        double acc[PROD_W];                                                    \
        for (int j = 0; j < PROD_W; j++) acc[j] = 1;                           \
        int64_t i = 0;                                                         \
        for (; i + PROD_W <= n; i += PROD_W)                                   \
            for (int j = 0; j < PROD_W; j++) acc[j] *= AS_F32_##SUF(q[i + j]); \
        for (; i < n; i++) acc[0] *= AS_F32_##SUF(q[i]);                       \
        for (int w = PROD_W / 2; w >= 1; w /= 2)                               \
            for (int j = 0; j < w; j++) acc[j] *= acc[j + w];                  \
        return acc[0];                                                         \
    }

VPROD(tkr_vprod_f32, f32)
VPROD(tkr_vprod_bf16, bf16)

/* ------------------------------------------------------------ sum of exp(x - shift) */

/* One block of m <= BLOCK elements as f32 into dst (bf16 widened). */
INLINE void block_f32(const float *src, int64_t m, float *dst) { memcpy(dst, src, (size_t)m * sizeof(float)); }
INLINE void block_bf16(const uint16_t *src, int64_t m, float *dst)
{
    for (int64_t i = 0; i < m; i++) {
        uint32_t u = (uint32_t)src[i] << 16;
        memcpy(&dst[i], &u, 4);
    }
}

/* logsumexp's second pass: the sum of exp(x - shift) over n elements, block
 * by block (the same BLOCK-element blocks as the sums): the differences in
 * f32 (shift is the f32 max or 0, so x - shift rounds once), their exps in
 * place by elementwise.c's vector exp (1-2 ulp; it clamps its argument at
 * -104, where it returns exactly 0, so exp(-inf) is 0 and a row of -inf
 * gives log 0 = -inf), and the block summed as tkr_vsum does. */
#define VSUMEXP(NAME, SUF)                                               \
    TKR_VECTOR_CLONES double NAME(const void *p, int64_t n, float shift) \
    {                                                                    \
        float d[BLOCK];                                                  \
        double total = 0;                                                \
        for (int64_t b = 0; b < n; b += BLOCK) {                         \
            int64_t m = n - b < BLOCK ? n - b : BLOCK;                   \
            block_##SUF((const ELEM_##SUF *)p + b, m, d);                \
            for (int64_t i = 0; i < m; i++) d[i] -= shift;               \
            tkr_f32_unary(TK_EXP, d, d, m);                              \
            total += tkr_vsum_f32(d, m, 0);                              \
        }                                                                \
        return total;                                                    \
    }

VSUMEXP(tkr_vsumexp_f32, f32)
VSUMEXP(tkr_vsumexp_bf16, bf16)

/* ------------------------------------------------------------ argmax / argmin */

/* The position of the first largest (want_max) or smallest of n >= 1
 * elements, or of the first NaN if there is one (PyTorch: NaN is the
 * extreme either way), its value into *best. ARG_W lanes each keep their own
 * best and its position (lane j sees positions j, j + ARG_W, ... in
 * increasing order, and a strict compare keeps the first of equals); the
 * lanes are then combined taking the smaller position on a tie, and the
 * tail continues serially past every lane's positions. Exact: no order
 * question, the first extreme wins everywhere. */
#define ARG_W 16
#define ARG_BETTER(x, m, up) ((((up) ? (x) > (m) : (x) < (m)) || (x) != (x)) && (m) == (m))
#define VARGEXT(NAME, SUF)                                                                     \
    TKR_VECTOR_CLONES int64_t NAME(const void *p, int64_t n, bool want_max, float *best)      \
    {                                                                                          \
        const ELEM_##SUF *q = p;                                                               \
        int64_t i = 0, at = 0;                                                                 \
        float r = AS_F32_##SUF(q[0]);                                                          \
        if (n >= ARG_W) {                                                                      \
            float m[ARG_W];                                                                    \
            int64_t pos[ARG_W];                                                                \
            for (int j = 0; j < ARG_W; j++) m[j] = AS_F32_##SUF(q[j]), pos[j] = j;             \
            for (i = ARG_W; i + ARG_W <= n; i += ARG_W)                                        \
                if (want_max)                                                                  \
                    for (int j = 0; j < ARG_W; j++) {                                          \
                        float x = AS_F32_##SUF(q[i + j]);                                      \
                        bool take = ARG_BETTER(x, m[j], true);                                 \
                        m[j] = take ? x : m[j];                                                \
                        pos[j] = take ? i + j : pos[j];                                        \
                    }                                                                          \
                else                                                                           \
                    for (int j = 0; j < ARG_W; j++) {                                          \
                        float x = AS_F32_##SUF(q[i + j]);                                      \
                        bool take = ARG_BETTER(x, m[j], false);                                \
                        m[j] = take ? x : m[j];                                                \
                        pos[j] = take ? i + j : pos[j];                                        \
                    }                                                                          \
            r = m[0], at = pos[0];                                                             \
            for (int j = 1; j < ARG_W; j++) {                                                  \
                bool tie = m[j] == r || (m[j] != m[j] && r != r);                              \
                if (ARG_BETTER(m[j], r, want_max) || (tie && pos[j] < at)) r = m[j], at = pos[j]; \
            }                                                                                  \
        } else {                                                                               \
            i = 1;                                                                             \
        }                                                                                      \
        for (; i < n; i++) {                                                                   \
            float x = AS_F32_##SUF(q[i]);                                                      \
            if (ARG_BETTER(x, r, want_max)) r = x, at = i;                                     \
        }                                                                                      \
        *best = r;                                                                             \
        return at;                                                                             \
    }

VARGEXT(tkr_vargext_f32, f32)
VARGEXT(tkr_vargext_bf16, bf16)

/* ------------------------------------------------------------ all / any */

/* Whether one of n contiguous elements of es bytes (1, 2, 4, 8) is nonzero
 * (want_zero false) or zero (want_zero true) once masked (floats drop their
 * sign bit: -0 is zero, NaN is not). Blocks of BLOCK elements ORed in a loop
 * the compiler vectorises; it stops after the first block that decides. */
#define VFIND(NAME, T)                                                              \
    TKR_VECTOR_CLONES static bool NAME(const T *q, int64_t n, T mask, bool want_zero) \
    {                                                                               \
        for (int64_t b = 0; b < n; b += BLOCK) {                                    \
            int64_t m = n - b < BLOCK ? n - b : BLOCK;                              \
            int found = 0;                                                          \
            if (want_zero)                                                          \
                for (int64_t i = 0; i < m; i++) found |= (q[b + i] & mask) == 0;    \
            else                                                                    \
                for (int64_t i = 0; i < m; i++) found |= (q[b + i] & mask) != 0;    \
            if (found) return true;                                                 \
        }                                                                           \
        return false;                                                               \
    }

VFIND(find_u8, uint8_t)
VFIND(find_u16, uint16_t)
VFIND(find_u32, uint32_t)
VFIND(find_u64, uint64_t)

bool tkr_vfind(const void *p, int64_t n, int es, uint64_t mask, bool want_zero)
{
    switch (es) {
    case 1: return find_u8(p, n, (uint8_t)mask, want_zero);
    case 2: return find_u16(p, n, (uint16_t)mask, want_zero);
    case 4: return find_u32(p, n, (uint32_t)mask, want_zero);
    default: return find_u64(p, n, mask, want_zero);
    }
}
