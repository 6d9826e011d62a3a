/* index.c — ops that read or write along one dim at positions held in an
 * index tensor (i32 or i64): index_select, gather, scatter.
 *
 * Every index is checked before anything is written, so an out-of-range
 * entry is an error naming its position and value, never a wild access.
 * gather and index_select run as one strided-iterator loop over the output
 * (operands: out, the index, and t with its `dim` stride set to 0, so an
 * element's source is its own position plus index·stride). scatter walks
 * the index's other dims on the iterator and its `dim` serially inside:
 * writes to one output element come from one such column, so the result is
 * the serial one on any thread count. */
#include <stdlib.h>

#include "shape_util.h"
#include "tk/dtype.h"

static int64_t size_at(const tk_tensor *t, int d) { return t->ndim ? t->shape[d] : 1; }
static int64_t stride_at(const tk_tensor *t, int d) { return t->ndim ? t->strides[d] : 0; }

static tk_status check_index_dtype(tk_context *ctx, const char *op, const tk_tensor *index)
{
    if (index->dtype == TK_DTYPE_I32 || index->dtype == TK_DTYPE_I64) return TK_OK;
    return tkr_error(ctx, TK_ERR_DTYPE, "%s: index has dtype %s (index tensors are i32 or i64)", op, tk_dtype_name(index->dtype));
}

/* Every entry of index in [-bound, bound) if negatives count from the end,
 * else in [0, bound); the error names the first one that is not. */
static tk_status check_entries(tk_context *ctx, const char *op, const tk_tensor *index, int64_t bound, bool negatives, int dim,
                               const tk_tensor *t)
{
    tk_tensor *c;
    tk_status s = tkr_contiguous(ctx, index, &c);
    if (s) return s;
    int64_t n = tkr_numel(c->ndim, c->shape), lo = negatives ? -bound : 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = tkr_index_at(c, i);
        if (v >= lo && v < bound) continue;
        int64_t pos[TK_MAX_DIMS];
        for (int64_t rem = i, d = c->ndim - 1; d >= 0; d--) {
            pos[d] = rem % c->shape[d];
            rem /= c->shape[d];
        }
        char p[160], a[160];
        tkr_shape_str(c->ndim, pos, p, sizeof p);
        int nd = c->ndim;
        tk_tensor_release(c);
        return tkr_error(ctx, TK_ERR_INDEX, "%s: index%s = %lld is out of range for dim %d of t's shape %s (expected %lld .. %lld)", op,
                         nd ? p : "", (long long)v, dim, TKR_SHAPE(t, a), (long long)lo, (long long)bound - 1);
    }
    tk_tensor_release(c);
    return TK_OK;
}

/* ------------------------------------------------------------ gather */

typedef struct {
    int64_t dim_stride;   /* bytes between t's elements along dim */
    size_t es;
    bool i64;             /* the index dtype */
} GatherArg;

#define GATHER_LOOP(T, I)                                                                                            \
    for (int64_t i = 0; i < n; i++)                                                                                  \
        *(T *)(d + i * s[0]) = *(const T *)(x + i * s[2] + (int64_t) * (const I *)(ix + i * s[1]) * a->dim_stride)

#define GATHER_BY_INDEX(T)                 \
    do {                                   \
        if (a->i64) GATHER_LOOP(T, int64_t); \
        else GATHER_LOOP(T, int32_t);      \
    } while (0)

#define COPY_LOOP(T) for (int64_t i = 0; i < n; i++) *(T *)(d + i * s[0]) = *(const T *)(x + i * s[2])

/* operands: 0 out, 1 index, 2 t (dim stride 0) */
static void gather_run(char **p, const int64_t *s, int64_t n, void *arg)
{
    const GatherArg *a = arg;
    char *d = p[0];
    const char *ix = p[1], *x = p[2];
    if (s[1] == 0) {   /* one index for the whole run (index_select's rows): a plain strided copy */
        int64_t k = a->i64 ? *(const int64_t *)ix : *(const int32_t *)ix;
        x += k * a->dim_stride;
        if (s[0] == (int64_t)a->es && s[2] == (int64_t)a->es) {
            memcpy(d, x, (size_t)n * a->es);
            return;
        }
        switch (a->es) {
        case 1: COPY_LOOP(uint8_t); break;
        case 2: COPY_LOOP(uint16_t); break;
        case 4: COPY_LOOP(uint32_t); break;
        default: COPY_LOOP(uint64_t); break;
        }
        return;
    }
    switch (a->es) {
    case 1: GATHER_BY_INDEX(uint8_t); break;
    case 2: GATHER_BY_INDEX(uint16_t); break;
    case 4: GATHER_BY_INDEX(uint32_t); break;
    default: GATHER_BY_INDEX(uint64_t); break;
    }
}

/* out (new, of shape `shape`) = t at positions index (shape `shape`,
 * already checked) along d. */
static tk_status gather_into(tk_context *ctx, const char *op, const tk_tensor *t, int d, const tk_tensor *index, tk_tensor *out)
{
    int64_t st[TK_MAX_DIMS];
    memcpy(st, t->strides, sizeof st);
    if (t->ndim) st[d] = 0;
    tk_tensor src;
    tkr_alias(&src, t, out->ndim, out->shape, st, t->offset);
    TkrIter it;
    const tk_tensor *ops[3] = { out, index, &src };
    tk_status s = tkr_iter_init(ctx, op, &it, out->ndim, out->shape, 3, ops);
    if (s) return s;
    /* index operand 1 with no stride in a dim: the run's fast path */
    GatherArg a = { stride_at(t, d) * (int64_t)tk_dtype_size(t->dtype), tk_dtype_size(t->dtype), index->dtype == TK_DTYPE_I64 };
    tkr_iter_run(ctx, &it, gather_run, &a);
    return TK_OK;
}

tk_status tk_index_select(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, tk_tensor **out)
{
    const char *op = "tk_index_select";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s;
    if ((s = tkr_check_arg(ctx, op, "t", t)) || (s = tkr_check_arg(ctx, op, "index", index))) return s;
    if ((s = check_index_dtype(ctx, op, index))) return s;
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    char a[160];
    if (index->ndim > 1)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: index of shape %s has %d dims (expected a 1-d or 0-d index)", op, TKR_SHAPE(index, a),
                         index->ndim);
    int64_t k = tkr_numel(index->ndim, index->shape), bound = size_at(t, d);
    if (t->ndim == 0 && k != 1)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: a 0-d t takes an index of one entry, not %lld", op, (long long)k);
    if ((s = check_entries(ctx, op, index, bound, true, d, t))) return s;
    /* the entries made non-negative, as one contiguous i64 vector */
    tk_tensor *idx;
    if ((s = tkr_new(ctx, TK_DTYPE_I64, 1, &k, &idx))) return s;
    int64_t *ip = (int64_t *)tkr_ptr(idx);
    const char *src = tkr_ptr(index);
    int64_t step = index->ndim ? index->strides[0] : 0, es = (int64_t)tk_dtype_size(index->dtype);
    for (int64_t i = 0; i < k; i++) {
        const char *e = src + i * step * es;
        int64_t v = index->dtype == TK_DTYPE_I64 ? *(const int64_t *)e : *(const int32_t *)e;
        ip[i] = v < 0 ? v + bound : v;
    }
    int64_t sh[TK_MAX_DIMS], ist[TK_MAX_DIMS] = { 0 };
    memcpy(sh, t->shape, sizeof sh);
    if (t->ndim) sh[d] = k, ist[d] = 1;
    if ((s = tkr_new(ctx, t->dtype, t->ndim, sh, out))) {
        tk_tensor_release(idx);
        return s;
    }
    tk_tensor bidx;   /* the vector laid along dim, broadcast over the others */
    tkr_alias(&bidx, idx, t->ndim, sh, ist, idx->offset);
    s = gather_into(ctx, op, t, d, &bidx, *out);
    tk_tensor_release(idx);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

/* index's dims against t's (and src's): same count, no larger than t's
 * except along dim (no larger than src's anywhere). */
static tk_status check_index_shape(tk_context *ctx, const char *op, const tk_tensor *t, int d, const tk_tensor *index,
                                   const tk_tensor *src)
{
    char a[160], b[160];
    if (index->ndim != t->ndim)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: index of shape %s has %d dims, t of shape %s has %d", op, TKR_SHAPE(index, a), index->ndim,
                         TKR_SHAPE(t, b), t->ndim);
    if (src && src->ndim != t->ndim)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: src of shape %s has %d dims, t of shape %s has %d", op, TKR_SHAPE(src, a), src->ndim,
                         TKR_SHAPE(t, b), t->ndim);
    for (int k = 0; k < t->ndim; k++) {
        if (k != d && index->shape[k] > t->shape[k])
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: index of shape %s is larger than t's %s in dim %d", op, TKR_SHAPE(index, a),
                             TKR_SHAPE(t, b), k);
        if (src && index->shape[k] > src->shape[k])
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: index of shape %s is larger than src's %s in dim %d", op, TKR_SHAPE(index, a),
                             TKR_SHAPE(src, b), k);
    }
    return TK_OK;
}

tk_status tk_gather(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, tk_tensor **out)
{
    const char *op = "tk_gather";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s;
    if ((s = tkr_check_arg(ctx, op, "t", t)) || (s = tkr_check_arg(ctx, op, "index", index))) return s;
    if ((s = check_index_dtype(ctx, op, index))) return s;
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d)) || (s = check_index_shape(ctx, op, t, d, index, NULL))) return s;
    if ((s = check_entries(ctx, op, index, size_at(t, d), false, d, t))) return s;
    if ((s = tkr_new(ctx, t->dtype, index->ndim, index->shape, out))) return s;
    if ((s = gather_into(ctx, op, t, d, index, *out))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

/* ------------------------------------------------------------ scatter */

typedef struct {
    tk_dtype dtype;
    tk_scatter_reduce reduce;
    bool i64;
    int64_t count;                     /* index's size along dim */
    int64_t out_dim, idx_dim, src_dim;   /* byte strides along dim */
} ScatterArg;

static inline int64_t entry(const char *p, bool i64) { return i64 ? *(const int64_t *)p : *(const int32_t *)p; }

/* For each of the n columns, k runs along dim in order: a later duplicate
 * is applied after an earlier one. */
#define SCATTER_LOOP(T, UPDATE)                                                             \
    for (int64_t i = 0; i < n; i++) {                                                       \
        char *o = p[0] + i * s[0];                                                          \
        const char *ix = p[1] + i * s[1], *x = p[2] + i * s[2];                             \
        for (int64_t k = 0; k < a->count; k++) {                                            \
            T *dst = (T *)(o + entry(ix + k * a->idx_dim, a->i64) * a->out_dim);           \
            T v = *(const T *)(x + k * a->src_dim);                                         \
            UPDATE;                                                                         \
        }                                                                                   \
    }

#define SCATTER_ARITH(T)                                                   \
    do {                                                                   \
        if (a->reduce == TK_SCATTER_ADD) SCATTER_LOOP(T, *dst = *dst + v)   \
        else SCATTER_LOOP(T, *dst = *dst * v)                               \
    } while (0)

/* Integers as their unsigned type; 1u * keeps a 16-bit product unsigned (promoted to int, 65535² would overflow) */
#define SCATTER_UINT(T)                                                            \
    do {                                                                           \
        if (a->reduce == TK_SCATTER_ADD) SCATTER_LOOP(T, *dst = (T)(*dst + v))      \
        else SCATTER_LOOP(T, *dst = (T)(1u * *dst * v))                             \
    } while (0)

/* 16-bit floats combine in f32 and round once per update, as PyTorch's CPU loop */
#define SCATTER_HALF(TO, FROM)                                                              \
    do {                                                                                    \
        if (a->reduce == TK_SCATTER_ADD) SCATTER_LOOP(uint16_t, *dst = FROM(TO(*dst) + TO(v))) \
        else SCATTER_LOOP(uint16_t, *dst = FROM(TO(*dst) * TO(v)))                           \
    } while (0)

/* operands: 0 out (dim stride 0), 1 index, 2 src, shaped as index with dim of size 1 */
static void scatter_run(char **p, const int64_t *s, int64_t n, void *arg)
{
    const ScatterArg *a = arg;
    size_t es = tk_dtype_size(a->dtype);
    if (a->reduce == TK_SCATTER_NONE) {
        switch (es) {
        case 1: SCATTER_LOOP(uint8_t, *dst = v); break;
        case 2: SCATTER_LOOP(uint16_t, *dst = v); break;
        case 4: SCATTER_LOOP(uint32_t, *dst = v); break;
        default: SCATTER_LOOP(uint64_t, *dst = v); break;
        }
        return;
    }
    /* integers wrap (unsigned arithmetic gives two's complement bits without C's signed overflow) */
    switch (a->dtype) {
    case TK_DTYPE_F32: SCATTER_ARITH(float); break;
    case TK_DTYPE_F64: SCATTER_ARITH(double); break;
    case TK_DTYPE_BF16: SCATTER_HALF(tk_bf16_to_f32, tk_bf16_from_f32); break;
    case TK_DTYPE_F16: SCATTER_HALF(tk_f16_to_f32, tk_f16_from_f32); break;
    case TK_DTYPE_BOOL:   /* bool + is or, bool * is and, as PyTorch */
        if (a->reduce == TK_SCATTER_ADD) SCATTER_LOOP(uint8_t, *dst = (uint8_t)(*dst | v))
        else SCATTER_LOOP(uint8_t, *dst = (uint8_t)(*dst & v))
        break;
    case TK_DTYPE_I8: case TK_DTYPE_U8: SCATTER_UINT(uint8_t); break;
    case TK_DTYPE_I16: case TK_DTYPE_U16: SCATTER_UINT(uint16_t); break;
    case TK_DTYPE_I32: case TK_DTYPE_U32: SCATTER_UINT(uint32_t); break;
    default: SCATTER_UINT(uint64_t); break;   /* i64, u64 */
    }
}

tk_status tk_scatter(tk_context *ctx, const tk_tensor *t, int dim, const tk_tensor *index, const tk_tensor *src, tk_scatter_reduce reduce,
                     tk_tensor **out)
{
    const char *op = "tk_scatter";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s;
    if ((s = tkr_check_arg(ctx, op, "t", t)) || (s = tkr_check_arg(ctx, op, "index", index)) ||
        (s = tkr_check_arg(ctx, op, "src", src)))
        return s;
    if ((unsigned)reduce > TK_SCATTER_MUL)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: reduce %d is not a tk_scatter_reduce", op, (int)reduce);
    if ((s = check_index_dtype(ctx, op, index))) return s;
    if (src->dtype != t->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: src has dtype %s, t %s (they must match)", op, tk_dtype_name(src->dtype),
                         tk_dtype_name(t->dtype));
    if (reduce != TK_SCATTER_NONE && (s = tkr_lowp_no_arith(ctx, op, t->dtype))) return s;   /* adding or multiplying is arithmetic */
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d)) || (s = check_index_shape(ctx, op, t, d, index, src))) return s;
    if ((s = check_entries(ctx, op, index, size_at(t, d), false, d, t))) return s;
    if ((s = tkr_new(ctx, t->dtype, t->ndim, t->shape, out))) return s;
    tkr_copy_into(ctx, op, *out, t);
    /* the columns: index's shape with dim of size 1, over out, index and src */
    int64_t sh[TK_MAX_DIMS];
    memcpy(sh, index->shape, sizeof sh);
    if (t->ndim) sh[d] = 1;
    tk_tensor o, ix, x;
    tkr_alias(&o, *out, t->ndim, sh, (*out)->strides, (*out)->offset);
    tkr_alias(&ix, index, t->ndim, sh, index->strides, index->offset);
    tkr_alias(&x, src, t->ndim, sh, src->strides, src->offset);
    TkrIter it;
    const tk_tensor *ops[3] = { &o, &ix, &x };
    if ((s = tkr_iter_init(ctx, op, &it, t->ndim, sh, 3, ops))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    int64_t es = (int64_t)tk_dtype_size(t->dtype);
    ScatterArg a = { t->dtype, reduce, index->dtype == TK_DTYPE_I64, size_at(index, d), stride_at(*out, d) * es,
                     stride_at(index, d) * (int64_t)tk_dtype_size(index->dtype), stride_at(src, d) * es };
    if (tkr_numel(index->ndim, index->shape) > 0) tkr_iter_run(ctx, &it, scatter_run, &a);
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}
