/* elementwise.c — the element-wise ops' public calls: argument checks, type
 * promotion (PyTorch's), the in-place rules, the output, and the strided
 * iterator over the typed loops of binary.c and unary.c.
 *
 * Scalars (the _scalar forms, clamp's bounds) are "wrapped numbers": an
 * integral value counts as an int, any other as a float; they never widen a
 * tensor of their own category. The scalar becomes a 0-d tensor on the stack
 * in the common dtype, so scalar and tensor operands share one path and a
 * small op allocates nothing but its output. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "elementwise.h"

/* ------------------------------------------------------------ names */

#define BINARY_OPS(X)                                                                                                     \
    X(TK_ADD, add) X(TK_SUB, sub) X(TK_MUL, mul) X(TK_DIV, div) X(TK_FLOOR_DIVIDE, floor_divide) X(TK_REMAINDER, remainder) \
    X(TK_FMOD, fmod) X(TK_POW, pow) X(TK_MAXIMUM, maximum) X(TK_MINIMUM, minimum) X(TK_ATAN2, atan2) X(TK_EQ, eq)           \
    X(TK_NE, ne) X(TK_LT, lt) X(TK_LE, le) X(TK_GT, gt) X(TK_GE, ge) X(TK_LOGICAL_AND, logical_and)                        \
    X(TK_LOGICAL_OR, logical_or) X(TK_LOGICAL_XOR, logical_xor) X(TK_BITWISE_AND, bitwise_and) X(TK_BITWISE_OR, bitwise_or) \
    X(TK_BITWISE_XOR, bitwise_xor) X(TK_SHIFT_LEFT, shift_left) X(TK_SHIFT_RIGHT, shift_right)

#define UNARY_OPS(X)                                                                                                        \
    X(TK_NEG, neg) X(TK_ABS, abs) X(TK_SIGN, sign) X(TK_RECIPROCAL, reciprocal) X(TK_SQUARE, square) X(TK_EXP, exp)          \
    X(TK_EXP2, exp2) X(TK_EXPM1, expm1) X(TK_LOG, log) X(TK_LOG2, log2) X(TK_LOG10, log10) X(TK_LOG1P, log1p)               \
    X(TK_SQRT, sqrt) X(TK_RSQRT, rsqrt) X(TK_SIN, sin) X(TK_COS, cos) X(TK_TAN, tan) X(TK_ASIN, asin) X(TK_ACOS, acos)      \
    X(TK_ATAN, atan) X(TK_SINH, sinh) X(TK_COSH, cosh) X(TK_TANH, tanh) X(TK_ASINH, asinh) X(TK_ACOSH, acosh)               \
    X(TK_ATANH, atanh) X(TK_ERF, erf) X(TK_ERFC, erfc) X(TK_FLOOR, floor) X(TK_CEIL, ceil) X(TK_ROUND, round)               \
    X(TK_TRUNC, trunc) X(TK_SIGMOID, sigmoid) X(TK_RELU, relu) X(TK_GELU, gelu) X(TK_GELU_TANH, gelu_tanh) X(TK_SILU, silu) \
    X(TK_MISH, mish) X(TK_SOFTPLUS, softplus) X(TK_HARDSIGMOID, hardsigmoid) X(TK_HARDSWISH, hardswish) X(TK_SELU, selu)    \
    X(TK_LOGICAL_NOT, logical_not) X(TK_BITWISE_NOT, bitwise_not) X(TK_ISNAN, isnan) X(TK_ISINF, isinf)                     \
    X(TK_ISFINITE, isfinite)

#define NAME(e, n) [e] = #n,
#define FN(e, n) [e] = "tk_" #n,
#define FN_(e, n) [e] = "tk_" #n "_",
static const char *const binary_names[] = { BINARY_OPS(NAME) };
static const char *const binary_fns[] = { BINARY_OPS(FN) };
static const char *const binary_fns_[] = { BINARY_OPS(FN_) };
static const char *const unary_names[] = { UNARY_OPS(NAME) };
static const char *const unary_fns[] = { UNARY_OPS(FN) };
static const char *const unary_fns_[] = { UNARY_OPS(FN_) };
#define NUM_BINARY ((int)(sizeof binary_names / sizeof *binary_names))
#define NUM_UNARY ((int)(sizeof unary_names / sizeof *unary_names))

const char *tk_binary_op_name(tk_binary_op op) { return (unsigned)op < (unsigned)NUM_BINARY ? binary_names[op] : "?"; }
const char *tk_unary_op_name(tk_unary_op op) { return (unsigned)op < (unsigned)NUM_UNARY ? unary_names[op] : "?"; }

/* ------------------------------------------------------------ promotion */

static bool is_int_dtype(tk_dtype t) { return !tk_dtype_is_float(t) && t != TK_DTYPE_BOOL; }

/* An integral value within int64 is an int scalar (the C API cannot tell 2 from 2.0). */
static bool is_int_scalar(double v) { return isfinite(v) && v == floor(v) && fabs(v) < 9.2e18; }

/* PyTorch's result type of a tensor and a wrapped number: the scalar only
 * matters when its category (bool < int < float) is above the tensor's,
 * and then gives the default dtype of its category (i64, f32). */
static tk_dtype promote_scalar(tk_dtype t, double v)
{
    if (tk_dtype_is_float(t)) return t;
    if (!is_int_scalar(v)) return TK_DTYPE_F32;
    return t == TK_DTYPE_BOOL ? TK_DTYPE_I64 : t;
}

/* PyTorch's canCast for in-place results: never float → int/bool, never int → bool. */
static bool can_cast(tk_dtype from, tk_dtype to)
{
    if (tk_dtype_is_float(from) && !tk_dtype_is_float(to)) return false;
    if (is_int_dtype(from) && to == TK_DTYPE_BOOL) return false;
    return true;
}

/* A 0-d tensor on the stack holding a scalar in dtype dt (never escapes the call). */
typedef struct {
    TkrStorage storage;
    tk_tensor tensor;
    _Alignas(8) unsigned char bytes[8];   /* tkr_store_* writes it as its dtype */
} StackScalar;

static const tk_tensor *stack_scalar(StackScalar *s, tk_context *ctx, tk_dtype dt, double v)
{
    memset(s, 0, sizeof *s);
    if (tk_dtype_is_float(dt)) tkr_store_f(s->bytes, dt, v);
    else tkr_store_i(s->bytes, dt, (int64_t)v);
    s->storage.data = s->bytes;
    s->storage.bytes = sizeof s->bytes;
    s->storage.readonly = true;
    s->storage.ctx = ctx;
    s->tensor.storage = &s->storage;
    s->tensor.ctx = ctx;
    s->tensor.dtype = dt;
    s->tensor.ndim = 0;
    return &s->tensor;
}

/* ------------------------------------------------------------ shared checks */

static bool same_shape(int an, const int64_t *as, int bn, const int64_t *bs)
{
    if (an != bn) return false;
    for (int d = 0; d < an; d++)
        if (as[d] != bs[d]) return false;
    return true;
}

/* Whether t has the result's shape (ndim, shape): its layout can be the result's. */
static bool full_size(const tk_tensor *t, int ndim, const int64_t *shape)
{
    return same_shape(t->ndim, t->shape, ndim, shape);
}

/* Whether two elements of t share memory (an expanded dim): an in-place op cannot write it. */
static bool self_overlapping(const tk_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->shape[d] > 1) return true;
    return false;
}

/* The checks every in-place op makes on its target, given the result dtype and shape. */
static tk_status check_inplace(tk_context *ctx, const char *name, const tk_tensor *a, tk_dtype result, int nd, const int64_t *shape)
{
    char sa[160], sr[160];
    if (!can_cast(result, a->dtype))
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: the result's dtype %s cannot be written into a of dtype %s", name, tk_dtype_name(result),
                         tk_dtype_name(a->dtype));
    if (!same_shape(nd, shape, a->ndim, a->shape))
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: the result's shape %s is not a's shape %s", name, tkr_shape_str(nd, shape, sr, sizeof sr),
                         TKR_SHAPE(a, sa));
    if (a->storage->readonly) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: a is read-only caller memory", name);
    if (self_overlapping(a))
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: a of shape %s has elements that share memory (an expanded view); clone it first",
                         name, TKR_SHAPE(a, sa));
    return TK_OK;
}

static void profile(tk_context *ctx, const char *name, double t0)
{
    if (ctx->profile) tkr_profile_record(ctx, "op", name, tkr_now() - t0);
}

/* ------------------------------------------------------------ binary */

static bool is_comparison_or_logical(tk_binary_op op) { return op >= TK_EQ && op <= TK_LOGICAL_XOR; }

/* The common and result dtypes of op on dtypes of a and b (common given as
 * their promotion); an error naming the op and both dtypes if op refuses them. */
static tk_status binary_types(tk_context *ctx, const char *name, tk_binary_op op, tk_dtype adt, tk_dtype bdt, tk_dtype *common,
                              tk_dtype *result)
{
    tk_dtype c = *common;
    const char *why = NULL;
    tk_status st = tkr_lowp_no_arith(ctx, name, adt);
    if (!st) st = tkr_lowp_no_arith(ctx, name, bdt);
    if (st) return st;
    switch (op) {
    case TK_SUB:
        if (c == TK_DTYPE_BOOL) why = "is not defined for two bool operands (use logical_xor)";
        break;
    case TK_FLOOR_DIVIDE:
    case TK_REMAINDER:
    case TK_FMOD:
    case TK_POW:
        if (c == TK_DTYPE_BOOL) why = "is not defined for bool operands";
        break;
    case TK_DIV:
    case TK_ATAN2:
        if (!tk_dtype_is_float(c)) c = TK_DTYPE_F32;   /* true division: ints and bool compute in f32 */
        break;
    case TK_BITWISE_AND:
    case TK_BITWISE_OR:
    case TK_BITWISE_XOR:
        if (tk_dtype_is_float(c)) why = "needs integer or bool operands";
        break;
    case TK_SHIFT_LEFT:
    case TK_SHIFT_RIGHT:
        if (!is_int_dtype(c)) why = "needs integer operands";
        break;
    default: break;
    }
    if (why)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s %s, got %s and %s", name, why, tk_dtype_name(adt), tk_dtype_name(bdt));
    *common = c;
    *result = is_comparison_or_logical(op) ? TK_DTYPE_BOOL : c;
    return TK_OK;
}

typedef struct {
    atomic_bool zero;
    tk_dtype dt;
} ZeroScan;

static void zero_scan_run(char **p, const int64_t *s, int64_t n, void *arg)
{
    ZeroScan *z = arg;
    int64_t buf[TKR_EW_CHUNK];
    for (int64_t off = 0; off < n; off += TKR_EW_CHUNK) {
        int64_t m = n - off < TKR_EW_CHUNK ? n - off : TKR_EW_CHUNK;
        tkr_ew_load_i64(buf, p[0] + off * s[0], s[0], z->dt, m);
        bool any = false;
        for (int64_t i = 0; i < m; i++) any |= buf[i] == 0;
        if (any) atomic_store_explicit(&z->zero, true, memory_order_relaxed);
    }
}

/* Integer floor_divide / remainder / fmod by zero is an error (PyTorch raises
 * ZeroDivisionError); checked before anything is written. */
static tk_status check_int_divisor(tk_context *ctx, const char *name, const tk_tensor *b)
{
    TkrIter it;
    tk_status s = tkr_iter_init(ctx, name, &it, b->ndim, b->shape, 1, &b);
    if (s) return s;
    ZeroScan z = { false, b->dtype };
    tkr_iter_run(ctx, &it, zero_scan_run, &z);
    if (atomic_load(&z.zero)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: integer division by zero (ZeroDivisionError)", name);
    return TK_OK;
}

static bool same_geometry(const tk_tensor *a, const tk_tensor *b)
{
    return a->dtype == b->dtype && a->offset == b->offset && same_shape(a->ndim, a->shape, b->ndim, b->shape) &&
           memcmp(a->strides, b->strides, (size_t)a->ndim * sizeof *a->strides) == 0;
}

/* The one binary path: b is a tensor, or (b == NULL) the scalar bv.
 * inplace: the result goes into a. */
static tk_status binary_impl(tk_context *ctx, tk_binary_op op, const tk_tensor *a, const tk_tensor *b, double bv, bool inplace,
                             tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    bool scalar = b == NULL;
    const char *api = inplace ? (scalar ? "tk_binary_scalar_" : "tk_binary_") : (scalar ? "tk_binary_scalar" : "tk_binary");
    if (!inplace) {
        if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", api);
        *out = NULL;
    }
    if ((unsigned)op >= (unsigned)NUM_BINARY)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: op %d is not a tk_binary_op", api, (int)op);
    const char *name = inplace ? binary_fns_[op] : binary_fns[op];
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s;
    if ((s = tkr_check_arg(ctx, name, "a", a))) return s;
    if (!scalar && (s = tkr_check_arg(ctx, name, "b", b))) return s;

    tk_dtype common = scalar ? promote_scalar(a->dtype, bv) : tk_promote_types(a->dtype, b->dtype), result = common;
    tk_dtype bdt = scalar ? (is_int_scalar(bv) ? TK_DTYPE_I64 : TK_DTYPE_F64) : b->dtype;   /* for messages */
    if ((s = binary_types(ctx, name, op, a->dtype, bdt, &common, &result))) return s;
    int nd;
    int64_t shape[TK_MAX_DIMS];
    if (scalar) {
        nd = a->ndim;
        memcpy(shape, a->shape, sizeof shape);
    } else if ((s = tkr_broadcast_shape(ctx, name, a->ndim, a->shape, b->ndim, b->shape, &nd, shape))) {
        return s;
    }
    if (inplace && (s = check_inplace(ctx, name, a, result, nd, shape))) return s;
    if (op == TK_POW && is_int_dtype(common) && scalar && bv < 0)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: integers to negative integer powers are not allowed (exponent %g)", name, bv);
    if ((op == TK_FLOOR_DIVIDE || op == TK_REMAINDER || op == TK_FMOD) && is_int_dtype(common)) {
        if (scalar && (int64_t)bv == 0)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: integer division by zero (ZeroDivisionError)", name);
        if (!scalar && (s = check_int_divisor(ctx, name, b))) return s;
    }

    StackScalar sc;
    if (scalar) b = stack_scalar(&sc, ctx, common, bv);
    tk_tensor *res = NULL, *b_copy = NULL;
    if (inplace) {
        res = (tk_tensor *)a;
        /* b overlapping a in another geometry would read elements already written: copy it first */
        if (!scalar && b->storage == a->storage && !same_geometry(a, b)) {
            if ((s = tk_clone(ctx, b, &b_copy))) return s;
            b = b_copy;
        }
    } else if ((s = tkr_new_like(ctx, result, nd, shape, full_size(a, nd, shape) ? a : scalar ? NULL : b, &res))) {
        return s;
    }
    TkrBinaryLoop L = { .op = op, .out = res->dtype, .common = common, .a = a->dtype, .b = b->dtype, .ct = tkr_ew_compute_type(common),
                        .bool_out = is_comparison_or_logical(op) };
    TkrIter it;
    const tk_tensor *ops[3] = { res, a, b };
    if (!tkr_binary_prepare(&L)) {
        s = tkr_error(ctx, TK_ERR_INTERNAL, "%s: no kernel for %s", name, tk_dtype_name(common));
    } else if (!(s = tkr_iter_init(ctx, name, &it, nd, shape, 3, ops))) {
        tkr_iter_run(ctx, &it, tkr_binary_loop, &L);
    }
    tk_tensor_release(b_copy);
    if (s) {
        if (!inplace) tk_tensor_release(res);
        return s;
    }
    if (!inplace) *out = res;
    profile(ctx, name, t0);
    return tkr_ok(ctx);
}

tk_status tk_binary(tk_context *ctx, tk_binary_op op, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    if (ctx && !b && a) {   /* a NULL b would read as the scalar form */
        if (out) *out = NULL;
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: b is NULL", (unsigned)op < (unsigned)NUM_BINARY ? binary_fns[op] : "tk_binary");
    }
    return binary_impl(ctx, op, a, b, 0, false, out);
}

tk_status tk_binary_(tk_context *ctx, tk_binary_op op, tk_tensor *a, const tk_tensor *b)
{
    if (ctx && !b && a)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: b is NULL", (unsigned)op < (unsigned)NUM_BINARY ? binary_fns_[op] : "tk_binary_");
    return binary_impl(ctx, op, a, b, 0, true, NULL);
}

tk_status tk_binary_scalar(tk_context *ctx, tk_binary_op op, const tk_tensor *a, double b, tk_tensor **out)
{
    return binary_impl(ctx, op, a, NULL, b, false, out);
}

tk_status tk_binary_scalar_(tk_context *ctx, tk_binary_op op, tk_tensor *a, double b) { return binary_impl(ctx, op, a, NULL, b, true, NULL); }

tk_status tk_add(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out) { return tk_binary(ctx, TK_ADD, a, b, out); }
tk_status tk_sub(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out) { return tk_binary(ctx, TK_SUB, a, b, out); }
tk_status tk_mul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out) { return tk_binary(ctx, TK_MUL, a, b, out); }
tk_status tk_div(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out) { return tk_binary(ctx, TK_DIV, a, b, out); }
tk_status tk_add_(tk_context *ctx, tk_tensor *a, const tk_tensor *b) { return tk_binary_(ctx, TK_ADD, a, b); }
tk_status tk_mul_(tk_context *ctx, tk_tensor *a, const tk_tensor *b) { return tk_binary_(ctx, TK_MUL, a, b); }

/* ------------------------------------------------------------ unary */

/* The dtype the input converts to and the result's, as PyTorch's (see ops.h). */
static tk_status unary_types(tk_context *ctx, const char *name, int op, tk_dtype in, tk_dtype *common, tk_dtype *result, bool *bool_out)
{
    *common = *result = in;
    *bool_out = false;
    tk_status st = tkr_lowp_no_arith(ctx, name, in);
    if (st) return st;
    switch (op) {
    case TK_NEG:
    case TK_ABS:
    case TK_FLOOR:
    case TK_CEIL:
    case TK_ROUND:
    case TK_TRUNC:
    case TK_RELU:
        if (in == TK_DTYPE_BOOL) return tkr_error(ctx, TK_ERR_DTYPE, "%s is not defined for a bool tensor", name);
        return TK_OK;
    case TK_SIGN: return TK_OK;
    case TK_SQUARE:
        if (in == TK_DTYPE_BOOL) *common = *result = TK_DTYPE_I64;   /* torch: bool ** 2 is i64 */
        return TK_OK;
    case TK_BITWISE_NOT:
        if (tk_dtype_is_float(in)) return tkr_error(ctx, TK_ERR_DTYPE, "%s needs an integer or bool tensor, got %s", name, tk_dtype_name(in));
        return TK_OK;
    case TK_LOGICAL_NOT:
    case TK_ISNAN:
    case TK_ISINF:
    case TK_ISFINITE:
        *result = TK_DTYPE_BOOL;
        *bool_out = true;
        return TK_OK;
    default:   /* math functions and activations: ints and bool compute in f32 */
        if (!tk_dtype_is_float(in)) *common = *result = TK_DTYPE_F32;
        return TK_OK;
    }
}

static tk_status unary_impl(tk_context *ctx, int op, const char *name, const tk_tensor *a, const TkrUnParams *params, tk_dtype common,
                            tk_dtype result, bool bool_out, bool inplace, tk_tensor **out)
{
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s;
    if (inplace && (s = check_inplace(ctx, name, a, result, a->ndim, a->shape))) return s;
    /* bitwise_not of bool is logical not */
    if (op == TK_BITWISE_NOT && a->dtype == TK_DTYPE_BOOL) op = TK_LOGICAL_NOT, bool_out = true;
    tk_tensor *res = (tk_tensor *)a;
    if (!inplace && (s = tkr_new_like(ctx, result, a->ndim, a->shape, a, &res))) return s;
    TkrUnaryLoop L = { .op = op, .out = res->dtype, .in = a->dtype, .common = common, .ct = tkr_ew_compute_type(common),
                       .bool_out = bool_out, .params = *params };
    TkrIter it;
    const tk_tensor *ops[2] = { res, a };
    if (!tkr_unary_prepare(&L)) s = tkr_error(ctx, TK_ERR_INTERNAL, "%s: no kernel for %s", name, tk_dtype_name(common));
    else if (!(s = tkr_iter_init(ctx, name, &it, a->ndim, a->shape, 2, ops))) tkr_iter_run(ctx, &it, tkr_unary_loop, &L);
    if (s) {
        if (!inplace) tk_tensor_release(res);
        return s;
    }
    if (!inplace) *out = res;
    profile(ctx, name, t0);
    return tkr_ok(ctx);
}

/* The checks shared by every unary call; name is the call's. */
static tk_status unary_args(tk_context *ctx, const char *name, const tk_tensor *a, bool inplace, tk_tensor **out)
{
    if (!inplace) {
        if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", name);
        *out = NULL;
    }
    tk_status s = tkr_check_arg(ctx, name, "a", a);
    return s ? s : tkr_lowp_no_arith(ctx, name, a->dtype);
}

static tk_status unary_call(tk_context *ctx, tk_unary_op op, const tk_tensor *a, bool inplace, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    const char *api = inplace ? "tk_unary_" : "tk_unary";
    if (!inplace) {
        if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", api);
        *out = NULL;
    }
    if ((unsigned)op >= (unsigned)NUM_UNARY) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: op %d is not a tk_unary_op", api, (int)op);
    const char *name = inplace ? unary_fns_[op] : unary_fns[op];
    tk_status s;
    if ((s = unary_args(ctx, name, a, inplace, out))) return s;
    tk_dtype common, result;
    bool bool_out;
    if ((s = unary_types(ctx, name, op, a->dtype, &common, &result, &bool_out))) return s;
    TkrUnParams params = { 0 };
    return unary_impl(ctx, op, name, a, &params, common, result, bool_out, inplace, out);
}

tk_status tk_unary(tk_context *ctx, tk_unary_op op, const tk_tensor *a, tk_tensor **out) { return unary_call(ctx, op, a, false, out); }
tk_status tk_unary_(tk_context *ctx, tk_unary_op op, tk_tensor *a) { return unary_call(ctx, op, a, true, NULL); }

static tk_status activation(tk_context *ctx, int op, const char *name, const tk_tensor *a, const TkrUnParams *params, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s;
    if ((s = unary_args(ctx, name, a, false, out))) return s;
    tk_dtype dt = tk_dtype_is_float(a->dtype) ? a->dtype : TK_DTYPE_F32;
    return unary_impl(ctx, op, name, a, params, dt, dt, false, false, out);
}

tk_status tk_leaky_relu(tk_context *ctx, const tk_tensor *a, double negative_slope, tk_tensor **out)
{
    TkrUnParams p = { .slope = negative_slope };
    return activation(ctx, TKR_U_LEAKY_RELU, "tk_leaky_relu", a, &p, out);
}

tk_status tk_elu(tk_context *ctx, const tk_tensor *a, double alpha, tk_tensor **out)
{
    TkrUnParams p = { .alpha = alpha };
    return activation(ctx, TKR_U_ELU, "tk_elu", a, &p, out);
}

/* Bounds are wrapped numbers: an int tensor with a float bound gives f32,
 * a bool tensor with int bounds i64 (as torch.clamp). */
static tk_status clamp_call(tk_context *ctx, const char *name, const tk_tensor *a, const tk_clamp_opts *opts, bool inplace, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s;
    if ((s = unary_args(ctx, name, a, inplace, out))) return s;
    if (!opts) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: opts is NULL", name);
    if (!opts->has_min && !opts->has_max) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: neither min nor max is given", name);
    tk_dtype dt = a->dtype;
    if (opts->has_min) dt = promote_scalar(dt, opts->min);
    if (opts->has_max) dt = promote_scalar(dt, opts->max);
    TkrUnParams p = { .lo = -INFINITY, .hi = INFINITY, .ilo = INT64_MIN, .ihi = INT64_MAX };
    if (tk_dtype_is_float(dt)) {
        /* the bounds in the common dtype, as PyTorch casts them (an f16 tensor clamps at f16 values) */
        _Alignas(8) unsigned char tmp[8];
        if (opts->has_min) tkr_store_f(tmp, dt, opts->min), p.lo = tkr_load_f(tmp, dt);
        if (opts->has_max) tkr_store_f(tmp, dt, opts->max), p.hi = tkr_load_f(tmp, dt);
    } else {
        if (opts->has_min) p.ilo = (int64_t)opts->min;
        if (opts->has_max) p.ihi = (int64_t)opts->max;
    }
    return unary_impl(ctx, TKR_U_CLAMP, name, a, &p, dt, dt, false, inplace, out);
}

tk_status tk_clamp(tk_context *ctx, const tk_tensor *a, const tk_clamp_opts *opts, tk_tensor **out)
{
    return clamp_call(ctx, "tk_clamp", a, opts, false, out);
}

tk_status tk_clamp_(tk_context *ctx, tk_tensor *a, const tk_clamp_opts *opts) { return clamp_call(ctx, "tk_clamp_", a, opts, true, NULL); }

/* ------------------------------------------------------------ where */

tk_status tk_where(tk_context *ctx, const tk_tensor *cond, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    const char *name = "tk_where";
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", name);
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s;
    if ((s = tkr_check_arg(ctx, name, "cond", cond)) || (s = tkr_check_arg(ctx, name, "a", a)) || (s = tkr_check_arg(ctx, name, "b", b)))
        return s;
    int nab, nd;
    int64_t ab[TK_MAX_DIMS], shape[TK_MAX_DIMS];
    if ((s = tkr_broadcast_shape(ctx, name, a->ndim, a->shape, b->ndim, b->shape, &nab, ab)) ||
        (s = tkr_broadcast_shape(ctx, name, cond->ndim, cond->shape, nab, ab, &nd, shape)))
        return s;
    if ((s = tkr_lowp_no_arith(ctx, name, a->dtype)) || (s = tkr_lowp_no_arith(ctx, name, b->dtype)) ||
        (s = tkr_lowp_no_arith(ctx, name, cond->dtype)))
        return s;
    tk_dtype dt = tk_promote_types(a->dtype, b->dtype);
    tk_tensor *res;
    const tk_tensor *like = full_size(a, nd, shape) ? a : full_size(b, nd, shape) ? b : cond;
    if ((s = tkr_new_like(ctx, dt, nd, shape, like, &res))) return s;
    TkrBinaryLoop L = { .out = dt, .common = dt, .a = a->dtype, .b = b->dtype, .cond = cond->dtype, .ct = tkr_ew_compute_type(dt) };
    TkrIter it;
    const tk_tensor *ops[4] = { res, cond, a, b };
    if ((s = tkr_iter_init(ctx, name, &it, nd, shape, 4, ops))) {
        tk_tensor_release(res);
        return s;
    }
    tkr_iter_run(ctx, &it, tkr_where_loop, &L);
    *out = res;
    profile(ctx, name, t0);
    return tkr_ok(ctx);
}
