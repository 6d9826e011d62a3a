/* elementwise.h — what the element-wise op files share (internal): the
 * compute types, the chunked loads and stores that convert any dtype into a
 * compute buffer, and the per-run loop functions binary.c and unary.c give
 * the strided iterator (elementwise.c validates, promotes and dispatches).
 *
 * Every element-wise op works the same way: operands are first converted to
 * the op's common dtype (PyTorch's TensorIterator casts them too, so an i32
 * operand of an f16 op is rounded to f16), computed in the compute type of
 * that dtype (f32 for f32/f16/bf16, f64 for f64, u64 for u64, i64 for the
 * other ints and bool: u16/u32 fit in it, u64 does not) and
 * rounded once into the result. Same-dtype f32/f64/i32/i64 runs with unit or
 * zero strides skip the buffers and run the typed kernel on the tensors. */
#ifndef TK_RUNTIME_OPS_ELEMENTWISE_H
#define TK_RUNTIME_OPS_ELEMENTWISE_H

#include <stdint.h>

#include "internal.h"
#include "tk/ops.h"

/* Elements per buffered chunk: three buffers of this many 8-byte values sit
 * on the stack of a pool thread (64 KiB). */
#define TKR_EW_CHUNK 256

typedef enum { TKR_CT_F32, TKR_CT_F64, TKR_CT_I64, TKR_CT_U64 } TkrComputeType;

static inline TkrComputeType tkr_ew_compute_type(tk_dtype common)
{
    if (common == TK_DTYPE_F64) return TKR_CT_F64;
    if (common == TK_DTYPE_U64) return TKR_CT_U64;
    return tk_dtype_is_float(common) ? TKR_CT_F32 : TKR_CT_I64;
}

/* n elements at p (byte stride s) of dtype dt, converted to common (rounded
 * to it when it is a 16-bit float and dt is not) then to the buffer's type. */
void tkr_ew_load_f32(float *dst, const char *p, int64_t s, tk_dtype dt, tk_dtype common, int64_t n);
void tkr_ew_load_f64(double *dst, const char *p, int64_t s, tk_dtype dt, int64_t n);
void tkr_ew_load_i64(int64_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n);
void tkr_ew_load_u64(uint64_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n);
/* 1 where the element is non-zero (NaN counts as non-zero), else 0. */
void tkr_ew_load_truth(uint8_t *dst, const char *p, int64_t s, tk_dtype dt, int64_t n);
/* n values into p (byte stride s) of dtype dt: rounding to nearest even for
 * floats, wrapping for ints, != 0 for bool. */
void tkr_ew_store_f32(char *p, int64_t s, tk_dtype dt, const float *src, int64_t n);
void tkr_ew_store_f64(char *p, int64_t s, tk_dtype dt, const double *src, int64_t n);
void tkr_ew_store_i64(char *p, int64_t s, tk_dtype dt, const int64_t *src, int64_t n);
void tkr_ew_store_u64(char *p, int64_t s, tk_dtype dt, const uint64_t *src, int64_t n);
/* 0/1 values (comparisons, logical ops) into any dtype (an in-place
 * comparison writes 0 or 1 into its float or int operand, as PyTorch's eq_). */
void tkr_ew_store_bool(char *p, int64_t s, tk_dtype dt, const uint8_t *src, int64_t n);

/* ------------------------------------------------------------ binary (binary.c) */

/* Shift limits of the result dtype (as torch 1.13: x >> k for k < 0 or
 * k >= max_rshift is x >> max_rshift; x << k for k < 0 or k >= width is 0). */
typedef struct {
    int width, max_rshift;
} TkrBinParams;

typedef void (*TkrKernelFn)(void);   /* a typed kernel, cast back by its compute type */

typedef struct {
    tk_binary_op op;
    tk_dtype out, common, a, b;   /* result, the dtype operands convert to, the operands' own */
    tk_dtype cond;                 /* where: the condition's dtype */
    TkrComputeType ct;
    bool bool_out;                 /* comparisons and logical ops */
    TkrBinParams params;
    TkrKernelFn kernel;            /* for ct */
    TkrKernelFn kernel_i32;        /* the direct path of i32 operands and result, or NULL */
} TkrBinaryLoop;

/* Fills the kernels of L (op, common, ct, bool_out set); false if the op
 * has no kernel for that compute type (the caller validated, so a bug). */
bool tkr_binary_prepare(TkrBinaryLoop *L);
/* TkrLoopFn over operands (out, a, b). */
void tkr_binary_loop(char **p, const int64_t *s, int64_t n, void *arg);
/* TkrLoopFn over (out, cond, a, b): out = cond ? a : b; arg is a TkrBinaryLoop
 * whose cond/a/b/common/out/ct are set (op unused). */
void tkr_where_loop(char **p, const int64_t *s, int64_t n, void *arg);

/* ------------------------------------------------------------ unary (unary.c) */

/* The parametric unary ops share the unary loop under these numbers. */
enum { TKR_U_LEAKY_RELU = 1000, TKR_U_ELU, TKR_U_CLAMP };

typedef struct {
    double slope, alpha;   /* leaky_relu, elu */
    double lo, hi;         /* clamp (already in the common dtype; -inf/+inf or the int range when absent) */
    int64_t ilo, ihi;
    uint64_t ulo, uhi;     /* clamp of u64: ilo/ihi as u64 (tkr_unary_prepare sets them) */
} TkrUnParams;

typedef struct {
    int op;                /* tk_unary_op or TKR_U_* */
    tk_dtype out, in, common;   /* common: the dtype the input converts to */
    TkrComputeType ct;     /* of common */
    bool bool_out;
    TkrUnParams params;
    TkrKernelFn kernel;
} TkrUnaryLoop;

bool tkr_unary_prepare(TkrUnaryLoop *L);
/* TkrLoopFn over operands (out, a). */
void tkr_unary_loop(char **p, const int64_t *s, int64_t n, void *arg);

/* ------------------------------------------------------------ bf16 (elementwise_bf16.c) */

/* Dense bf16 → bf16 runs computed 16 lanes at a time in f32 registers. The
 * _has functions say which ops have such a loop; the others keep the
 * buffered path. Strides in elements: unary runs are contiguous, a binary
 * operand's stride is 1 or 0 (a broadcast value). */
bool tkr_bf16_unary_has(int op);
void tkr_bf16_unary(int op, uint16_t *o, const uint16_t *a, int64_t n);
/* The same vector math on dense f32 runs (ops of tkr_bf16_unary_has). */
void tkr_f32_unary(int op, float *o, const float *a, int64_t n);
bool tkr_bf16_binary_has(tk_binary_op op);
void tkr_bf16_binary(tk_binary_op op, uint16_t *o, const uint16_t *a, int64_t sa, const uint16_t *b, int64_t sb, int64_t n);

#endif
