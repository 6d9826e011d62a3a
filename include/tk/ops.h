/* tk/ops.h — element-wise ops with NumPy broadcasting, and reductions.
 * Ownership and errors as in tk/tensor.h.
 *
 * Type promotion follows PyTorch: two tensors promote by tk_promote_types; a
 * Python-style scalar (the _scalar forms) does not widen a tensor of its own
 * category (i32 tensor + 2 stays i32, f16 tensor * 0.5 stays f16) but an
 * integer or bool tensor with a float scalar becomes f32, and a bool tensor
 * with an int scalar i64. A scalar is an int when it is integral (and within
 * int64), else a float: C cannot tell 2 from 2.0, so i32 tensor + 2.0 stays
 * i32 where PyTorch gives f32. Operands and scalars are converted to the
 * common dtype before the op, as PyTorch casts them (f16 tensor * 0.1
 * multiplies by 0.1 rounded to f16; i64 16777217 == f32 16777216 is true).
 * Comparisons and logical ops give bool. Division (TK_DIV) and atan2 of
 * integers give f32 (true division), as torch.div. 16-bit floats compute in
 * f32 and round once. Integer results wrap on overflow.
 *
 * In-place forms (trailing underscore) write into their first operand; the
 * result must fit its dtype by PyTorch's rule (canCast: never a float result
 * into an int or bool tensor, nor an int result into bool, so i32_tensor +=
 * 0.5 is an error while f16 += f32 rounds to f16 and a comparison in place
 * writes 0/1) and have its shape (a broadcast that would grow it is an
 * error): TK_ERR_DTYPE / TK_ERR_SHAPE. A read-only target, or one whose
 * elements share memory (an expanded view), is TK_ERR_INVALID_ARGUMENT. b may
 * overlap a (it is copied first when its geometry differs). */
#ifndef TK_OPS_H
#define TK_OPS_H

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- binary */

typedef enum {
    TK_ADD, TK_SUB, TK_MUL,
    TK_DIV,            /* true division: ints give f32 */
    TK_FLOOR_DIVIDE,   /* torch.floor_divide: rounds toward -inf, ints stay ints (÷0 of ints is an error:
                          TK_ERR_INVALID_ARGUMENT, "ZeroDivisionError", checked before anything is written;
                          so for remainder and fmod of ints) */
    TK_REMAINDER,      /* torch.remainder: the sign of the divisor (Python's %) */
    TK_FMOD,           /* torch.fmod: the sign of the dividend (C's fmod) */
    TK_POW,            /* ints: negative exponents give 0 (1 and -1 aside); an int tensor to a negative
                          int scalar is an error, as PyTorch */
    TK_MAXIMUM, TK_MINIMUM,   /* NaN propagates */
    TK_ATAN2,
    TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE,   /* bool results */
    TK_LOGICAL_AND, TK_LOGICAL_OR, TK_LOGICAL_XOR,   /* bool results, any dtypes (non-zero is true) */
    TK_BITWISE_AND, TK_BITWISE_OR, TK_BITWISE_XOR,   /* ints and bool only */
    TK_SHIFT_LEFT, TK_SHIFT_RIGHT,                   /* ints only (arithmetic right shift); a count < 0 or
                          >= the width gives 0 to the left (PyTorch >= 2.1; 1.13 is undefined there) and
                          0 or -1 to the right (as 1.13) */
} tk_binary_op;

const char *tk_binary_op_name(tk_binary_op op);   /* "add", "floor_divide", ... */

tk_status tk_binary(tk_context *ctx, tk_binary_op op, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tk_binary_(tk_context *ctx, tk_binary_op op, tk_tensor *a, const tk_tensor *b);
tk_status tk_binary_scalar(tk_context *ctx, tk_binary_op op, const tk_tensor *a, double b, tk_tensor **out);
tk_status tk_binary_scalar_(tk_context *ctx, tk_binary_op op, tk_tensor *a, double b);

/* The common ones by name. */
tk_status tk_add(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tk_sub(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tk_mul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tk_div(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tk_add_(tk_context *ctx, tk_tensor *a, const tk_tensor *b);
tk_status tk_mul_(tk_context *ctx, tk_tensor *a, const tk_tensor *b);

/* ---------------------------------------------------------------- unary */

typedef enum {
    TK_NEG, TK_ABS, TK_SIGN, TK_RECIPROCAL, TK_SQUARE,
    TK_EXP, TK_EXP2, TK_EXPM1, TK_LOG, TK_LOG2, TK_LOG10, TK_LOG1P,
    TK_SQRT, TK_RSQRT,
    TK_SIN, TK_COS, TK_TAN, TK_ASIN, TK_ACOS, TK_ATAN,
    TK_SINH, TK_COSH, TK_TANH, TK_ASINH, TK_ACOSH, TK_ATANH,
    TK_ERF, TK_ERFC,
    TK_FLOOR, TK_CEIL, TK_ROUND, TK_TRUNC,   /* round: half to even, as torch.round; ints unchanged */
    TK_SIGMOID, TK_RELU, TK_GELU,            /* gelu: the exact (erf) form, torch's default */
    TK_GELU_TANH,                            /* gelu(approximate='tanh') */
    TK_SILU, TK_MISH, TK_SOFTPLUS, TK_HARDSIGMOID, TK_HARDSWISH, TK_SELU,
    TK_LOGICAL_NOT,                          /* bool result */
    TK_BITWISE_NOT,                          /* ints and bool */
    TK_ISNAN, TK_ISINF, TK_ISFINITE,         /* bool results */
} tk_unary_op;

const char *tk_unary_op_name(tk_unary_op op);   /* "exp", "gelu_tanh", ... */

/* Math functions of int or bool tensors give f32 (torch.exp(int) does; so
 * do the activations, which PyTorch refuses for ints); abs, neg, sign,
 * square, floor, ceil, round, trunc, relu keep the dtype. Of a bool tensor,
 * neg, abs, floor, ceil, round, trunc and relu are errors (TK_ERR_DTYPE),
 * sign is bool, square is i64 and bitwise_not is logical not. sign(NaN) is 0
 * (as torch 1.13). */
tk_status tk_unary(tk_context *ctx, tk_unary_op op, const tk_tensor *a, tk_tensor **out);
tk_status tk_unary_(tk_context *ctx, tk_unary_op op, tk_tensor *a);

/* Activations with a parameter (ints and bool give f32). */
tk_status tk_leaky_relu(tk_context *ctx, const tk_tensor *a, double negative_slope, tk_tensor **out);
tk_status tk_elu(tk_context *ctx, const tk_tensor *a, double alpha, tk_tensor **out);

/* ---------------------------------------------------------------- others */

/* clamp(a, min, max): has_min/has_max say which bound is given (at least
 * one; NaN in a stays NaN; min > max gives max, as torch). The bounds are
 * scalars as above: an i32 tensor clamped at 7.5 gives f32 (and clamp_ of it
 * is an error), a bool tensor at 0 and 1 gives i64. */
typedef struct {
    bool has_min, has_max;
    double min, max;
} tk_clamp_opts;
tk_status tk_clamp(tk_context *ctx, const tk_tensor *a, const tk_clamp_opts *opts, tk_tensor **out);
tk_status tk_clamp_(tk_context *ctx, tk_tensor *a, const tk_clamp_opts *opts);

/* cond ? a : b, element-wise; cond any dtype (non-zero is true); a and b promote. */
tk_status tk_where(tk_context *ctx, const tk_tensor *cond, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);

/* ---------------------------------------------------------------- reductions */

typedef enum {
    TK_SUM, TK_MEAN, TK_PROD, TK_MAX, TK_MIN,
    TK_VAR, TK_STD,      /* with Bessel's correction unless opts->population */
    TK_NORM,             /* p-norm, p = opts->p (0 means 2; INFINITY is max |x|) */
    TK_ALL, TK_ANY,      /* bool results */
    TK_LOGSUMEXP,
} tk_reduce_op;

typedef struct {
    const int *dims;   /* the axes to reduce (negative count from the end); NULL or ndims 0: all */
    int ndims;
    bool keepdim;
    bool population;   /* var, std: divide by N, not N - 1 (torch's correction=0) */
    double p;          /* norm: 0 means 2 */
} tk_reduce_opts;

/* sum/prod of ints and bool give i64 (as PyTorch), of u16/u32/u64 u64 (as NumPy); mean/var/std/norm/logsumexp
 * need floats; max/min keep the dtype (NaN propagates). Floats accumulate in
 * double and round once to their dtype; ints in int64 (wrapping). Results are
 * the same on every thread count. An empty reduction gives sum 0, prod 1, all
 * true, any false, mean/var NaN, norm 0, logsumexp -inf; max/min over a
 * zero-size dim is an error (as PyTorch). A dim listed twice is an error.
 * opts NULL: every axis, no keepdim. */
tk_status tk_reduce(tk_context *ctx, tk_reduce_op op, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out);
tk_status tk_sum(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out);
tk_status tk_mean(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out);

/* Index (i64) of the first largest / smallest element along dim (NaN counts as
 * largest and smallest); a zero-size dim is an error. */
tk_status tk_argmax(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out);
tk_status tk_argmin(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out);

/* Running sum / product along dim (ints and bool accumulate in i64 and give
 * i64, u16/u32/u64 give u64; f32/f64 accumulate in double, f16/bf16 in f32, as PyTorch's CPU kernel). */
tk_status tk_cumsum(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out);
tk_status tk_cumprod(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out);

/* softmax and log_softmax along dim, in the input's float dtype (ints are an error). */
tk_status tk_softmax(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out);
tk_status tk_log_softmax(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out);

/* The k largest (or smallest) along dim, values and i64 indices (either out
 * may be NULL, not both; opts NULL: the largest, sorted). 0 <= k <= the dim's
 * size, else TK_ERR_INDEX. NaN counts as the largest; among ties the lower
 * index is taken (PyTorch leaves that choice unspecified). */
typedef struct {
    bool smallest;   /* false: the largest, as torch.topk's default */
    bool unsorted;   /* false: sorted, best first; true: the same k in index order */
} tk_topk_opts;
tk_status tk_topk(tk_context *ctx, const tk_tensor *a, int64_t k, int dim, const tk_topk_opts *opts, tk_tensor **values,
                  tk_tensor **indices);
/* Stable sort along dim (NaN sorts last ascending, first descending, as PyTorch;
 * equal values keep their order, as torch.sort(stable=True)). Either out may be
 * NULL, not both. */
tk_status tk_sort(tk_context *ctx, const tk_tensor *a, int dim, bool descending, tk_tensor **values, tk_tensor **indices);

#ifdef __cplusplus
}
#endif

#endif
