/* op_index.c — ONNX ops that read a tensor at positions another tensor
 * holds: Gather and GatherElements (on the runtime's index_select and
 * gather), GatherND, OneHot, Compress and NonZero (loops here: the runtime
 * has no op for them). ONNX indices may be negative (counted from the end);
 * an index out of range is an error naming its position. */
#include <math.h>
#include <string.h>

#include "op_shape_ops.h"
#include "tk/ops.h"
#include "tk/shape.h"

static bool is_index_dtype(tk_dtype d) { return d == TK_DTYPE_I32 || d == TK_DTYPE_I64; }

/* Input i's entries as a new contiguous i64 tensor, each in [-bound, bound)
 * made non-negative; an error naming the first entry out of range. */
static tk_status indices_in_range(TkoOpCtx *oc, int i, int64_t bound, tk_tensor **out)
{
    *out = NULL;
    const tk_tensor *t = oc->in[i];
    if (!is_index_dtype(tk_tensor_dtype(t)))
        return tko_fail(oc, TK_ERR_DTYPE, "input %d holds %s (indices are int32 or int64)", i, tk_dtype_name(tk_tensor_dtype(t)));
    tk_tensor *c;
    tk_status s = tko_wrap(oc, tk_to_dtype(oc->ctx, t, TK_DTYPE_I64, &c));
    if (s) return s;
    int64_t *v = (int64_t *)tkr_ptr(c), n = tk_tensor_numel(c);
    for (int64_t k = 0; k < n; k++) {
        if (v[k] < -bound || v[k] >= bound) {
            int64_t bad = v[k];
            tk_tensor_release(c);
            char a[160], b[160];
            return tko_fail(oc, TK_ERR_INDEX, "input %d (shape %s) has entry %lld (flat) = %lld, outside [%lld, %lld) for data of shape %s", i,
                            tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), a, sizeof a), (long long)k, (long long)bad,
                            (long long)-bound, (long long)bound, tkr_shape_str(tk_tensor_ndim(oc->in[0]), tk_tensor_shape(oc->in[0]), b, sizeof b));
        }
        if (v[k] < 0) v[k] += bound;
    }
    *out = c;
    return TK_OK;
}

/* ------------------------------------------------------------ Gather, GatherElements */

/* Gather: out = data[..., indices, ...] along axis; the indices' shape
 * replaces that dim (index_select on the flattened indices, reshaped). */
tk_status tko_run_gather(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *ind = oc->in[1];
    int nd = tk_tensor_ndim(x), qd = tk_tensor_ndim(ind), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), nd, &axis);
    if (s) return s;
    if (!is_index_dtype(tk_tensor_dtype(ind)))
        return tko_fail(oc, TK_ERR_DTYPE, "indices are %s (int32 or int64 are required)", tk_dtype_name(tk_tensor_dtype(ind)));
    int out_nd = nd - 1 + qd;
    if (out_nd > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "the result would have %d dims (at most %d)", out_nd, TK_MAX_DIMS);
    int64_t shape[TK_MAX_DIMS], k = tk_tensor_numel(ind);
    int m = 0;
    for (int d = 0; d < axis; d++) shape[m++] = tk_tensor_shape(x)[d];
    for (int d = 0; d < qd; d++) shape[m++] = tk_tensor_shape(ind)[d];
    for (int d = axis + 1; d < nd; d++) shape[m++] = tk_tensor_shape(x)[d];
    tk_tensor *flat = NULL, *picked = NULL;
    s = tk_reshape(oc->ctx, ind, 1, &k, &flat);
    if (!s) s = tk_index_select(oc->ctx, x, axis, flat, &picked);
    if (!s) s = tk_reshape(oc->ctx, picked, out_nd, shape, &oc->out[0]);
    tk_tensor_release(flat);
    tk_tensor_release(picked);
    return tko_wrap(oc, s);
}

/* GatherElements: torch.gather, after negative indices are made positive. */
tk_status tko_run_gather_elements(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), tk_tensor_ndim(x), &axis);
    if (s) return s;
    tk_tensor *idx;
    if ((s = indices_in_range(oc, 1, tk_tensor_shape(x)[axis], &idx))) return s;
    s = tko_wrap(oc, tk_gather(oc->ctx, x, axis, idx, &oc->out[0]));
    tk_tensor_release(idx);
    return s;
}

/* ------------------------------------------------------------ GatherND */

typedef struct {
    const char *src;
    char *dst;
    const int64_t *offsets;   /* per row, the source element offset */
    int64_t slice_bytes;
} RowCopy;

static void copy_rows(int64_t begin, int64_t end, void *arg)
{
    const RowCopy *a = arg;
    for (int64_t r = begin; r < end; r++) memcpy(a->dst + r * a->slice_bytes, a->src + a->offsets[r], (size_t)a->slice_bytes);
}

/* GatherND: each row of the indices' last dim (k entries) picks the slice
 * data[batch..., i0, ..., ik-1] (the first batch_dims dims shared by data
 * and indices). Offsets are computed and checked first, then the slices are
 * copied on the context's threads (a pure copy: any split gives the same). */
tk_status tko_run_gather_nd(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *ind = oc->in[1];
    int r = tk_tensor_ndim(x), q = tk_tensor_ndim(ind);
    int64_t b = tko_attr_int(oc->node, "batch_dims", 0);
    const int64_t *xs = tk_tensor_shape(x), *is = tk_tensor_shape(ind);
    if (!is_index_dtype(tk_tensor_dtype(ind)))
        return tko_fail(oc, TK_ERR_DTYPE, "indices are %s (int32 or int64 are required)", tk_dtype_name(tk_tensor_dtype(ind)));
    if (q < 1 || r < 1 || b < 0 || b >= q || b >= r)
        return tko_fail(oc, TK_ERR_SHAPE, "data rank %d, indices rank %d and batch_dims %lld do not fit (batch_dims below both ranks)", r, q, (long long)b);
    int64_t k = is[q - 1];
    if (k < 1 || k > r - b) return tko_fail(oc, TK_ERR_SHAPE, "index rows of %lld entries for data rank %d with batch_dims %lld", (long long)k, r, (long long)b);
    for (int d = 0; d < b; d++)
        if (xs[d] != is[d])
            return tko_fail(oc, TK_ERR_SHAPE, "batch dim %d is %lld in data but %lld in indices", d, (long long)xs[d], (long long)is[d]);
    int out_nd = q - 1 + r - (int)(b + k);
    if (out_nd > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "the result would have %d dims (at most %d)", out_nd, TK_MAX_DIMS);
    int64_t shape[TK_MAX_DIMS], slice = 1, rows = 1, batches = 1, batch_stride = 1, strides[TK_MAX_DIMS];
    int m = 0;
    for (int d = 0; d < q - 1; d++) shape[m++] = is[d], rows *= is[d];
    for (int d = (int)(b + k); d < r; d++) shape[m++] = xs[d], slice *= xs[d];
    for (int d = 0; d < b; d++) batches *= is[d];
    for (int d = r - 1; d >= b; d--) {   /* element strides of the contiguous data below the batch dims */
        strides[d] = batch_stride;
        batch_stride *= xs[d];
    }
    tk_tensor *idx = NULL, *src = NULL, *offs = NULL;
    tk_status s = tko_wrap(oc, tk_to_dtype(oc->ctx, ind, TK_DTYPE_I64, &idx));
    if (!s) s = tko_wrap(oc, tk_contiguous(oc->ctx, x, &src));
    if (!s) s = tko_wrap(oc, tk_empty(oc->ctx, TK_DTYPE_I64, 1, &rows, &offs));
    if (!s) s = tko_wrap(oc, tk_empty(oc->ctx, tk_tensor_dtype(x), out_nd, shape, &oc->out[0]));
    int64_t es = (int64_t)tk_dtype_size(tk_tensor_dtype(x));
    if (!s) {
        const int64_t *iv = (const int64_t *)tkr_ptr(idx);
        int64_t *ov = (int64_t *)tkr_ptr(offs), per_batch = batches ? rows / batches : 0;
        for (int64_t row = 0; row < rows && !s; row++) {
            int64_t off = (per_batch ? row / per_batch : 0) * batch_stride;
            for (int64_t j = 0; j < k; j++) {
                int64_t v = iv[row * k + j], dim = xs[b + j];
                if (v < -dim || v >= dim) {
                    char a[160];
                    s = tko_fail(oc, TK_ERR_INDEX, "index row %lld, entry %lld is %lld, outside [%lld, %lld) for data of shape %s", (long long)row,
                                 (long long)j, (long long)v, (long long)-dim, (long long)dim, tkr_shape_str(r, xs, a, sizeof a));
                    break;
                }
                off += (v < 0 ? v + dim : v) * strides[b + j];
            }
            ov[row] = off * es;
        }
    }
    if (!s && slice) {
        RowCopy a = { tkr_ptr(src), tkr_ptr(oc->out[0]), (const int64_t *)tkr_ptr(offs), slice * es };
        tkr_parallel_for(oc->ctx, rows, slice >= 4096 ? 1 : 4096 / slice, copy_rows, &a);
    }
    tk_tensor_release(idx);
    tk_tensor_release(src);
    tk_tensor_release(offs);
    if (s) {
        tk_tensor_release(oc->out[0]);
        oc->out[0] = NULL;
    }
    return s;
}

/* ------------------------------------------------------------ OneHot */

/* OneHot: a new dim of size depth at axis; off_value everywhere except
 * at each index (negatives count from depth; out of range: none). */
tk_status tko_run_one_hot(TkoOpCtx *oc)
{
    const tk_tensor *ind = oc->in[0], *vals = oc->in[2];
    double depth_f;
    tk_status s = tko_input_scalar(oc, 1, &depth_f);
    if (s) return s;
    if (!(depth_f >= 1) || depth_f > 1e15) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "depth %g is not a positive count", depth_f);
    if (tk_tensor_numel(vals) != 2) return tko_fail(oc, TK_ERR_SHAPE, "values has %lld elements ([off, on] is required)", (long long)tk_tensor_numel(vals));
    int64_t depth = (int64_t)depth_f;
    int q = tk_tensor_ndim(ind), axis;
    if (q + 1 > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "the result would have %d dims (at most %d)", q + 1, TK_MAX_DIMS);
    if ((s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), q + 1, &axis))) return s;
    int64_t shape[TK_MAX_DIMS], inner = 1;
    for (int d = 0, m = 0; d <= q; d++) shape[d] = d == axis ? depth : tk_tensor_shape(ind)[m++];
    for (int d = axis; d < q; d++) inner *= tk_tensor_shape(ind)[d];
    tk_dtype dt = tk_tensor_dtype(vals);
    tk_tensor *v = NULL, *iv = NULL, *out = NULL;
    int64_t es = (int64_t)tk_dtype_size(dt);
    s = tko_wrap(oc, tk_contiguous(oc->ctx, vals, &v));
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, ind, TK_DTYPE_F64, &iv));
    if (!s) s = tko_wrap(oc, tk_empty(oc->ctx, dt, q + 1, shape, &out));
    if (!s) {
        const char *off = tkr_ptr(v), *on = off + es;
        char *p = tkr_ptr(out);
        int64_t total = tk_tensor_numel(out), n = tk_tensor_numel(iv);
        tko_fill_element(p, total, off, (size_t)es);
        const double *idx = (const double *)tkr_ptr(iv);
        for (int64_t e = 0; e < n; e++) {
            double f = idx[e] < 0 ? idx[e] + (double)depth : idx[e];
            if (!(f >= 0 && f < (double)depth) || f != floor(f)) continue;
            int64_t outer = e / inner, in = e % inner;
            memcpy(p + ((outer * depth + (int64_t)f) * inner + in) * es, on, (size_t)es);
        }
        oc->out[0] = out;
    }
    tk_tensor_release(v);
    tk_tensor_release(iv);
    return s;
}

/* ------------------------------------------------------------ Compress, NonZero */

/* Compress: the slices along axis (of the flattened input without one)
 * whose condition entry is true; condition may be shorter than the dim. */
tk_status tko_run_compress(TkoOpCtx *oc)
{
    const tk_tensor *cond = oc->in[1];
    tk_tensor *x = NULL, *c = NULL, *idx = NULL;
    int axis = 0;
    tk_status s;
    if (tko_attr(oc->node, "axis")) {
        x = tk_tensor_retain(oc->in[0]);
        s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), tk_tensor_ndim(x), &axis);
    } else {
        int64_t n = tk_tensor_numel(oc->in[0]);
        s = tko_wrap(oc, tk_reshape(oc->ctx, oc->in[0], 1, &n, &x));
    }
    if (!s && tk_tensor_ndim(cond) != 1) s = tko_fail(oc, TK_ERR_SHAPE, "condition has rank %d (1 is required)", tk_tensor_ndim(cond));
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, cond, TK_DTYPE_BOOL, &c));
    int64_t len = s ? 0 : tk_tensor_numel(c), dim = s ? 0 : tk_tensor_shape(x)[axis], picked = 0;
    if (!s) s = tko_wrap(oc, tk_empty(oc->ctx, TK_DTYPE_I64, 1, &len, &idx));
    if (!s) {
        const bool *cv = (const bool *)tkr_ptr(c);
        int64_t *iv = (int64_t *)tkr_ptr(idx);
        for (int64_t i = 0; i < len && !s; i++) {
            if (!cv[i]) continue;
            if (i >= dim) s = tko_fail(oc, TK_ERR_INDEX, "condition[%lld] is true but the axis has size %lld", (long long)i, (long long)dim);
            iv[picked++] = i;
        }
    }
    tk_tensor *used = NULL;
    if (!s) s = tko_wrap(oc, tk_slice(oc->ctx, idx, 0, 0, picked, 1, &used));
    if (!s) s = tko_wrap(oc, tk_index_select(oc->ctx, x, axis, used, &oc->out[0]));
    tk_tensor_release(x), tk_tensor_release(c), tk_tensor_release(idx), tk_tensor_release(used);
    return s;
}

/* NonZero: the coordinates of the non-zero elements, [rank, count] int64,
 * in row-major order (a 0-d input counts as one dim, as NumPy). */
tk_status tko_run_non_zero(TkoOpCtx *oc)
{
    tk_tensor *x = NULL, *out = NULL;
    tk_status s = tko_wrap(oc, tk_to_dtype(oc->ctx, oc->in[0], TK_DTYPE_BOOL, &x));
    if (s) return s;
    int nd = tk_tensor_ndim(x), rank = nd ? nd : 1;
    int64_t n = tk_tensor_numel(x), count = 0;
    const bool *v = (const bool *)tkr_ptr(x);
    for (int64_t i = 0; i < n; i++) count += v[i];
    if (!(s = tko_wrap(oc, tk_empty(oc->ctx, TK_DTYPE_I64, 2, (int64_t[]){ rank, count }, &out)))) {
        int64_t *o = (int64_t *)tkr_ptr(out), j = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!v[i]) continue;
            for (int64_t rem = i, d = nd - 1; d >= 0; d--) {
                o[d * count + j] = rem % tk_tensor_shape(x)[d];
                rem /= tk_tensor_shape(x)[d];
            }
            if (!nd) o[j] = 0;
            j++;
        }
        oc->out[0] = out;
    }
    tk_tensor_release(x);
    return s;
}

/* ------------------------------------------------------------ ScatterElements, Scatter, ScatterND */

typedef enum { RED_NONE, RED_ADD, RED_MUL, RED_MAX, RED_MIN } Reduction;

static Reduction reduction_of(const TkoNode *n)
{
    const char *r = tko_attr_string(n, "reduction", "none");
    return strcmp(r, "add") == 0 ? RED_ADD : strcmp(r, "mul") == 0 ? RED_MUL : strcmp(r, "max") == 0 ? RED_MAX
         : strcmp(r, "min") == 0 ? RED_MIN : RED_NONE;
}

const char *tko_check_scatter(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *r = tko_attr_string(n, "reduction", "none");
    bool ok = !strcmp(r, "none") || !strcmp(r, "add") || !strcmp(r, "mul") || (n->opset >= 18 && (!strcmp(r, "max") || !strcmp(r, "min")));
    if (!ok) {
        snprintf(why, len, "reduction='%s' is not supported (none, add, mul%s are)", r, n->opset >= 18 ? ", max, min" : "");
        return why;
    }
    return NULL;
}

/* *dst = reduce(*dst, *src) for n elements of dtype dt. Integers wrap (as
 * NumPy), bool + is or and * is and; floats go through double, exact for
 * f32/f64 and rounded once for f16/bf16 as the reference's own arithmetic. */
static void combine(char *dst, const char *src, int64_t n, tk_dtype dt, Reduction r)
{
    int64_t es = (int64_t)tk_dtype_size(dt);
    if (r == RED_NONE) {
        memcpy(dst, src, (size_t)(n * es));
        return;
    }
    bool fl = tk_dtype_is_float(dt);
    for (int64_t i = 0; i < n; i++, dst += es, src += es) {
        if (fl) {
            double a = tkr_load_f(dst, dt), b = tkr_load_f(src, dt);
            double v = r == RED_ADD ? a + b : r == RED_MUL ? a * b : r == RED_MAX ? (b > a || isnan(b) ? b : a) : (b < a || isnan(b) ? b : a);
            tkr_store_f(dst, dt, v);
        } else {
            int64_t a = tkr_load_i(dst, dt), b = tkr_load_i(src, dt);
            /* u64 reads as its bit pattern: compare with the top bits flipped, so as unsigned */
            int64_t flip = dt == TK_DTYPE_U64 ? INT64_MIN : 0, fa = a ^ flip, fb = b ^ flip;
            int64_t v = r == RED_ADD ? (int64_t)((uint64_t)a + (uint64_t)b) : r == RED_MUL ? (int64_t)((uint64_t)a * (uint64_t)b)
                      : r == RED_MAX ? (fb > fa ? b : a) : (fb < fa ? b : a);
            if (dt == TK_DTYPE_BOOL && r == RED_MUL) v = a && b;
            tkr_store_i(dst, dt, v);
        }
    }
}

/* The output (a contiguous copy of data) and updates made contiguous. */
static tk_status scatter_start(TkoOpCtx *oc, tk_tensor **out, tk_tensor **upd)
{
    *out = *upd = NULL;
    if (tk_tensor_dtype(oc->in[2]) != tk_tensor_dtype(oc->in[0]))
        return tko_fail(oc, TK_ERR_DTYPE, "updates are %s, data is %s", tk_dtype_name(tk_tensor_dtype(oc->in[2])),
                        tk_dtype_name(tk_tensor_dtype(oc->in[0])));
    tk_status s = tko_wrap(oc, tk_clone(oc->ctx, oc->in[0], out));
    if (!s) s = tko_wrap(oc, tk_contiguous(oc->ctx, oc->in[2], upd));
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
    }
    return s;
}

/* ScatterElements (and the older Scatter): out = data, then for every
 * index position p, out[p with p[axis] = index[p]] reduced with updates[p],
 * duplicates in index order along axis. None, add and mul are the runtime's
 * tk_scatter (which keeps that order on any thread count); max and min a
 * serial loop here in row-major order. */
tk_status tko_run_scatter_elements(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *ind = oc->in[1];
    int nd = tk_tensor_ndim(x), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), nd, &axis);
    if (s) return s;
    char a[160], b[160];
    bool fits = tk_tensor_ndim(ind) == nd && tk_tensor_ndim(oc->in[2]) == nd;
    for (int d = 0; fits && d < nd; d++)
        fits = tk_tensor_shape(ind)[d] == tk_tensor_shape(oc->in[2])[d] && (d == axis || tk_tensor_shape(ind)[d] <= tk_tensor_shape(x)[d]);
    if (!fits)
        return tko_fail(oc, TK_ERR_SHAPE, "indices of shape %s do not fit data of shape %s (updates must have the indices' shape)",
                        tkr_shape_str(tk_tensor_ndim(ind), tk_tensor_shape(ind), a, sizeof a), tkr_shape_str(nd, tk_tensor_shape(x), b, sizeof b));
    tk_tensor *idx, *out, *upd;
    if ((s = indices_in_range(oc, 1, tk_tensor_shape(x)[axis], &idx))) return s;
    Reduction r = oc->node->opset >= 16 ? reduction_of(oc->node) : RED_NONE;
    if (r == RED_NONE || r == RED_ADD || r == RED_MUL) {   /* the runtime's scatter: typed, parallel over columns, same order */
        tk_scatter_reduce how = r == RED_ADD ? TK_SCATTER_ADD : r == RED_MUL ? TK_SCATTER_MUL : TK_SCATTER_NONE;
        s = tk_tensor_dtype(oc->in[2]) != tk_tensor_dtype(x)
                ? tko_fail(oc, TK_ERR_DTYPE, "updates are %s, data is %s", tk_dtype_name(tk_tensor_dtype(oc->in[2])), tk_dtype_name(tk_tensor_dtype(x)))
                : tko_wrap(oc, tk_scatter(oc->ctx, x, axis, idx, oc->in[2], how, &oc->out[0]));
        tk_tensor_release(idx);
        return s;
    }
    if ((s = scatter_start(oc, &out, &upd))) {
        tk_tensor_release(idx);
        return s;
    }
    tk_dtype dt = tk_tensor_dtype(x);
    int64_t es = (int64_t)tk_dtype_size(dt), n = tk_tensor_numel(idx), strides[TK_MAX_DIMS], acc = 1;
    for (int d = nd - 1; d >= 0; d--) strides[d] = acc, acc *= tk_tensor_shape(x)[d];
    const int64_t *iv = (const int64_t *)tkr_ptr(idx), *is = tk_tensor_shape(idx);
    char *dst = tkr_ptr(out);
    const char *src = tkr_ptr(upd);
    for (int64_t e = 0; e < n; e++) {
        int64_t off = 0;
        for (int64_t rem = e, d = nd - 1; d >= 0; d--) {
            int64_t c = rem % is[d];
            rem /= is[d];
            off += (d == axis ? iv[e] : c) * strides[d];
        }
        combine(dst + off * es, src + e * es, 1, dt, r);
    }
    tk_tensor_release(idx);
    tk_tensor_release(upd);
    oc->out[0] = out;
    return TK_OK;
}

/* ScatterND: out = data, then each index row (its last dim, k entries)
 * names a slice out[i0, ..., ik-1] reduced with the matching updates slice,
 * rows in order (serial: duplicates apply in index order). */
tk_status tko_run_scatter_nd(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0], *ind = oc->in[1], *u = oc->in[2];
    int r = tk_tensor_ndim(x), q = tk_tensor_ndim(ind);
    const int64_t *xs = tk_tensor_shape(x), *is = tk_tensor_shape(ind);
    if (!is_index_dtype(tk_tensor_dtype(ind)))
        return tko_fail(oc, TK_ERR_DTYPE, "indices are %s (int32 or int64 are required)", tk_dtype_name(tk_tensor_dtype(ind)));
    if (q < 1 || r < 1) return tko_fail(oc, TK_ERR_SHAPE, "data rank %d and indices rank %d (both at least 1 are required)", r, q);
    int64_t k = is[q - 1];
    char a[160], b[160], c[160];
    bool fits = k >= 1 && k <= r && tk_tensor_ndim(u) == q - 1 + r - (int)k;
    for (int d = 0; fits && d < tk_tensor_ndim(u); d++) fits = tk_tensor_shape(u)[d] == (d < q - 1 ? is[d] : xs[d - (q - 1) + k]);
    if (!fits)
        return tko_fail(oc, TK_ERR_SHAPE, "updates of shape %s do not fit indices of shape %s and data of shape %s",
                        tkr_shape_str(tk_tensor_ndim(u), tk_tensor_shape(u), a, sizeof a), tkr_shape_str(q, is, b, sizeof b),
                        tkr_shape_str(r, xs, c, sizeof c));
    tk_tensor *idx = NULL, *out, *upd;
    tk_status s = scatter_start(oc, &out, &upd);
    if (s) return s;
    if ((s = tko_wrap(oc, tk_to_dtype(oc->ctx, ind, TK_DTYPE_I64, &idx)))) {
        tk_tensor_release(out), tk_tensor_release(upd);
        return s;
    }
    Reduction red = oc->node->opset >= 16 ? reduction_of(oc->node) : RED_NONE;
    tk_dtype dt = tk_tensor_dtype(x);
    int64_t es = (int64_t)tk_dtype_size(dt), strides[TK_MAX_DIMS], slice = 1, acc = 1, rows = tk_tensor_numel(idx) / k;
    for (int d = r - 1; d >= 0; d--) {
        strides[d] = acc, acc *= xs[d];
        if (d >= k) slice *= xs[d];
    }
    const int64_t *iv = (const int64_t *)tkr_ptr(idx);
    for (int64_t row = 0; row < rows && !s; row++) {   /* every row checked before anything is written */
        for (int64_t j = 0; j < k; j++) {
            int64_t v = iv[row * k + j];
            if (v < -xs[j] || v >= xs[j]) {
                s = tko_fail(oc, TK_ERR_INDEX, "index row %lld, entry %lld is %lld, outside [%lld, %lld) for data of shape %s", (long long)row,
                             (long long)j, (long long)v, (long long)-xs[j], (long long)xs[j], tkr_shape_str(r, xs, a, sizeof a));
                break;
            }
        }
    }
    for (int64_t row = 0; row < rows && !s; row++) {
        int64_t off = 0;
        for (int64_t j = 0; j < k; j++) {
            int64_t v = iv[row * k + j];
            off += (v < 0 ? v + xs[j] : v) * strides[j];
        }
        combine(tkr_ptr(out) + off * es, tkr_ptr(upd) + row * slice * es, slice, dt, red);
    }
    tk_tensor_release(idx);
    tk_tensor_release(upd);
    if (s) tk_tensor_release(out);
    else oc->out[0] = out;
    return s;
}
