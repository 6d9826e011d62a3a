/* op_shape.c — ONNX ops that make constants, read shapes and move data
 * without arithmetic: views where the runtime can make one (Reshape,
 * Transpose, Squeeze, Unsqueeze, Flatten, Slice, Expand, Split), copies
 * otherwise (Concat, Tile, Slice with negative steps). It also holds the
 * family's def table for the ops in op_shape_*.c and op_index*.c (their
 * run functions are declared in op_shape_ops.h). */
#include <string.h>

#include "op_shape_ops.h"
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

/* ------------------------------------------------------------ shared */

/* A list of ints that older opsets give as attribute `attr` and newer ones as
 * input `input` (from opset `since`). *given is false when the node has
 * neither (an omitted optional input, an absent attribute). */
static tk_status ints_arg(TkoOpCtx *oc, const char *attr, int input, int since, int64_t *v, int max, int *n, bool *given)
{
    *n = 0;
    *given = false;
    if (oc->node->opset < since) {
        int cnt;
        const int64_t *a = tko_attr_ints(oc->node, attr, &cnt);
        if (!a && !tko_attr(oc->node, attr)) return TK_OK;
        if (cnt > max) return tko_fail(oc, TK_ERR_SHAPE, "attribute %s has %d values, at most %d are allowed", attr, cnt, max);
        if (cnt) memcpy(v, a, (size_t)cnt * sizeof *v);
        *n = cnt;
        *given = true;
        return TK_OK;
    }
    if (input >= oc->nin || !oc->in[input]) return TK_OK;
    *given = true;
    return tko_input_ints(oc, input, v, max, n);
}

/* The tensor reshaped to (nd, shape), a view where the strides allow it. */
static tk_status reshape_to(TkoOpCtx *oc, const tk_tensor *x, int nd, const int64_t *shape)
{
    return tko_wrap(oc, tk_reshape(oc->ctx, x, nd, shape, &oc->out[0]));
}

static const char *shape_text(const tk_tensor *t, char *buf, size_t len)
{
    return tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), buf, len);
}

/* ------------------------------------------------------------ Reshape, Flatten, Squeeze, Unsqueeze */

/* Reshape: 0 copies the input's size at that position (unless allowzero),
 * one -1 is inferred. */
static tk_status run_reshape(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int64_t shape[TK_MAX_DIMS];
    int n;
    bool given;
    tk_status s = ints_arg(oc, "shape", 1, 5, shape, TK_MAX_DIMS, &n, &given);
    if (s) return s;
    if (!given) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "no shape given");
    bool allowzero = oc->node->opset >= 14 && tko_attr_int(oc->node, "allowzero", 0) != 0;
    int infer = -1;
    int64_t known = 1;
    char a[160];
    for (int i = 0; i < n; i++) {
        if (shape[i] == 0 && !allowzero) {
            if (i >= tk_tensor_ndim(x))
                return tko_fail(oc, TK_ERR_SHAPE, "shape[%d] = 0 copies a dim the input of shape %s does not have", i, shape_text(x, a, sizeof a));
            shape[i] = tk_tensor_shape(x)[i];
        }
        if (shape[i] == -1) {
            if (infer >= 0) return tko_fail(oc, TK_ERR_SHAPE, "shape has more than one -1");
            infer = i;
        } else if (shape[i] < 0) return tko_fail(oc, TK_ERR_SHAPE, "shape[%d] = %lld is negative", i, (long long)shape[i]);
        else known *= shape[i];
    }
    int64_t numel = tk_tensor_numel(x);
    if (infer >= 0) {
        if (known == 0) return tko_fail(oc, TK_ERR_SHAPE, "-1 cannot be inferred when the other sizes multiply to 0");
        if (numel % known) return tko_fail(oc, TK_ERR_SHAPE, "input of shape %s does not divide into the sizes given", shape_text(x, a, sizeof a));
        shape[infer] = numel / known;
    }
    return reshape_to(oc, x, n, shape);
}

/* Flatten: [prod(dims before axis), prod(the rest)]. */
static tk_status run_flatten(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    int64_t axis = tko_attr_int(oc->node, "axis", 1);
    if (axis < -nd || axis > nd) return tko_fail(oc, TK_ERR_INDEX, "axis %lld is out of range for rank %d", (long long)axis, nd);
    if (axis < 0) axis += nd;
    int64_t shape[2] = { 1, 1 };
    for (int i = 0; i < nd; i++) shape[i >= axis] *= tk_tensor_shape(x)[i];
    return reshape_to(oc, x, 2, shape);
}

/* Squeeze: the given size-1 dims dropped (every size-1 dim without axes). */
static tk_status run_squeeze(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    const int64_t *xs = tk_tensor_shape(x);
    int64_t axes[TK_MAX_DIMS];
    int n;
    bool given, drop[TK_MAX_DIMS] = { 0 };
    tk_status s = ints_arg(oc, "axes", 1, 13, axes, TK_MAX_DIMS, &n, &given);
    if (s) return s;
    given = given && n > 0;   /* an empty axes input squeezes every size-1 dim, as ONNX Runtime */
    char a[160];
    for (int i = 0; i < n; i++) {
        int d;
        if ((s = tko_axis(oc, axes[i], nd, &d))) return s;
        if (xs[d] != 1) return tko_fail(oc, TK_ERR_SHAPE, "axis %d of shape %s has size %lld, not 1", d, shape_text(x, a, sizeof a), (long long)xs[d]);
        drop[d] = true;
    }
    if (!given)
        for (int d = 0; d < nd; d++) drop[d] = xs[d] == 1;
    int64_t shape[TK_MAX_DIMS];
    int m = 0;
    for (int d = 0; d < nd; d++)
        if (!drop[d]) shape[m++] = xs[d];
    return reshape_to(oc, x, m, shape);
}

/* Unsqueeze: size-1 dims inserted at the axes of the output. */
static tk_status run_unsqueeze(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    int64_t axes[TK_MAX_DIMS];
    int n;
    bool given, one[TK_MAX_DIMS] = { 0 };
    tk_status s = ints_arg(oc, "axes", 1, 13, axes, TK_MAX_DIMS, &n, &given);
    if (s) return s;
    int out_nd = nd + n;
    if (out_nd > TK_MAX_DIMS) return tko_fail(oc, TK_ERR_UNSUPPORTED, "the result would have %d dims (at most %d)", out_nd, TK_MAX_DIMS);
    for (int i = 0; i < n; i++) {
        int d;
        if ((s = tko_axis(oc, axes[i], out_nd, &d))) return s;
        if (one[d]) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "axis %d is given twice", d);
        one[d] = true;
    }
    int64_t shape[TK_MAX_DIMS];
    for (int d = 0, k = 0; d < out_nd; d++) shape[d] = one[d] ? 1 : tk_tensor_shape(x)[k++];
    return reshape_to(oc, x, out_nd, shape);
}

/* ------------------------------------------------------------ Transpose, Expand, Tile */

static tk_status run_transpose(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x), cnt, perm[TK_MAX_DIMS];
    const int64_t *p = tko_attr_ints(oc->node, "perm", &cnt);
    if (!p) {   /* the default reverses the dims */
        for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    } else {
        if (cnt != nd) return tko_fail(oc, TK_ERR_SHAPE, "perm has %d entries for an input of rank %d", cnt, nd);
        for (int i = 0; i < nd; i++) {
            if (p[i] < -nd || p[i] >= nd) return tko_fail(oc, TK_ERR_INDEX, "perm[%d] = %lld is out of range for rank %d", i, (long long)p[i], nd);
            perm[i] = (int)(p[i] < 0 ? p[i] + nd : p[i]);
        }
    }
    return tko_wrap(oc, tk_permute(oc->ctx, x, perm, &oc->out[0]));
}

/* Expand: the input and the shape broadcast against each other (either may
 * hold the 1s), a view with stride 0 where a dim grew. */
static tk_status run_expand(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int64_t want[TK_MAX_DIMS], shape[TK_MAX_DIMS];
    int n;
    tk_status s = tko_input_ints(oc, 1, want, TK_MAX_DIMS, &n);
    if (s) return s;
    int nd = tk_tensor_ndim(x), out_nd = n > nd ? n : nd;
    char a[160];
    for (int i = 0; i < out_nd; i++) {
        int xi = i - (out_nd - nd), wi = i - (out_nd - n);
        int64_t xd = xi >= 0 ? tk_tensor_shape(x)[xi] : 1, wd = wi >= 0 ? want[wi] : 1;
        if (wd < 0) return tko_fail(oc, TK_ERR_SHAPE, "shape[%d] = %lld is negative", wi, (long long)wd);
        if (xd != wd && xd != 1 && wd != 1)
            return tko_fail(oc, TK_ERR_SHAPE, "input of shape %s does not broadcast with shape[%d] = %lld", shape_text(x, a, sizeof a), wi,
                            (long long)wd);
        shape[i] = xd == 1 ? wd : xd;
    }
    return tko_wrap(oc, tk_expand(oc->ctx, x, out_nd, shape, &oc->out[0]));
}

/* Tile: repeats per dim (opset 6+), or Tile-1's scalar tiles along a scalar axis. */
static tk_status run_tile(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int64_t reps[TK_MAX_DIMS];
    int n;
    tk_status s;
    if (oc->node->opset < 6) {
        int64_t tiles, axis_v;
        int one, d;
        if ((s = tko_input_ints(oc, 1, &tiles, 1, &one)) || (s = tko_input_ints(oc, 2, &axis_v, 1, &one))) return s;
        if ((s = tko_axis(oc, axis_v, tk_tensor_ndim(x), &d))) return s;
        n = tk_tensor_ndim(x);
        for (int i = 0; i < n; i++) reps[i] = i == d ? tiles : 1;
    } else if ((s = tko_input_ints(oc, 1, reps, TK_MAX_DIMS, &n)))
        return s;
    if (n != tk_tensor_ndim(x)) return tko_fail(oc, TK_ERR_SHAPE, "repeats has %d entries for an input of rank %d", n, tk_tensor_ndim(x));
    for (int i = 0; i < n; i++)
        if (reps[i] < 0) return tko_fail(oc, TK_ERR_SHAPE, "repeats[%d] = %lld is negative", i, (long long)reps[i]);
    if (n == 0) return tko_wrap(oc, tk_clone(oc->ctx, x, &oc->out[0]));
    return tko_wrap(oc, tk_repeat(oc->ctx, x, n, reps, &oc->out[0]));
}

/* ------------------------------------------------------------ Concat, Split, Slice */

static tk_status run_concat(TkoOpCtx *oc)
{
    const tk_tensor *first = oc->in[0];
    int axis;
    int64_t dflt = oc->node->opset < 4 ? 1 : 0;   /* Concat-1 defaulted to axis 1; 4+ requires it */
    if (oc->node->opset >= 4 && !tko_attr(oc->node, "axis")) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "attribute axis is required");
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", dflt), tk_tensor_ndim(first), &axis);
    if (s) return s;
    for (int i = 1; i < oc->nin; i++)
        if (tk_tensor_dtype(oc->in[i]) != tk_tensor_dtype(first))
            return tko_fail(oc, TK_ERR_DTYPE, "input %d is %s, input 0 is %s", i, tk_dtype_name(tk_tensor_dtype(oc->in[i])),
                            tk_dtype_name(tk_tensor_dtype(first)));
    return tko_wrap(oc, tk_cat(oc->ctx, (const tk_tensor *const *)oc->in, oc->nin, axis, &oc->out[0]));
}

/* Split: sizes from the split attribute (opset < 13) or input, else equal
 * pieces (the last smaller when the size does not divide, as the reference). */
static tk_status run_split(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", 0), tk_tensor_ndim(x), &axis);
    if (s) return s;
    int64_t dim = tk_tensor_shape(x)[axis];
    int64_t sizes[64];
    int n;
    bool given;
    if (oc->node->opset < 2 && oc->nin > 1 && oc->in[1]) {   /* opset 1 also took split as an input */
        given = true;
        s = tko_input_ints(oc, 1, sizes, 64, &n);
    } else s = ints_arg(oc, "split", 1, 13, sizes, 64, &n, &given);
    if (s) return s;
    given = given && n > 0;   /* an empty split input means equal pieces, as ONNX Runtime */
    if (given && n != oc->nout) return tko_fail(oc, TK_ERR_SHAPE, "split has %d sizes for %d outputs", n, oc->nout);
    if (!given) {
        int64_t pieces = tko_attr_int(oc->node, "num_outputs", oc->nout);
        if (pieces != oc->nout) return tko_fail(oc, TK_ERR_SHAPE, "num_outputs = %lld but the node has %d outputs", (long long)pieces, oc->nout);
        n = oc->nout;
        int64_t each = dim % n == 0 ? dim / n : dim / n + 1;
        for (int i = 0; i < n; i++) sizes[i] = each;
        sizes[n - 1] = dim - each * (n - 1);
        if (sizes[n - 1] < 0)
            return tko_fail(oc, TK_ERR_SHAPE, "a dim of size %lld does not split into %d pieces of %lld", (long long)dim, n, (long long)each);
    }
    return tko_wrap(oc, tk_split(oc->ctx, x, sizes, n, axis, oc->out));
}

/* Slice: per axis, start/end clamped as ONNX says (into [0, dim] for a
 * positive step, [-1, dim-1] for a negative one); a positive step is a view,
 * a negative one the view of the same elements flipped. */
static tk_status run_slice(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    int64_t starts[TK_MAX_DIMS], ends[TK_MAX_DIMS], axes[TK_MAX_DIMS], steps[TK_MAX_DIMS];
    int ns, ne, na, nst;
    bool gs, ge, ga, gst;
    tk_status s;
    if ((s = ints_arg(oc, "starts", 1, 10, starts, TK_MAX_DIMS, &ns, &gs)) || (s = ints_arg(oc, "ends", 2, 10, ends, TK_MAX_DIMS, &ne, &ge)) ||
        (s = ints_arg(oc, "axes", 3, 10, axes, TK_MAX_DIMS, &na, &ga)) || (s = ints_arg(oc, "steps", 4, 10, steps, TK_MAX_DIMS, &nst, &gst)))
        return s;
    if (!gs || !ge) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "starts and ends are required");
    if (ne != ns) return tko_fail(oc, TK_ERR_SHAPE, "%d starts but %d ends", ns, ne);
    if (ga && na != ns) return tko_fail(oc, TK_ERR_SHAPE, "%d axes for %d starts", na, ns);
    if (gst && nst != ns) return tko_fail(oc, TK_ERR_SHAPE, "%d steps for %d starts", nst, ns);
    tk_tensor *cur = tk_tensor_retain((tk_tensor *)x);
    int flips[TK_MAX_DIMS], nflip = 0;
    bool seen[TK_MAX_DIMS] = { 0 };
    for (int i = 0; i < ns && !s; i++) {
        int d;
        if ((s = tko_axis(oc, ga ? axes[i] : i, nd, &d))) break;
        if (seen[d]) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "axis %d is sliced twice", d);
            break;
        }
        seen[d] = true;
        int64_t dim = tk_tensor_shape(x)[d], step = gst ? steps[i] : 1, st = starts[i], en = ends[i];
        if (step == 0) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "steps[%d] is 0", i);
            break;
        }
        if (st < 0) st += dim;
        if (en < 0) en += dim;
        int64_t count;
        if (step > 0) {
            st = st < 0 ? 0 : st > dim ? dim : st;
            en = en < 0 ? 0 : en > dim ? dim : en;
            count = en > st ? (en - st - 1) / step + 1 : 0;
        } else {
            st = st < 0 ? 0 : st > dim - 1 ? dim - 1 : st;
            en = en < -1 ? -1 : en > dim - 1 ? dim - 1 : en;
            count = st > en ? (st - en - 1) / -step + 1 : 0;
        }
        int64_t astep = step > 0 ? step : -step, lo = step > 0 ? st : st + (count - 1) * step;
        if (count == 0) lo = 0;
        tk_tensor *next;
        s = tko_wrap(oc, tk_slice(oc->ctx, cur, d, lo, count ? lo + (count - 1) * astep + 1 : 0, astep, &next));
        tk_tensor_release(cur);
        cur = s ? NULL : next;
        if (step < 0 && count > 1) flips[nflip++] = d;
    }
    if (s) {
        tk_tensor_release(cur);
        return s;
    }
    if (nflip) {
        s = tko_wrap(oc, tk_flip(oc->ctx, cur, flips, nflip, &oc->out[0]));
        tk_tensor_release(cur);
        return s;
    }
    oc->out[0] = cur;
    return TK_OK;
}

static const TkoOpDef defs[] = {
    OPDEF("Constant", 1, TKO_ANY, "value,value_float,value_floats,value_int,value_ints,value_string,value_strings,sparse_value",
          run_constant, check_constant, 0, 0, 0),
    OPDEF("Shape", 1, TKO_ANY, "start,end", run_shape, NULL, 1, 1, 0),
    OPDEF("Size", 1, TKO_ANY, "", run_size, NULL, 1, 1, 0),
    OPDEF("Reshape", 1, 4, "shape,consumed_inputs", run_reshape, NULL, 1, 1, 0),
    OPDEF("Reshape", 5, TKO_ANY, "allowzero", run_reshape, NULL, 2, 2, 0),
    OPDEF("Flatten", 1, TKO_ANY, "axis", run_flatten, NULL, 1, 1, 0),
    OPDEF("Squeeze", 1, 12, "axes", run_squeeze, NULL, 1, 1, 0),
    OPDEF("Squeeze", 13, TKO_ANY, "", run_squeeze, NULL, 1, 2, 0),
    OPDEF("Unsqueeze", 1, 12, "axes", run_unsqueeze, NULL, 1, 1, 0),
    OPDEF("Unsqueeze", 13, TKO_ANY, "", run_unsqueeze, NULL, 2, 2, 0),
    OPDEF("Transpose", 1, TKO_ANY, "perm", run_transpose, NULL, 1, 1, 0),
    OPDEF("Expand", 8, TKO_ANY, "", run_expand, NULL, 2, 2, 0),
    OPDEF("Tile", 1, 5, "", run_tile, NULL, 3, 3, 0),
    OPDEF("Tile", 6, TKO_ANY, "", run_tile, NULL, 2, 2, 0),
    OPDEF("Concat", 1, TKO_ANY, "axis", run_concat, NULL, 1, -1, 0),
    OPDEF("Split", 1, 1, "split,axis", run_split, NULL, 1, 2, 0),
    OPDEF("Split", 2, 12, "split,axis", run_split, NULL, 1, 1, 0),
    OPDEF("Split", 13, 17, "axis", run_split, NULL, 1, 2, 0),
    OPDEF("Split", 18, TKO_ANY, "axis,num_outputs", run_split, NULL, 1, 2, 0),
    OPDEF("Slice", 1, 9, "starts,ends,axes", run_slice, NULL, 1, 1, 0),
    OPDEF("Slice", 10, TKO_ANY, "", run_slice, NULL, 3, 5, 0),
    OPDEF("Gather", 1, TKO_ANY, "axis", tko_run_gather, NULL, 2, 2, 0),
    OPDEF("GatherElements", 11, TKO_ANY, "axis", tko_run_gather_elements, NULL, 2, 2, 0),
    OPDEF("GatherND", 11, 11, "", tko_run_gather_nd, NULL, 2, 2, 0),
    OPDEF("GatherND", 12, TKO_ANY, "batch_dims", tko_run_gather_nd, NULL, 2, 2, 0),
    OPDEF("Scatter", 9, TKO_ANY, "axis", tko_run_scatter_elements, NULL, 3, 3, 0),
    OPDEF("ScatterElements", 11, 15, "axis", tko_run_scatter_elements, NULL, 3, 3, 0),
    OPDEF("ScatterElements", 16, TKO_ANY, "axis,reduction", tko_run_scatter_elements, tko_check_scatter, 3, 3, 0),
    OPDEF("ScatterND", 11, 15, "", tko_run_scatter_nd, NULL, 3, 3, 0),
    OPDEF("ScatterND", 16, TKO_ANY, "reduction", tko_run_scatter_nd, tko_check_scatter, 3, 3, 0),
    OPDEF("OneHot", 9, TKO_ANY, "axis", tko_run_one_hot, NULL, 3, 3, 0),
    OPDEF("Compress", 9, TKO_ANY, "axis", tko_run_compress, NULL, 2, 2, 0),
    OPDEF("NonZero", 9, TKO_ANY, "", tko_run_non_zero, NULL, 1, 1, 0),
    OPDEF("Unique", 11, TKO_ANY, "axis,sorted", tko_run_unique, NULL, 1, 1, 0),
    OPDEF("ReverseSequence", 10, TKO_ANY, "batch_axis,time_axis", tko_run_reverse_sequence, tko_check_reverse_sequence, 2, 2, 0),
    OPDEF("Range", 11, TKO_ANY, "stash_type", tko_run_range, tko_check_range, 3, 3, 0),
    OPDEF("ConstantOfShape", 9, TKO_ANY, "value", tko_run_constant_of_shape, tko_check_constant_of_shape, 1, 1, 0),
    OPDEF("EyeLike", 9, TKO_ANY, "dtype,k", tko_run_eye_like, tko_check_eye_like, 1, 1, 0),
    OPDEF("Trilu", 14, TKO_ANY, "upper", tko_run_trilu, NULL, 1, 2, 0),
    OPDEF("Pad", 1, 1, "paddings,mode,value", tko_run_pad, tko_check_pad, 1, 1, 0),
    OPDEF("Pad", 2, 10, "pads,mode,value", tko_run_pad, tko_check_pad, 1, 1, 0),
    OPDEF("Pad", 11, 17, "mode", tko_run_pad, tko_check_pad, 2, 3, 0),
    OPDEF("Pad", 18, TKO_ANY, "mode", tko_run_pad, tko_check_pad, 2, 4, 0),
    OPDEF("CenterCropPad", 18, TKO_ANY, "axes", tko_run_center_crop_pad, NULL, 2, 2, 0),
    OPDEF("DepthToSpace", 1, 10, "blocksize", tko_run_depth_to_space, tko_check_block_mode, 1, 1, 0),
    OPDEF("DepthToSpace", 11, TKO_ANY, "blocksize,mode", tko_run_depth_to_space, tko_check_block_mode, 1, 1, 0),
    OPDEF("SpaceToDepth", 1, 27, "blocksize", tko_run_space_to_depth, tko_check_block_mode, 1, 1, 0),
    OPDEF("SpaceToDepth", 28, TKO_ANY, "blocksize,mode", tko_run_space_to_depth, tko_check_block_mode, 1, 1, 0),
};

TKO_FAMILY_OF(tko_ops_shape, defs);
