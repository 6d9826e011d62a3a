/* elementwise_convert.c — the chunked loads and stores of the element-wise
 * ops' buffered path: one switch on the dtype per chunk, then a tight loop,
 * so a mixed-dtype or strided op never switches per element. */
#include <math.h>

#include "elementwise.h"

/* -O2 (RelWithDebInfo) only vectorises loops with no runtime checks or
 * epilogue; these loops have both, so ask GCC for its full cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "tk/dtype.h"

/* A dense run gets its own loop (a byte stride the compiler cannot see
 * through keeps the loop scalar): bf16 ↔ f32 and the other conversions of
 * contiguous operands vectorise, in the widest clone the CPU runs. */
#define LOAD_LOOP(dst, CT, p, s, n, ST, EXPR)                   \
    if ((s) == (int64_t)sizeof(ST)) {                           \
        const ST *q_ = (const ST *)(const void *)(p);           \
        for (int64_t i = 0; i < (n); i++) {                     \
            ST v_ = q_[i];                                      \
            (dst)[i] = (CT)(EXPR);                              \
        }                                                       \
    } else {                                                    \
        for (int64_t i = 0; i < (n); i++) {                     \
            ST v_ = *(const ST *)((p) + i * (s));                \
            (dst)[i] = (CT)(EXPR);                               \
        }                                                       \
    }

/* Every source dtype converted by X (C's conversion, or a truth test). */
#define AS_IS(v) (v)
#define NONZERO(v) ((v) != 0)
#define LOAD_ALL_X(dst, CT, p, s, dt, n, X)                                                    \
    switch (dt) {                                                                              \
    case TK_DTYPE_BOOL: LOAD_LOOP(dst, CT, p, s, n, uint8_t, v_ != 0) break;                    \
    case TK_DTYPE_U8: LOAD_LOOP(dst, CT, p, s, n, uint8_t, X(v_)) break;                        \
    case TK_DTYPE_I8: LOAD_LOOP(dst, CT, p, s, n, int8_t, X(v_)) break;                         \
    case TK_DTYPE_I16: LOAD_LOOP(dst, CT, p, s, n, int16_t, X(v_)) break;                       \
    case TK_DTYPE_U16: LOAD_LOOP(dst, CT, p, s, n, uint16_t, X(v_)) break;                      \
    case TK_DTYPE_U32: LOAD_LOOP(dst, CT, p, s, n, uint32_t, X(v_)) break;                      \
    case TK_DTYPE_U64: LOAD_LOOP(dst, CT, p, s, n, uint64_t, X(v_)) break;                      \
    case TK_DTYPE_I32: LOAD_LOOP(dst, CT, p, s, n, int32_t, X(v_)) break;                       \
    case TK_DTYPE_I64: LOAD_LOOP(dst, CT, p, s, n, int64_t, X(v_)) break;                       \
    case TK_DTYPE_F32: LOAD_LOOP(dst, CT, p, s, n, float, X(v_)) break;                         \
    case TK_DTYPE_F64: LOAD_LOOP(dst, CT, p, s, n, double, X(v_)) break;                        \
    case TK_DTYPE_F16: LOAD_LOOP(dst, CT, p, s, n, uint16_t, X(tk_f16_to_f32(v_))) break;       \
    case TK_DTYPE_BF16: LOAD_LOOP(dst, CT, p, s, n, uint16_t, X(tk_bf16_to_f32(v_))) break;     \
    default: /* the low-precision storage types (the ops refuse them; kept total) */          \
        for (int64_t i = 0; i < (n); i++) (dst)[i] = (CT)X(tkr_load_f((p) + i * (s), dt));      \
        break;                                                                                 \
    }
#define LOAD_ALL(dst, CT, p, s, dt, n) LOAD_ALL_X(dst, CT, p, s, dt, n, AS_IS)

TKR_VECTOR_CLONES void tkr_ew_load_f32(float *dst, const char *p, int64_t s, tk_dtype dt, tk_dtype common, int64_t n)
{
    LOAD_ALL(dst, float, p, s, dt, n)
    /* an int operand of an f16/bf16 op is rounded to that dtype first, as PyTorch casts it */
    if (common == TK_DTYPE_F16 && dt != TK_DTYPE_F16)
        for (int64_t i = 0; i < n; i++) dst[i] = tk_f16_to_f32(tk_f16_from_f32(dst[i]));
    else if (common == TK_DTYPE_BF16 && dt != TK_DTYPE_BF16)
        for (int64_t i = 0; i < n; i++) dst[i] = tk_bf16_to_f32(tk_bf16_from_f32(dst[i]));
}

void tkr_ew_load_f64(double *dst, const char *p, int64_t s, tk_dtype dt, int64_t n) { LOAD_ALL(dst, double, p, s, dt, n) }

/* A u64 source reads as its bit pattern (wrapping): only an in-place op of
 * a signed tensor with a u64 operand would reach that. */
void tkr_ew_load_i64(int64_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n)
{
    if (tk_dtype_is_float(dt)) {   /* not reached by the ops (ints never promote from floats); kept total */
        for (int64_t i = 0; i < n; i++) dst[i] = tkr_load_i(p + i * s, dt);
        return;
    }
    LOAD_ALL(dst, int64_t, p, s, dt, n)
}

/* Signed sources wrap modulo 2^64 (C's conversion); only u64 ops load here. */
void tkr_ew_load_u64(uint64_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n)
{
    if (tk_dtype_is_float(dt)) {   /* not reached by the ops (u64 never promotes from floats); kept total */
        for (int64_t i = 0; i < n; i++) dst[i] = tkr_load_u64(p + i * s, dt);
        return;
    }
    LOAD_ALL(dst, uint64_t, p, s, dt, n)
}

void tkr_ew_load_truth(uint8_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n) { LOAD_ALL_X(dst, uint8_t, p, s, dt, n, NONZERO) }

#define STORE_LOOP(p, s, n, DT, EXPR)                                 \
    if ((s) == (int64_t)sizeof(DT)) {                                 \
        DT *q_ = (DT *)(void *)(p);                                   \
        for (int64_t i = 0; i < (n); i++) q_[i] = (EXPR);             \
    } else {                                                          \
        for (int64_t i = 0; i < (n); i++) *(DT *)((p) + i * (s)) = (EXPR); \
    }

TKR_VECTOR_CLONES void tkr_ew_store_f32(char *p, int64_t s, tk_dtype dt, const float *src, int64_t n)
{
    switch (dt) {
    case TK_DTYPE_F32: STORE_LOOP(p, s, n, float, src[i]) break;
    case TK_DTYPE_F16: STORE_LOOP(p, s, n, uint16_t, tk_f16_from_f32(src[i])) break;
    case TK_DTYPE_BF16: STORE_LOOP(p, s, n, uint16_t, tk_bf16_from_f32(src[i])) break;
    case TK_DTYPE_F64: STORE_LOOP(p, s, n, double, src[i]) break;
    default:
        for (int64_t i = 0; i < n; i++) tkr_store_f(p + i * s, dt, src[i]);
        break;
    }
}

void tkr_ew_store_f64(char *p, int64_t s, tk_dtype dt, const double *src, int64_t n)
{
    if (dt == TK_DTYPE_F64) {
        STORE_LOOP(p, s, n, double, src[i])
        return;
    }
    for (int64_t i = 0; i < n; i++) tkr_store_f(p + i * s, dt, src[i]);
}

/* integer results wrap to the dtype (two's complement), as PyTorch's do */
void tkr_ew_store_i64(char *p, int64_t s, tk_dtype dt, const int64_t *src, int64_t n)
{
    switch (dt) {
    case TK_DTYPE_BOOL: STORE_LOOP(p, s, n, uint8_t, src[i] != 0) break;
    case TK_DTYPE_U8: STORE_LOOP(p, s, n, uint8_t, (uint8_t)(uint64_t)src[i]) break;
    case TK_DTYPE_I8: STORE_LOOP(p, s, n, int8_t, (int8_t)(uint8_t)(uint64_t)src[i]) break;
    case TK_DTYPE_I16: STORE_LOOP(p, s, n, int16_t, (int16_t)(uint16_t)(uint64_t)src[i]) break;
    case TK_DTYPE_I32: STORE_LOOP(p, s, n, int32_t, (int32_t)(uint32_t)(uint64_t)src[i]) break;
    case TK_DTYPE_I64: STORE_LOOP(p, s, n, int64_t, src[i]) break;
    case TK_DTYPE_U16: STORE_LOOP(p, s, n, uint16_t, (uint16_t)(uint64_t)src[i]) break;
    case TK_DTYPE_U32: STORE_LOOP(p, s, n, uint32_t, (uint32_t)(uint64_t)src[i]) break;
    case TK_DTYPE_U64: STORE_LOOP(p, s, n, uint64_t, (uint64_t)src[i]) break;
    default:
        for (int64_t i = 0; i < n; i++) tkr_store_i(p + i * s, dt, src[i]);
        break;
    }
}

/* u64 results: integers wrap as above (same bits); floats get the unsigned value */
void tkr_ew_store_u64(char *p, int64_t s, tk_dtype dt, const uint64_t *src, int64_t n)
{
    switch (dt) {
    case TK_DTYPE_U64: STORE_LOOP(p, s, n, uint64_t, src[i]) break;
    case TK_DTYPE_F32: STORE_LOOP(p, s, n, float, (float)src[i]) break;
    case TK_DTYPE_F64: STORE_LOOP(p, s, n, double, (double)src[i]) break;
    default:
        for (int64_t i = 0; i < n; i++) tkr_store_u64(p + i * s, dt, src[i]);
        break;
    }
}

void tkr_ew_store_bool(char *p, int64_t s, tk_dtype dt, const uint8_t *src, int64_t n)
{
    if (tk_dtype_size(dt) == 1) {   /* bool, u8, i8 */
        STORE_LOOP(p, s, n, uint8_t, src[i])
        return;
    }
    for (int64_t i = 0; i < n; i++) tkr_store_i(p + i * s, dt, src[i]);
}
