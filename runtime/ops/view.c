/* view.c — the VIEW calls of tk/shape.h: reshape/view, permute, transpose,
 * slice, select, expand, squeeze, unsqueeze, flatten, split, chunk, and
 * contiguous. Each computes a new geometry (shape, strides, offset) over the
 * input's storage and makes it with tkr_view; only tk_reshape, tk_flatten and
 * tk_contiguous copy, and only when no view can express the result. */
#include "shape_util.h"

static tk_status begin_t(tk_context *ctx, const char *op, const tk_tensor *t, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    return tkr_check_device_arg(ctx, op, "t", t);   /* views are geometry alone: any device */
}

/* The end of a view call: on success the message is cleared and the call
 * recorded in the profile (t0 from tkr_op_start at its start). */
static tk_status finish(tk_context *ctx, const char *op, double t0, tk_status s)
{
    if (s) return s;
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

/* ------------------------------------------------------------ reshape / view */

/* Checks shape and resolves one -1 against numel into out_shape. */
static tk_status infer_shape(tk_context *ctx, const char *op, const tk_tensor *t, int ndim, const int64_t *shape, int64_t *out_shape)
{
    if (ndim < 0 || ndim > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %d dims (a tensor has 0 .. %d)", op, ndim, TK_MAX_DIMS);
    if (ndim > 0 && !shape) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shape is NULL for %d dims", op, ndim);
    int infer = -1;
    int64_t known = 1, numel = tkr_numel(t->ndim, t->shape);
    char a[160], b[160];
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == -1) {
            if (infer >= 0)
                return tkr_error(ctx, TK_ERR_SHAPE, "%s: shape %s has more than one -1", op, tkr_shape_str(ndim, shape, b, sizeof b));
            infer = i;
        } else if (shape[i] < 0) {
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: size %lld of dim %d in shape %s is negative", op, (long long)shape[i], i,
                             tkr_shape_str(ndim, shape, b, sizeof b));
        } else {
            /* saturates: a product past INT64_MAX cannot match numel unless a later size is 0 */
            if (__builtin_mul_overflow(known, shape[i], &known)) known = INT64_MAX;
        }
        out_shape[i] = shape[i];
    }
    if (infer >= 0) {
        if (known == 0 || numel % known)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: shape %s is invalid for a tensor of shape %s (%lld elements)%s", op,
                             tkr_shape_str(ndim, shape, b, sizeof b), TKR_SHAPE(t, a), (long long)numel,
                             known == 0 ? ": the -1 could be any size" : "");
        out_shape[infer] = numel / known;
    } else if (known != numel) {
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: shape %s is invalid for a tensor of shape %s (%lld elements)", op,
                         tkr_shape_str(ndim, shape, b, sizeof b), TKR_SHAPE(t, a), (long long)numel);
    }
    return TK_OK;
}

/* PyTorch's computeStride: strides that let new_shape view t's elements in
 * row-major order, or false. Dims of t are split into runs ("chunks") that
 * are contiguous with each other; the new dims must regroup each chunk
 * exactly, so dims merge only inside a chunk and split anywhere. */
static bool view_strides(const tk_tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t numel = tkr_numel(t->ndim, t->shape);
    if (numel == 0 || t->ndim == 0) {
        /* any strides address an empty tensor or a single element: use contiguous ones
         * (or t's own when the shape is unchanged, as PyTorch) */
        if (numel == 0 && ndim == t->ndim && !memcmp(shape, t->shape, (size_t)ndim * sizeof *shape))
            memcpy(strides, t->strides, (size_t)ndim * sizeof *strides);
        else tkr_contiguous_strides(ndim, shape, strides);
        return true;
    }
    int view_d = ndim - 1;
    int64_t chunk_base = t->strides[t->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        tensor_numel *= t->shape[d];
        /* a chunk ends at dim 0 or where the next outer dim does not continue it */
        if (d == 0 || (t->shape[d - 1] != 1 && t->strides[d - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base;
                view_numel *= shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (d > 0) {
                chunk_base = t->strides[d - 1];
                tensor_numel = view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

/* Shared by tk_reshape, tk_view and tk_flatten: a view when the strides
 * allow it; otherwise a contiguous copy viewed as the shape (copy true) or
 * an error. */
static tk_status reshape(tk_context *ctx, const char *op, const tk_tensor *t, int ndim, const int64_t *shape, bool copy,
                         tk_tensor **out)
{
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    tk_status s = infer_shape(ctx, op, t, ndim, shape, sh);
    if (s) return s;
    if (view_strides(t, ndim, sh, st)) return tkr_view(ctx, t, ndim, sh, st, t->offset, out);
    if (!copy) {
        char a[160], b[160], c[160];
        return tkr_error(ctx, TK_ERR_SHAPE,
                         "%s: a tensor of shape %s and strides %s cannot be viewed as %s (it would merge dims that are not "
                         "contiguous with each other); use tk_reshape, which copies",
                         op, TKR_SHAPE(t, a), tkr_shape_str(t->ndim, t->strides, b, sizeof b), tkr_shape_str(ndim, sh, c, sizeof c));
    }
    tk_tensor *c;
    if ((s = tkr_contiguous(ctx, t, &c))) return s;
    tkr_contiguous_strides(ndim, sh, st);
    s = tkr_view(ctx, c, ndim, sh, st, c->offset, out);
    tk_tensor_release(c);
    return s;
}

tk_status tk_reshape(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out)
{
    const char *op = "tk_reshape";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    return s ? s : finish(ctx, op, t0, reshape(ctx, op, t, ndim, shape, true, out));
}

tk_status tk_view(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out)
{
    const char *op = "tk_view";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    return s ? s : finish(ctx, op, t0, reshape(ctx, op, t, ndim, shape, false, out));
}

tk_status tk_flatten(tk_context *ctx, const tk_tensor *t, int start_dim, int end_dim, tk_tensor **out)
{
    const char *op = "tk_flatten";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    int a, b;
    if (s || (s = tkr_axis(ctx, op, start_dim, t->ndim, &a)) || (s = tkr_axis(ctx, op, end_dim, t->ndim, &b))) return s;
    if (a > b) return tkr_error(ctx, TK_ERR_INDEX, "%s: start_dim %d comes after end_dim %d", op, start_dim, end_dim);
    if (t->ndim == 0) return finish(ctx, op, t0, reshape(ctx, op, t, 1, (int64_t[]){ 1 }, true, out));   /* a 0-d tensor flattens to [1] */
    int64_t sh[TK_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < a; d++) sh[n++] = t->shape[d];
    sh[n++] = tkr_numel(b - a + 1, t->shape + a);
    for (int d = b + 1; d < t->ndim; d++) sh[n++] = t->shape[d];
    return finish(ctx, op, t0, reshape(ctx, op, t, n, sh, true, out));
}

tk_status tk_contiguous(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    const char *op = "tk_contiguous";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    if ((s = tkr_contiguous(ctx, t, out))) *out = NULL;
    return finish(ctx, op, t0, s);
}

tk_status tk_to_channels_last(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    const char *op = "tk_to_channels_last";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    if (t->ndim != 4) {
        char a[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: t %s is not 4-d [N, C, H, W]", op, TKR_SHAPE(t, a));
    }
    if (tk_tensor_is_channels_last(t)) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return finish(ctx, op, t0, TK_OK);
    }
    if ((s = tkr_new_channels_last(ctx, t->dtype, t->shape, out))) return s;
    if ((s = tkr_copy_into(ctx, op, *out, t))) {
        tk_tensor_release(*out);
        *out = NULL;
    }
    return finish(ctx, op, t0, s);
}

/* ------------------------------------------------------------ permute, transpose, expand */

tk_status tk_permute(tk_context *ctx, const tk_tensor *t, const int *dims, tk_tensor **out)
{
    const char *op = "tk_permute";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    if (t->ndim > 0 && !dims) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dims is NULL for a %d-dim tensor", op, t->ndim);
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    bool seen[TK_MAX_DIMS] = { false };
    for (int i = 0; i < t->ndim; i++) {
        int d;
        if ((s = tkr_axis(ctx, op, dims[i], t->ndim, &d))) return s;
        if (seen[d]) {
            char a[160];
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dims is not a permutation: dim %d appears twice (tensor of shape %s)", op,
                             d, TKR_SHAPE(t, a));
        }
        seen[d] = true;
        sh[i] = t->shape[d];
        st[i] = t->strides[d];
    }
    return finish(ctx, op, t0, tkr_view(ctx, t, t->ndim, sh, st, t->offset, out));
}

tk_status tk_transpose(tk_context *ctx, const tk_tensor *t, int dim0, int dim1, tk_tensor **out)
{
    const char *op = "tk_transpose";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    int a, b;
    if (s || (s = tkr_axis(ctx, op, dim0, t->ndim, &a)) || (s = tkr_axis(ctx, op, dim1, t->ndim, &b))) return s;
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    memcpy(sh, t->shape, sizeof sh);
    memcpy(st, t->strides, sizeof st);
    if (t->ndim > 0) {   /* a 0-d tensor takes dims 0 and -1 and stays as it is */
        sh[a] = t->shape[b], sh[b] = t->shape[a];
        st[a] = t->strides[b], st[b] = t->strides[a];
    }
    return finish(ctx, op, t0, tkr_view(ctx, t, t->ndim, sh, st, t->offset, out));
}

tk_status tk_expand(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *shape, tk_tensor **out)
{
    const char *op = "tk_expand";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    char a[160], b[160];
    if (ndim < t->ndim || ndim > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %d sizes for a tensor of shape %s (expected %d .. %d)", op, ndim, TKR_SHAPE(t, a),
                         t->ndim, TK_MAX_DIMS);
    if (ndim > 0 && !shape) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shape is NULL for %d dims", op, ndim);
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int td = i - lead;
        int64_t want = shape[i];
        if (want < -1)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: size %lld of dim %d in %s is negative", op, (long long)want, i,
                             tkr_shape_str(ndim, shape, b, sizeof b));
        if (td < 0) {   /* a new leading dim: its size must be given */
            if (want < 0)
                return tkr_error(ctx, TK_ERR_SHAPE, "%s: size %lld of new leading dim %d in %s (a new dim needs a size >= 0)", op,
                                 (long long)want, i, tkr_shape_str(ndim, shape, b, sizeof b));
            sh[i] = want, st[i] = 0;
        } else if (want == -1 || want == t->shape[td]) {
            sh[i] = t->shape[td], st[i] = t->strides[td];
        } else if (t->shape[td] == 1 && want >= 0) {
            sh[i] = want, st[i] = 0;
        } else {
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: cannot expand shape %s to %s (dim %d has size %lld, not 1)", op, TKR_SHAPE(t, a),
                             tkr_shape_str(ndim, shape, b, sizeof b), i, (long long)t->shape[td]);
        }
    }
    return finish(ctx, op, t0, tkr_view(ctx, t, ndim, sh, st, t->offset, out));
}

/* ------------------------------------------------------------ slice, select */

tk_status tk_slice(tk_context *ctx, const tk_tensor *t, int dim, int64_t start, int64_t end, int64_t step, tk_tensor **out)
{
    const char *op = "tk_slice";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    if (t->ndim == 0) return tkr_error(ctx, TK_ERR_INDEX, "%s: a 0-d tensor has no dim to slice", op);
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    if (step < 1) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: step %lld (steps are >= 1)", op, (long long)step);
    int64_t n = t->shape[d];
    /* Python's rules: negatives count from the end, then both clamp to [0, n] */
    if (start < 0) start = start < -n ? 0 : start + n;
    if (end < 0) end = end < -n ? 0 : end + n;
    if (start > n) start = n;
    if (end > n) end = n;
    if (end < start) end = start;
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    memcpy(sh, t->shape, sizeof sh);
    memcpy(st, t->strides, sizeof st);
    sh[d] = (end - start + step - 1) / step;
    st[d] = t->strides[d] * step;
    return finish(ctx, op, t0, tkr_view(ctx, t, t->ndim, sh, st, t->offset + start * t->strides[d], out));
}

/* t with dim d removed, its offset moved to index i along it. */
static tk_status drop_dim(tk_context *ctx, const tk_tensor *t, int d, int64_t i, tk_tensor **out)
{
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    for (int k = 0, n = 0; k < t->ndim; k++)
        if (k != d) sh[n] = t->shape[k], st[n++] = t->strides[k];
    return tkr_view(ctx, t, t->ndim - 1, sh, st, t->offset + i * t->strides[d], out);
}

tk_status tk_select(tk_context *ctx, const tk_tensor *t, int dim, int64_t index, tk_tensor **out)
{
    const char *op = "tk_select";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    if (t->ndim == 0) return tkr_error(ctx, TK_ERR_INDEX, "%s: a 0-d tensor has no dim to select from", op);
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    int64_t n = t->shape[d];
    if (index < -n || index >= n) {
        char a[160];
        return tkr_error(ctx, TK_ERR_INDEX, "%s: index %lld is out of range for dim %d of shape %s (expected %lld .. %lld)", op,
                         (long long)index, d, TKR_SHAPE(t, a), (long long)-n, (long long)n - 1);
    }
    return finish(ctx, op, t0, drop_dim(ctx, t, d, index < 0 ? index + n : index, out));
}

/* ------------------------------------------------------------ squeeze, unsqueeze */

tk_status tk_squeeze(tk_context *ctx, const tk_tensor *t, int dim, tk_tensor **out)
{
    const char *op = "tk_squeeze";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    int d;
    if (s || (s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    if (t->ndim == 0 || t->shape[d] != 1) return finish(ctx, op, t0, tkr_view(ctx, t, t->ndim, t->shape, t->strides, t->offset, out));
    return finish(ctx, op, t0, drop_dim(ctx, t, d, 0, out));
}

tk_status tk_squeeze_all(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    const char *op = "tk_squeeze_all";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    if (s) return s;
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    int n = 0;
    for (int k = 0; k < t->ndim; k++)
        if (t->shape[k] != 1) sh[n] = t->shape[k], st[n++] = t->strides[k];
    return finish(ctx, op, t0, tkr_view(ctx, t, n, sh, st, t->offset, out));
}

tk_status tk_unsqueeze(tk_context *ctx, const tk_tensor *t, int dim, tk_tensor **out)
{
    const char *op = "tk_unsqueeze";
    double t0 = tkr_op_start(ctx);
    tk_status s = begin_t(ctx, op, t, out);
    int d;
    if (s || (s = tkr_axis(ctx, op, dim, t->ndim + 1, &d))) return s;
    if (t->ndim == TK_MAX_DIMS) {
        char a[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: a tensor of shape %s already has the most dims (%d)", op, TKR_SHAPE(t, a), TK_MAX_DIMS);
    }
    int64_t sh[TK_MAX_DIMS], st[TK_MAX_DIMS];
    for (int k = 0, n = 0; k <= t->ndim; k++) {
        if (k == d) {
            sh[k] = 1;
            /* the stride PyTorch gives it: as if it were the outer part of the dim after it */
            st[k] = d < t->ndim ? t->shape[d] * t->strides[d] : 1;
        } else {
            sh[k] = t->shape[n], st[k] = t->strides[n++];
        }
    }
    return finish(ctx, op, t0, tkr_view(ctx, t, t->ndim + 1, sh, st, t->offset, out));
}

/* ------------------------------------------------------------ split, chunk */

/* n views along d of the given sizes (which add up to its size), or with
 * sizes NULL of `each` elements but the last (the rest); on failure every
 * out is NULL. */
static tk_status split_views(tk_context *ctx, const tk_tensor *t, const int64_t *sizes, int64_t each, int n, int d, tk_tensor **outs)
{
    int64_t sh[TK_MAX_DIMS], at = 0;
    memcpy(sh, t->shape, sizeof sh);
    for (int i = 0; i < n; i++) {
        sh[d] = sizes ? sizes[i] : (i + 1 < n ? each : t->shape[d] - at);
        tk_status s = tkr_view(ctx, t, t->ndim, sh, t->strides, t->offset + at * t->strides[d], &outs[i]);
        if (s) {
            for (int k = 0; k < i; k++) {
                tk_tensor_release(outs[k]);
                outs[k] = NULL;
            }
            return s;
        }
        at += sh[d];
    }
    return TK_OK;
}

tk_status tk_split(tk_context *ctx, const tk_tensor *t, const int64_t *sizes, int n, int dim, tk_tensor **outs)
{
    const char *op = "tk_split";
    double t0 = tkr_op_start(ctx);
    if (!ctx || !outs) return TK_ERR_INVALID_ARGUMENT;
    if (n < 1) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: n is %d (at least one piece)", op, n);
    for (int i = 0; i < n; i++) outs[i] = NULL;
    tk_status s = tkr_check_device_arg(ctx, op, "t", t);
    if (s) return s;
    if (!sizes) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: sizes is NULL", op);
    if (t->ndim == 0) return tkr_error(ctx, TK_ERR_INDEX, "%s: a 0-d tensor has no dim to split", op);
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: size %lld of piece %d is negative", op, (long long)sizes[i], i);
        sum += sizes[i];
        if (sum > t->shape[d]) break;
    }
    if (sum != t->shape[d]) {
        char a[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: the %d sizes add up to %s%lld, but dim %d of shape %s has size %lld", op, n,
                         sum > t->shape[d] ? "more than " : "", (long long)sum, d, TKR_SHAPE(t, a), (long long)t->shape[d]);
    }
    return finish(ctx, op, t0, split_views(ctx, t, sizes, 0, n, d, outs));
}

tk_status tk_chunk(tk_context *ctx, const tk_tensor *t, int chunks, int dim, tk_tensor **outs, int *n_out)
{
    const char *op = "tk_chunk";
    double t0 = tkr_op_start(ctx);
    if (!ctx || !outs || !n_out) return TK_ERR_INVALID_ARGUMENT;
    *n_out = 0;
    if (chunks < 1) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: chunks is %d (at least 1)", op, chunks);
    for (int i = 0; i < chunks; i++) outs[i] = NULL;
    tk_status s = tkr_check_device_arg(ctx, op, "t", t);
    if (s) return s;
    if (t->ndim == 0) return tkr_error(ctx, TK_ERR_INDEX, "%s: a 0-d tensor has no dim to chunk", op);
    int d;
    if ((s = tkr_axis(ctx, op, dim, t->ndim, &d))) return s;
    int64_t size = t->shape[d], each = (size + chunks - 1) / chunks;
    /* as torch.chunk: pieces of ceil(size / chunks), the last one shorter,
     * fewer pieces when they run out; an empty dim gives `chunks` empty pieces */
    int n = each == 0 ? chunks : (int)((size + each - 1) / each);
    if ((s = split_views(ctx, t, NULL, each, n, d, outs))) return s;
    *n_out = n;
    return finish(ctx, op, t0, TK_OK);
}
