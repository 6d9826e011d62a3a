/* op_util.c — what run functions share: errors that name the node, and
 * inputs read as integers (shapes, axes, pads) or scalars. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"

tk_status tko_fail(TkoOpCtx *oc, tk_status s, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tkr_error(oc->ctx, s, "node '%s' (%s): %s", oc->node->name, oc->node->op, msg);
}

tk_status tko_wrap(TkoOpCtx *oc, tk_status s)
{
    if (s == TK_OK) return s;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", tk_last_error(oc->ctx));
    return tkr_error(oc->ctx, s, "node '%s' (%s): %s", oc->node->name, oc->node->op, msg);
}

tk_status tko_input_ints(TkoOpCtx *oc, int i, int64_t *vals, int max, int *count)
{
    const tk_tensor *t = i < oc->nin ? oc->in[i] : NULL;
    if (!t) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    tk_dtype d = tk_tensor_dtype(t);
    if (tk_dtype_is_float(d) || d == TK_DTYPE_BOOL)
        return tko_fail(oc, TK_ERR_DTYPE, "input %d must hold integers, it is %s", i, tk_dtype_name(d));
    int64_t n = tk_tensor_numel(t);
    if (n > max) return tko_fail(oc, TK_ERR_SHAPE, "input %d has %lld elements, at most %d are allowed", i, (long long)n, max);
    int64_t idx[TK_MAX_DIMS] = { 0 };
    size_t es = tk_dtype_size(d);
    for (int64_t k = 0; k < n; k++) {
        int64_t off = t->offset;
        for (int a = 0; a < t->ndim; a++) off += idx[a] * t->strides[a];
        vals[k] = tkr_load_i((const char *)t->storage->data + off * (int64_t)es, d);   /* exact for int64 */
        for (int a = t->ndim - 1; a >= 0; a--) {   /* the next index, row-major */
            if (++idx[a] < t->shape[a]) break;
            idx[a] = 0;
        }
    }
    *count = (int)n;
    return TK_OK;
}

tk_status tko_input_scalar(TkoOpCtx *oc, int i, double *v)
{
    const tk_tensor *t = i < oc->nin ? oc->in[i] : NULL;
    if (!t) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    if (tk_tensor_numel(t) != 1)
        return tko_fail(oc, TK_ERR_SHAPE, "input %d must be one value, it has %lld", i, (long long)tk_tensor_numel(t));
    int64_t idx[TK_MAX_DIMS] = { 0 };
    return tko_wrap(oc, tk_item(oc->ctx, t, idx, v));
}

tk_status tko_axis(TkoOpCtx *oc, int64_t axis, int rank, int *out)
{
    if (axis < -rank || axis >= (rank ? rank : 1))
        return tko_fail(oc, TK_ERR_INDEX, "axis %lld is out of range for rank %d", (long long)axis, rank);
    *out = (int)(axis < 0 ? axis + rank : axis);
    return TK_OK;
}

/* ------------------------------------------------------------ onnx-ored: results in ONNX's dtype */

tk_status tko_as_dtype(TkoOpCtx *oc, tk_tensor **t, tk_dtype d)
{
    if (!*t || tk_tensor_dtype(*t) == d) return TK_OK;
    tk_tensor *c;
    tk_status s = tk_to_dtype(oc->ctx, *t, d, &c);
    tk_tensor_release(*t);
    *t = s ? NULL : c;
    return tko_wrap(oc, s);
}
