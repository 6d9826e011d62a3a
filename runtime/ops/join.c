/* join.c — ops that build a tensor out of copies of others: cat, stack and
 * repeat. Each input is copied by the strided iterator (parallel, with
 * copy.c's typed loop) into a geometry over the right part of the output,
 * so no input is made contiguous first. */
#include <stdio.h>

#include "shape_util.h"

/* torch.cat still takes 1-d tensors of shape [0] beside tensors of any
 * shape (an old way to start an empty list) and skips them. */
static bool legacy_empty(const tk_tensor *t)
{
    return t->ndim == 1 && t->shape[0] == 0;
}

/* Shared by cat and stack: checks the inputs and their dtypes. */
static tk_status check_list(tk_context *ctx, const char *op, const tk_tensor *const *ts, int n, tk_dtype *dtype)
{
    if (!ts) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: ts is NULL", op);
    if (n < 1) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: n is %d (at least one tensor)", op, n);
    for (int i = 0; i < n; i++) {
        char arg[32];
        snprintf(arg, sizeof arg, "ts[%d]", i);
        tk_status s = tkr_check_arg(ctx, op, arg, ts[i]);
        if (s) return s;
        *dtype = i ? tk_promote_types(*dtype, ts[i]->dtype) : ts[i]->dtype;
    }
    return TK_OK;
}

/* Copies ts[i] into out at offsets along d (in out's elements). */
static tk_status copy_pieces(tk_context *ctx, const char *op, tk_tensor *out, const tk_tensor *const *ts, int n, int d, bool stacked)
{
    int64_t at = 0;
    for (int i = 0; i < n; i++) {
        const tk_tensor *t = ts[i];
        if (!stacked && (legacy_empty(t) && out->ndim != 1)) continue;
        tk_tensor piece;
        int64_t sh[TK_MAX_DIMS];
        memcpy(sh, out->shape, sizeof sh);
        if (stacked) {   /* out's dim d dropped: the geometry of out[..., i, ...] */
            int64_t st[TK_MAX_DIMS];
            for (int k = 0, m = 0; k < out->ndim; k++)
                if (k != d) sh[m] = out->shape[k], st[m++] = out->strides[k];
            tkr_alias(&piece, out, out->ndim - 1, sh, st, out->offset + i * out->strides[d]);
        } else {
            sh[d] = t->shape[d];
            tkr_alias(&piece, out, out->ndim, sh, out->strides, out->offset + at * out->strides[d]);
            at += t->shape[d];
        }
        tk_status s = tkr_copy_into(ctx, op, &piece, t);
        if (s) return s;
    }
    return TK_OK;
}

tk_status tk_cat(tk_context *ctx, const tk_tensor *const *ts, int n, int dim, tk_tensor **out)
{
    const char *op = "tk_cat";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_dtype dtype;
    tk_status s = check_list(ctx, op, ts, n, &dtype);
    if (s) return s;
    /* the first input that is not a skipped [0] sets the shape */
    const tk_tensor *ref = ts[0];
    for (int i = 0; i < n; i++)
        if (!legacy_empty(ts[i])) {
            ref = ts[i];
            break;
        }
    if (ref->ndim == 0) return tkr_error(ctx, TK_ERR_SHAPE, "%s: a 0-d tensor cannot be concatenated (unsqueeze it first)", op);
    int d;
    if ((s = tkr_axis(ctx, op, dim, ref->ndim, &d))) return s;
    int64_t sh[TK_MAX_DIMS];
    memcpy(sh, ref->shape, sizeof sh);
    sh[d] = 0;
    for (int i = 0; i < n; i++) {
        const tk_tensor *t = ts[i];
        if (legacy_empty(t) && ref->ndim != 1) continue;
        bool fits = t->ndim == ref->ndim;
        for (int k = 0; fits && k < t->ndim; k++) fits = k == d || t->shape[k] == ref->shape[k];
        if (!fits) {
            char a[160], b[160];
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: ts[%d] of shape %s does not fit ts[0]'s %s (sizes must match except in dim %d)",
                             op, i, TKR_SHAPE(t, a), TKR_SHAPE(ref, b), d);
        }
        sh[d] += t->shape[d];
    }
    /* PyTorch's rule: 4-d inputs all channels-last (and not also row-major) give a
     * channels-last result, so the next conv reads it in place (SqueezeNet's fire
     * modules: a row-major cat then cost an NHWC copy at every squeeze conv) */
    bool cl = ref->ndim == 4;
    for (int i = 0; i < n && cl; i++)
        cl = legacy_empty(ts[i]) || (tk_tensor_is_channels_last(ts[i]) && !tk_tensor_is_contiguous(ts[i]));
    if ((s = cl ? tkr_new_channels_last(ctx, dtype, sh, out) : tkr_new(ctx, dtype, ref->ndim, sh, out))) return s;
    if ((s = copy_pieces(ctx, op, *out, ts, n, d, false))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

tk_status tk_stack(tk_context *ctx, const tk_tensor *const *ts, int n, int dim, tk_tensor **out)
{
    const char *op = "tk_stack";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_dtype dtype;
    tk_status s = check_list(ctx, op, ts, n, &dtype);
    if (s) return s;
    const tk_tensor *ref = ts[0];
    int d;
    if ((s = tkr_axis(ctx, op, dim, ref->ndim + 1, &d))) return s;
    if (ref->ndim == TK_MAX_DIMS) {
        char a[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: tensors of shape %s already have the most dims (%d)", op, TKR_SHAPE(ref, a), TK_MAX_DIMS);
    }
    for (int i = 1; i < n; i++) {
        const tk_tensor *t = ts[i];
        if (t->ndim != ref->ndim || memcmp(t->shape, ref->shape, (size_t)t->ndim * sizeof *t->shape)) {
            char a[160], b[160];
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: ts[%d] of shape %s differs from ts[0]'s %s (stacked tensors have one shape)", op, i,
                             TKR_SHAPE(t, a), TKR_SHAPE(ref, b));
        }
    }
    int64_t sh[TK_MAX_DIMS];
    for (int k = 0, m = 0; k <= ref->ndim; k++) sh[k] = k == d ? n : ref->shape[m++];
    if ((s = tkr_new(ctx, dtype, ref->ndim + 1, sh, out))) return s;
    if ((s = copy_pieces(ctx, op, *out, ts, n, d, true))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

/* ------------------------------------------------------------ repeat */

/* Output dim i of size r·s is viewed as two dims [r, s]: the input reads
 * [0-stride, its stride], the output [s·stride, stride]. Pairs whose size is
 * 1 are dropped; past TK_MAX_DIMS the outer ones are walked here, one
 * iterator run per step. */
tk_status tk_repeat(tk_context *ctx, const tk_tensor *t, int ndim, const int64_t *repeats, tk_tensor **out)
{
    const char *op = "tk_repeat";
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    char a[160], b[160];
    if (ndim < t->ndim || ndim > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %d repeats for a tensor of shape %s (expected %d .. %d)", op, ndim, TKR_SHAPE(t, a),
                         t->ndim, TK_MAX_DIMS);
    if (ndim > 0 && !repeats) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: repeats is NULL for %d dims", op, ndim);
    int64_t in_sh[TK_MAX_DIMS], in_st[TK_MAX_DIMS], out_sh[TK_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        if (repeats[i] < 0)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: repeats %s has a negative count at %d", op, tkr_shape_str(ndim, repeats, b, sizeof b), i);
        in_sh[i] = i < lead ? 1 : t->shape[i - lead];
        in_st[i] = i < lead ? 0 : t->strides[i - lead];
        if (in_sh[i] && __builtin_mul_overflow(in_sh[i], repeats[i], &out_sh[i]))
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: repeating shape %s by %s overflows", op, TKR_SHAPE(t, a),
                             tkr_shape_str(ndim, repeats, b, sizeof b));
        if (!in_sh[i]) out_sh[i] = 0;
    }
    if ((s = tkr_new(ctx, t->dtype, ndim, out_sh, out))) return s;
    if (tkr_numel(ndim, out_sh) == 0) {
        tkr_op_done(ctx, op, t0);
        return tkr_ok(ctx);
    }
    /* the split geometry, outermost first, without size-1 pairs */
    int64_t sh[2 * TK_MAX_DIMS], ost[2 * TK_MAX_DIMS], ist[2 * TK_MAX_DIMS];
    int m = 0;
    for (int i = 0; i < ndim; i++) {
        int64_t stride = (*out)->strides[i];
        if (repeats[i] != 1) sh[m] = repeats[i], ost[m] = in_sh[i] * stride, ist[m++] = 0;
        if (in_sh[i] != 1) sh[m] = in_sh[i], ost[m] = stride, ist[m++] = in_st[i];
    }
    int outer = m > TK_MAX_DIMS ? m - TK_MAX_DIMS : 0;
    int64_t idx[2 * TK_MAX_DIMS] = { 0 }, steps = tkr_numel(outer, sh);
    for (int64_t k = 0; k < steps; k++) {
        int64_t ooff = (*out)->offset, ioff = t->offset;
        for (int j = 0; j < outer; j++) ooff += idx[j] * ost[j], ioff += idx[j] * ist[j];
        tk_tensor dst, src;
        tkr_alias(&dst, *out, m - outer, sh + outer, ost + outer, ooff);
        tkr_alias(&src, t, m - outer, sh + outer, ist + outer, ioff);
        tkr_copy_into(ctx, op, &dst, &src);
        for (int j = outer - 1; j >= 0 && ++idx[j] == sh[j]; j--) idx[j] = 0;
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}
