/* op_shape_make.c — ONNX ops that make a tensor from a few numbers: Range,
 * ConstantOfShape, EyeLike, and Trilu (a triangle of its input). */
#include <math.h>
#include <string.h>

#include "op_shape_ops.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* Range: max(ceil((limit - start) / delta), 0) elements start + i·delta,
 * in the inputs' type. Integers are computed exactly in int64; floats in
 * double and rounded once, as the reference's np.arange on Python floats
 * (f16/bf16 with stash_type=11 exactly, with stash_type=1 within a float
 * rounding). */
tk_status tko_run_range(TkoOpCtx *oc)
{
    tk_dtype dt = tk_tensor_dtype(oc->in[0]);
    for (int i = 1; i < 3; i++)
        if (tk_tensor_dtype(oc->in[i]) != dt)
            return tko_fail(oc, TK_ERR_DTYPE, "input %d is %s, start is %s", i, tk_dtype_name(tk_tensor_dtype(oc->in[i])), tk_dtype_name(dt));
    for (int i = 0; i < 3; i++)
        if (tk_tensor_numel(oc->in[i]) != 1)
            return tko_fail(oc, TK_ERR_SHAPE, "input %d has %lld elements (a scalar is required)", i, (long long)tk_tensor_numel(oc->in[i]));
    tk_tensor *out;
    tk_status s;
    if (!tk_dtype_is_float(dt)) {
        if (dt == TK_DTYPE_BOOL) return tko_fail(oc, TK_ERR_DTYPE, "inputs are bool (a number type is required)");
        int64_t v[3];
        for (int i = 0; i < 3; i++) v[i] = tkr_load_i(tkr_ptr(oc->in[i]), dt);
        if (v[2] == 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "delta is 0");
        int64_t span = v[1] - v[0], n = 0;
        if ((span > 0) == (v[2] > 0) && span != 0) n = span / v[2] + (span % v[2] != 0);   /* the ceiling: both have one sign */
        if ((s = tko_wrap(oc, tk_empty(oc->ctx, dt, 1, &n, &out)))) return s;
        char *p = tkr_ptr(out);
        size_t es = tk_dtype_size(dt);
        for (int64_t i = 0; i < n; i++) tkr_store_i(p + i * (int64_t)es, dt, v[0] + i * v[2]);
    } else {
        double v[3];
        for (int i = 0; i < 3; i++) v[i] = tkr_load_f(tkr_ptr(oc->in[i]), dt);
        if (v[2] == 0 || !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "start %g, limit %g, delta %g do not make a finite range", v[0], v[1], v[2]);
        double count = ceil((v[1] - v[0]) / v[2]);
        if (count > (double)(INT64_MAX / 16)) return tko_fail(oc, TK_ERR_SHAPE, "the range has %g elements", count);
        int64_t n = count > 0 ? (int64_t)count : 0;
        if ((s = tko_wrap(oc, tk_empty(oc->ctx, dt, 1, &n, &out)))) return s;
        char *p = tkr_ptr(out);
        size_t es = tk_dtype_size(dt);
        for (int64_t i = 0; i < n; i++) tkr_store_f(p + i * (int64_t)es, dt, v[0] + (double)i * v[2]);
    }
    oc->out[0] = out;
    return TK_OK;
}

const char *tko_check_range(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t stash = tko_attr_int(n, "stash_type", 1);
    if (stash != 1 && stash != 11) {
        snprintf(why, len, "stash_type=%lld is neither 1 (float) nor 11 (double)", (long long)stash);
        return why;
    }
    return NULL;
}

void tko_fill_element(void *dst, int64_t count, const void *elem, size_t es)
{
    if (count <= 0) return;
    char *p = dst;
    memcpy(p, elem, es);
    for (int64_t done = 1; done < count;) {   /* doubling copies: log2(count) memcpys */
        int64_t k = done < count - done ? done : count - done;
        memcpy(p + done * (int64_t)es, p, (size_t)k * es);
        done += k;
    }
}

/* ConstantOfShape: the shape input filled with the one element of `value`
 * (f32 0 without it), copied bit for bit so int64 values stay exact. */
tk_status tko_run_constant_of_shape(TkoOpCtx *oc)
{
    int64_t shape[TK_MAX_DIMS];
    int n;
    tk_status s = tko_input_ints(oc, 0, shape, TK_MAX_DIMS, &n);
    if (s) return s;
    for (int i = 0; i < n; i++)
        if (shape[i] < 0) return tko_fail(oc, TK_ERR_SHAPE, "shape[%d] = %lld is negative", i, (long long)shape[i]);
    const TkoAttr *a = tko_attr(oc->node, "value");
    if (!a || !a->t) return tko_wrap(oc, tk_zeros(oc->ctx, TK_DTYPE_F32, n, shape, &oc->out[0]));
    tk_dtype dt = tk_tensor_dtype(a->t);
    tk_tensor *out;
    if ((s = tko_wrap(oc, tk_empty(oc->ctx, dt, n, shape, &out)))) return s;
    tko_fill_element(tkr_ptr(out), tk_tensor_numel(out), tkr_ptr(a->t), tk_dtype_size(dt));
    oc->out[0] = out;
    return TK_OK;
}

const char *tko_check_constant_of_shape(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const TkoAttr *a = tko_attr(n, "value");
    if (a && (!a->t || tk_tensor_numel(a->t) != 1)) {
        snprintf(why, len, "attribute value must be a tensor of one element");
        return why;
    }
    return NULL;
}

/* EyeLike: zeros of the input's 2-d shape with ones on diagonal k, in the
 * dtype attribute's type (the input's without it). */
tk_status tko_run_eye_like(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_ndim(x) != 2) return tko_fail(oc, TK_ERR_SHAPE, "input has rank %d (2 is required)", tk_tensor_ndim(x));
    tk_dtype dt = tk_tensor_dtype(x);
    if (tko_attr(oc->node, "dtype")) {
        int d = tkr_onnx_dtype(tko_attr_int(oc->node, "dtype", 0));
        if (d < 0) return tko_fail(oc, TK_ERR_UNSUPPORTED, "dtype %s is not a runtime dtype", tkr_onnx_type_name(tko_attr_int(oc->node, "dtype", 0)));
        dt = (tk_dtype)d;
    }
    int64_t k = tko_attr_int(oc->node, "k", 0), rows = tk_tensor_shape(x)[0], cols = tk_tensor_shape(x)[1];
    tk_tensor *out;
    tk_status s = tko_wrap(oc, tk_zeros(oc->ctx, dt, 2, tk_tensor_shape(x), &out));
    if (s) return s;
    char *p = tkr_ptr(out);
    size_t es = tk_dtype_size(dt);
    for (int64_t i = 0; i < rows; i++)
        if (i + k >= 0 && i + k < cols) tkr_store_f(p + (i * cols + i + k) * (int64_t)es, dt, 1.0);
    oc->out[0] = out;
    return TK_OK;
}

const char *tko_check_eye_like(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr(n, "dtype") && tkr_onnx_dtype(tko_attr_int(n, "dtype", 0)) < 0) {
        snprintf(why, len, "dtype %s: the runtime has no such dtype", tkr_onnx_type_name(tko_attr_int(n, "dtype", 0)));
        return why;
    }
    return NULL;
}

/* Trilu: the upper (upper=1) or lower triangle of the last two dims,
 * relative to diagonal k (an optional scalar input). */
tk_status tko_run_trilu(TkoOpCtx *oc)
{
    int64_t k = 0;
    if (oc->nin > 1 && oc->in[1]) {
        int n;
        tk_status s = tko_input_ints(oc, 1, &k, 1, &n);
        if (s) return s;
        if (n != 1) return tko_fail(oc, TK_ERR_SHAPE, "k has %d elements (one is required)", n);
    }
    bool upper = tko_attr_int(oc->node, "upper", 1) != 0;
    return tko_wrap(oc, (upper ? tk_triu : tk_tril)(oc->ctx, oc->in[0], k, &oc->out[0]));
}
