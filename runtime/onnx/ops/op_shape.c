/* op_shape.c — ONNX ops that make constants, read shapes and move data
 * without arithmetic: views where the runtime can make one (Reshape,
 * Transpose, Squeeze, Unsqueeze, Flatten, Slice, Expand), copies otherwise. */
#include <string.h>

#include "op.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* Constant: exactly one of value, value_float(s), value_int(s). */
static tk_status run_constant(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const TkoAttr *a;
    if ((a = tko_attr(n, "value")) && a->t) {
        oc->out[0] = tk_tensor_retain(a->t);
        return TK_OK;
    }
    if ((a = tko_attr(n, "value_float")))
        return tko_wrap(oc, tk_from_data(oc->ctx, &a->f, TK_DTYPE_F32, 0, NULL, &oc->out[0]));
    if ((a = tko_attr(n, "value_int")))
        return tko_wrap(oc, tk_from_data(oc->ctx, &a->i, TK_DTYPE_I64, 0, NULL, &oc->out[0]));
    if ((a = tko_attr(n, "value_floats")))
        return tko_wrap(oc, tk_from_data(oc->ctx, a->floats, TK_DTYPE_F32, 1, (int64_t[]){ a->n }, &oc->out[0]));
    if ((a = tko_attr(n, "value_ints")))
        return tko_wrap(oc, tk_from_data(oc->ctx, a->ints, TK_DTYPE_I64, 1, (int64_t[]){ a->n }, &oc->out[0]));
    return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "no value attribute");
}

static const char *check_constant(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int given = 0;
    for (int i = 0; i < n->nattrs; i++) given++;
    if (tko_attr(n, "value_string") || tko_attr(n, "value_strings")) {
        snprintf(why, len, "string constants are not supported (the runtime has no string dtype)");
        return why;
    }
    if (tko_attr(n, "sparse_value")) {
        snprintf(why, len, "sparse_value is not supported");
        return why;
    }
    if (given != 1) {
        snprintf(why, len, "%d value attributes; exactly one is required", given);
        return why;
    }
    return NULL;
}

/* Shape: the input's dims as int64, sliced by start/end (opset 15). */
static tk_status run_shape(TkoOpCtx *oc)
{
    int nd = tk_tensor_ndim(oc->in[0]);
    int64_t start = tko_attr_int(oc->node, "start", 0), end = tko_attr_int(oc->node, "end", nd);
    if (start < 0) start += nd;
    if (end < 0) end += nd;
    start = start < 0 ? 0 : start > nd ? nd : start;
    end = end < 0 ? 0 : end > nd ? nd : end;
    int64_t len = end > start ? end - start : 0;
    return tko_wrap(oc, tk_from_data(oc->ctx, tk_tensor_shape(oc->in[0]) + start, TK_DTYPE_I64, 1, &len, &oc->out[0]));
}

static tk_status run_size(TkoOpCtx *oc)
{
    int64_t n = tk_tensor_numel(oc->in[0]);
    return tko_wrap(oc, tk_from_data(oc->ctx, &n, TK_DTYPE_I64, 0, NULL, &oc->out[0]));
}

static const TkoOpDef defs[] = {
    OPDEF("Constant", 1, TKO_ANY, "value,value_float,value_floats,value_int,value_ints,value_string,value_strings,sparse_value",
          run_constant, check_constant, 0, 0, 0),
    OPDEF("Shape", 1, TKO_ANY, "start,end", run_shape, NULL, 1, 1, 0),
    OPDEF("Size", 1, TKO_ANY, "", run_size, NULL, 1, 1, 0),
};

TKO_FAMILY_OF(tko_ops_shape, defs);
