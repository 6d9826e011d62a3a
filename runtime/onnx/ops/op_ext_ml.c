/* op_ext_ml.c — the ai.onnx.ml ops of the node suite that fit the runtime's
 * dtypes: Binarizer (x > threshold as 1 or 0, in x's dtype) and
 * ArrayFeatureExtractor (x[..., indices] along the last dim; a 1-D x gives
 * one row, as ONNX Runtime). String tensors are a dtype the runtime lacks. */
#include <string.h>

#include "op_ext.h"
#include "tk/ops.h"
#include "tk/shape.h"

tk_status tko_run_binarizer(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    tk_dtype d = tk_tensor_dtype(X);
    if (!tko_ext_is_float(d) && d != TK_DTYPE_I32 && d != TK_DTYPE_I64)
        return tko_fail(oc, TK_ERR_DTYPE, "X holds %s (float, double, int32 or int64)", tk_dtype_name(d));
    double thr = tko_attr_float(oc->node, "threshold", 0.0f);
    tk_tensor *h, *y;
    const double *x;
    double *py;
    tk_status s = tko_ext_f64(oc, 0, &h, &x);
    if (s) return s;
    s = tko_ext_new_f64(oc, tk_tensor_ndim(X), tk_tensor_shape(X), &y, &py);
    if (!s) {
        for (int64_t i = 0; i < tk_tensor_numel(X); i++) py[i] = x[i] > thr ? 1 : 0;
        s = tko_ext_emit(oc, 0, y, d);
    }
    tk_tensor_release(h);
    return s;
}

tk_status tko_run_array_feature_extractor(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *I = oc->in[1];
    char sa[96];
    int nd = tk_tensor_ndim(X);
    tk_dtype id = tk_tensor_dtype(I);
    if (nd < 1) return tko_fail(oc, TK_ERR_SHAPE, "X is a scalar; it needs a last dim to pick from");
    if (id != TK_DTYPE_I64 && id != TK_DTYPE_I32) return tko_fail(oc, TK_ERR_DTYPE, "indices hold %s (int64 is required)", tk_dtype_name(id));
    int64_t last = tk_tensor_shape(X)[nd - 1], k = tk_tensor_numel(I);
    tk_tensor *ic = NULL, *picked = NULL;
    tk_status s = tko_wrap(oc, tk_to_dtype(oc->ctx, I, TK_DTYPE_I64, &ic));
    if (s) return s;
    const int64_t *iv = (const int64_t *)tkr_ptr(ic);
    for (int64_t j = 0; j < k && !s; j++)
        if (iv[j] < 0 || iv[j] >= last)
            s = tko_fail(oc, TK_ERR_INDEX, "indices[%lld] = %lld is outside [0, %lld) for X of shape %s", (long long)j, (long long)iv[j], (long long)last,
                         tko_ext_shape(X, sa, sizeof sa));
    tk_tensor *flat = NULL;
    if (!s) s = tko_wrap(oc, tk_reshape(oc->ctx, ic, 1, &k, &flat));
    if (!s) s = tko_wrap(oc, tk_index_select(oc->ctx, X, nd - 1, flat, &picked));
    if (!s) {
        int64_t shape[TK_MAX_DIMS];
        int on = nd == 1 ? 2 : nd;
        memcpy(shape, tk_tensor_shape(X), (size_t)nd * sizeof *shape);
        if (nd == 1) shape[0] = 1;
        shape[on - 1] = k;
        s = tko_wrap(oc, tk_reshape(oc->ctx, picked, on, shape, &oc->out[0]));
    }
    tk_tensor_release(flat);
    tk_tensor_release(picked);
    tk_tensor_release(ic);
    return s;
}
