/* op_reduce.c — ONNX reductions (Reduce*), ArgMax/ArgMin, CumSum/CumProd
 * and TopK on the runtime's reductions, scans and sort (runtime/ops/reduce.c,
 * scan.c, sort.c). ONNX keeps the input's element type where the runtime
 * widens (a sum of i32 is i64 there), so results are cast back.
 *
 * A Reduce* is three steps, as the ONNX reference computes it: an element-wise
 * part (|x| for L1, x² for SumSquare), the reduction over the axes, and a
 * final part (log for LogSum). With no axes and noop_with_empty_axes=1 only
 * the element-wise parts run (ReduceSumSquare of x is then x², as ONNX's
 * function body gives). A reduction over an empty set gives the reduction's
 * identity: 0 for sums, 1 for products, -inf / the type's lowest for Max,
 * log(0) = -inf for LogSum and LogSumExp, NaN for Mean. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "op.h"
#include "tk/ops.h"
#include "tk/shape.h"

typedef enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_L1, R_L2, R_LOGSUM, R_LOGSUMEXP, R_SUMSQUARE } ReduceKind;

/* The value a reduction over nothing gives, in dtype d. */
static double empty_value(ReduceKind k, tk_dtype d)
{
    bool is_int = !tk_dtype_is_float(d) && d != TK_DTYPE_BOOL;
    switch (k) {
    case R_PROD: return 1;
    case R_MEAN: return NAN;
    case R_LOGSUM: case R_LOGSUMEXP: return -INFINITY;
    case R_MAX:
        if (d == TK_DTYPE_BOOL) return 0;
        if (!is_int) return -INFINITY;
        return tkr_dtype_is_unsigned(d) ? 0 : d == TK_DTYPE_I8 ? INT8_MIN : d == TK_DTYPE_I16 ? INT16_MIN : d == TK_DTYPE_I32 ? INT32_MIN
                                                                                                           : (double)INT64_MIN;
    case R_MIN:
        if (d == TK_DTYPE_BOOL) return 1;
        if (!is_int) return INFINITY;
        if (d == TK_DTYPE_U64) return -1;   /* 2^64 - 1 is no double: -1 converts to it (floats wrap into u64) */
        return d == TK_DTYPE_U8 ? UINT8_MAX : d == TK_DTYPE_U16 ? UINT16_MAX : d == TK_DTYPE_U32 ? UINT32_MAX : d == TK_DTYPE_I8 ? INT8_MAX : d == TK_DTYPE_I16 ? INT16_MAX : d == TK_DTYPE_I32 ? INT32_MAX
                                                                                                                : (double)INT64_MAX;
    default: return 0;
    }
}

/* The reduction proper over dims (ndims > 0) of w, which holds no empty reduced set. */
static tk_status reduce_axes(tk_context *ctx, ReduceKind k, const tk_tensor *w, const int *dims, int ndims, bool keep,
                             tk_tensor **out)
{
    tk_reduce_opts o = { .dims = dims, .ndims = ndims, .keepdim = keep };
    switch (k) {
    case R_MEAN: return tk_reduce(ctx, TK_MEAN, w, &o, out);
    case R_MAX: return tk_reduce(ctx, TK_MAX, w, &o, out);
    case R_MIN: return tk_reduce(ctx, TK_MIN, w, &o, out);
    case R_PROD: return tk_reduce(ctx, TK_PROD, w, &o, out);
    case R_L2: o.p = 2; return tk_reduce(ctx, TK_NORM, w, &o, out);
    case R_LOGSUMEXP: return tk_reduce(ctx, TK_LOGSUMEXP, w, &o, out);
    default: return tk_reduce(ctx, TK_SUM, w, &o, out);   /* sum, L1, SumSquare, LogSum: their parts apart */
    }
}

/* reduce(kind) of x over dims (ndims 0: no reduction, the element-wise parts only), in x's dtype. */
static tk_status reduce(TkoOpCtx *oc, ReduceKind k, const tk_tensor *x, const int *dims, int ndims, bool keep, tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    tk_dtype d = tk_tensor_dtype(x);
    int nd = tk_tensor_ndim(x);
    const int64_t *shape = tk_tensor_shape(x);
    bool empty_set = false;
    for (int i = 0; i < ndims; i++) empty_set |= shape[dims[i]] == 0;
    if (empty_set) {
        int64_t oshape[TK_MAX_DIMS];
        int on = 0;
        for (int a = 0; a < nd; a++) {
            bool reduced = false;
            for (int i = 0; i < ndims; i++) reduced |= dims[i] == a;
            if (!reduced) oshape[on++] = shape[a];
            else if (keep) oshape[on++] = 1;
        }
        return tko_wrap(oc, tk_full(ctx, d, on, oshape, empty_value(k, d), out));
    }
    /* mean, norms and logs need floats: ints compute in f64 and are cast back (truncated, as the reference's astype) */
    bool needs_float = k == R_MEAN || k == R_L2 || k == R_LOGSUM || k == R_LOGSUMEXP;
    tk_tensor *w = NULL, *t = NULL;
    tk_status s = TK_OK;
    if (needs_float && !tk_dtype_is_float(d)) s = tk_to_dtype(ctx, x, TK_DTYPE_F64, &w);
    else w = tk_tensor_retain((tk_tensor *)x);
    /* the element-wise part before the reduction */
    if (!s && k == R_L1) s = tk_unary(ctx, TK_ABS, w, &t);
    else if (!s && k == R_SUMSQUARE) s = tk_mul(ctx, w, w, &t);
    else if (!s && k == R_L2 && ndims == 0) s = tk_unary(ctx, TK_ABS, w, &t);   /* sqrt(x²) */
    if (t) {
        tk_tensor_release(w);
        w = t, t = NULL;
    }
    if (!s && ndims > 0) s = reduce_axes(ctx, k, w, dims, ndims, keep, &t);
    else if (!s) s = tk_clone(ctx, w, &t);   /* outputs never alias inputs */
    tk_tensor_release(w);
    w = t, t = NULL;
    if (!s && k == R_LOGSUM) {
        s = tk_unary(ctx, TK_LOG, w, &t);
        tk_tensor_release(w);
        w = t, t = NULL;
    }
    if (s) {
        tk_tensor_release(w);
        return tko_wrap(oc, s);
    }
    *out = w;
    return tko_as_dtype(oc, out, d);
}

/* Reduce*: axes from the attribute (ReduceSum before 13, the others before 18)
 * or the optional second input; none reduces everything unless
 * noop_with_empty_axes. */
static tk_status run_reduce(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    ReduceKind k = (ReduceKind)n->def->arg;
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    bool axes_input = k == R_SUM ? n->opset >= 13 : n->opset >= 18;
    int64_t axes[TK_MAX_DIMS];
    int naxes = 0;
    tk_status s;
    if (axes_input) {
        if (oc->nin > 1 && oc->in[1] && (s = tko_input_ints(oc, 1, axes, TK_MAX_DIMS, &naxes))) return s;
    } else {
        const int64_t *a = tko_attr_ints(n, "axes", &naxes);
        if (naxes > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_SHAPE, "%d axes for a tensor of rank %d", naxes, nd);
        if (naxes) memcpy(axes, a, (size_t)naxes * sizeof *axes);
    }
    int dims[TK_MAX_DIMS];
    int ndims = 0;
    if (naxes == 0) {
        if (!(axes_input && tko_attr_int(n, "noop_with_empty_axes", 0)))
            for (int a = 0; a < nd; a++) dims[ndims++] = a;
    } else
        for (int i = 0; i < naxes; i++) {
            int a;
            if ((s = tko_axis(oc, axes[i], nd, &a))) return s;
            for (int j = 0; j < ndims; j++)
                if (dims[j] == a) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "axis %lld is listed twice", (long long)axes[i]);
            dims[ndims++] = a;
        }
    return reduce(oc, k, x, dims, ndims, tko_attr_int(n, "keepdims", 1) != 0, &oc->out[0]);
}

/* ArgMax/ArgMin: select_last_index reverses the axis, so the first of the
 * reversed is the last of the original: index n-1-i. */
static tk_status run_arg(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0];
    bool is_max = strcmp(n->op, "ArgMax") == 0, keep = tko_attr_int(n, "keepdims", 1) != 0;
    int axis;
    tk_status s = tko_axis(oc, tko_attr_int(n, "axis", 0), tk_tensor_ndim(x), &axis);
    if (s) return s;
    if (tk_tensor_ndim(x) == 0) return tko_fail(oc, TK_ERR_SHAPE, "the input is a scalar; it has no axis to search");
    if (tk_tensor_shape(x)[axis] == 0) return tko_fail(oc, TK_ERR_SHAPE, "axis %d of the input has size 0", axis);
    if (!tko_attr_int(n, "select_last_index", 0))
        return tko_wrap(oc, (is_max ? tk_argmax : tk_argmin)(ctx, x, axis, keep, &oc->out[0]));
    tk_tensor *flipped = NULL, *idx = NULL, *neg = NULL;
    s = tk_flip(ctx, x, &axis, 1, &flipped);
    if (!s) s = (is_max ? tk_argmax : tk_argmin)(ctx, flipped, axis, keep, &idx);
    if (!s) s = tk_binary_scalar(ctx, TK_MUL, idx, -1, &neg);
    if (!s) s = tk_binary_scalar(ctx, TK_ADD, neg, (double)(tk_tensor_shape(x)[axis] - 1), &oc->out[0]);
    tk_tensor_release(flipped), tk_tensor_release(idx), tk_tensor_release(neg);
    if (s) return tko_wrap(oc, s);
    return tko_as_dtype(oc, &oc->out[0], TK_DTYPE_I64);
}

/* CumSum/CumProd: reverse flips before and after; exclusive shifts the input
 * one place along the axis (the identity in front, the last element dropped),
 * so every partial is exact rather than a difference. */
static tk_status run_cumulative(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0];
    bool prod = strcmp(n->op, "CumProd") == 0;
    int nd = tk_tensor_ndim(x);
    int64_t ax;
    int count, axis;
    tk_status s = tko_input_ints(oc, 1, &ax, 1, &count);
    if (s) return s;
    if (count != 1) return tko_fail(oc, TK_ERR_SHAPE, "the axis input is empty");
    if (nd == 0) return tko_fail(oc, TK_ERR_SHAPE, "the input is a scalar; it has no axis to scan");
    if ((s = tko_axis(oc, ax, nd, &axis))) return s;
    bool reverse = tko_attr_int(n, "reverse", 0) != 0, exclusive = tko_attr_int(n, "exclusive", 0) != 0;
    tk_tensor *w = tk_tensor_retain((tk_tensor *)x), *t = NULL;
    if (reverse) {
        s = tk_flip(ctx, w, &axis, 1, &t);
        tk_tensor_release(w);
        w = t, t = NULL;
    }
    if (!s && exclusive && tk_tensor_shape(x)[axis] > 0) {
        int64_t pads[2 * TK_MAX_DIMS] = { 0 };
        int npads = nd - axis;   /* amounts for the trailing dims, the last first */
        pads[2 * (nd - 1 - axis)] = 1, pads[2 * (nd - 1 - axis) + 1] = -1;
        s = tk_pad(ctx, w, pads, 2 * npads, TK_PAD_CONSTANT, prod ? 1 : 0, &t);
        tk_tensor_release(w);
        w = t, t = NULL;
    }
    if (!s) s = (prod ? tk_cumprod : tk_cumsum)(ctx, w, axis, &t);
    tk_tensor_release(w);
    w = t, t = NULL;
    if (!s) s = tko_as_dtype(oc, &w, tk_tensor_dtype(x));
    else s = tko_wrap(oc, s);
    if (!s && reverse) {
        s = tko_wrap(oc, tk_flip(ctx, w, &axis, 1, &t));
        tk_tensor_release(w);
        w = t, t = NULL;
    }
    if (s) {
        tk_tensor_release(w);
        return s;
    }
    oc->out[0] = w;
    return TK_OK;
}

/* TopK: k from the attribute (opset 1) or the K input. Results are always
 * sorted (sorted=0 leaves the order to the runtime; sorting is one valid
 * order) and ties take the lower index first, as ONNX asks. */
static tk_status run_topk(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0];
    int64_t k = tko_attr_int(n, "k", 0);
    int count, axis;
    tk_status s;
    if (n->opset >= 10) {
        if ((s = tko_input_ints(oc, 1, &k, 1, &count))) return s;
        if (count != 1) return tko_fail(oc, TK_ERR_SHAPE, "the K input is empty");
    }
    if (tk_tensor_ndim(x) == 0) return tko_fail(oc, TK_ERR_SHAPE, "the input is a scalar; it has no axis");
    if ((s = tko_axis(oc, tko_attr_int(n, "axis", -1), tk_tensor_ndim(x), &axis))) return s;
    if (k < 0 || k > tk_tensor_shape(x)[axis])
        return tko_fail(oc, TK_ERR_INDEX, "k=%lld is outside 0..%lld (the size of axis %d)", (long long)k,
                        (long long)tk_tensor_shape(x)[axis], axis);
    tk_topk_opts o = { .smallest = tko_attr_int(n, "largest", 1) == 0 };
    return tko_wrap(oc, tk_topk(oc->ctx, x, k, axis, &o, oc->nout > 0 ? &oc->out[0] : NULL, oc->nout > 1 ? &oc->out[1] : NULL));
}

#define REDUCE_ROWS(name, kind, axes_since)                                                           \
    OPDEF(name, 1, axes_since - 1, "axes,keepdims", run_reduce, NULL, 1, 1, kind),                   \
    OPDEF(name, axes_since, TKO_ANY, "keepdims,noop_with_empty_axes", run_reduce, NULL, 1, 2, kind)

static const TkoOpDef defs[] = {
    REDUCE_ROWS("ReduceSum", R_SUM, 13),
    REDUCE_ROWS("ReduceMean", R_MEAN, 18),
    REDUCE_ROWS("ReduceMax", R_MAX, 18),
    REDUCE_ROWS("ReduceMin", R_MIN, 18),
    REDUCE_ROWS("ReduceProd", R_PROD, 18),
    REDUCE_ROWS("ReduceL1", R_L1, 18),
    REDUCE_ROWS("ReduceL2", R_L2, 18),
    REDUCE_ROWS("ReduceLogSum", R_LOGSUM, 18),
    REDUCE_ROWS("ReduceLogSumExp", R_LOGSUMEXP, 18),
    REDUCE_ROWS("ReduceSumSquare", R_SUMSQUARE, 18),
    OPDEF("ArgMax", 1, TKO_ANY, "axis,keepdims,select_last_index", run_arg, NULL, 1, 1, 0),
    OPDEF("ArgMin", 1, TKO_ANY, "axis,keepdims,select_last_index", run_arg, NULL, 1, 1, 0),
    OPDEF("CumSum", 11, TKO_ANY, "exclusive,reverse", run_cumulative, NULL, 2, 2, 0),
    OPDEF("CumProd", 26, TKO_ANY, "exclusive,reverse", run_cumulative, NULL, 2, 2, 0),
    OPDEF("TopK", 1, 9, "axis,k", run_topk, NULL, 1, 1, 0),
    OPDEF("TopK", 10, 10, "axis", run_topk, NULL, 2, 2, 0),
    OPDEF("TopK", 11, TKO_ANY, "axis,largest,sorted", run_topk, NULL, 2, 2, 0),
};

TKO_FAMILY_OF(tko_ops_reduce, defs);
