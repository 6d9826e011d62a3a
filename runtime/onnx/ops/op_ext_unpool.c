/* op_ext_unpool.c — MaxUnpool (9+): the values of a max pool put back at
 * the flat positions its Indices give, zeros elsewhere. As onnx.reference
 * (and the node suite's expected outputs), the indices address the shape
 * inferred from the pool's geometry, (in - 1) * stride - pads + kernel; an
 * output_shape input then only pads (zeros at the end of each dim) or crops
 * that result. Indices that repeat keep the last value written, in order. */
#include <string.h>

#include "op_ext.h"

tk_status tko_run_max_unpool(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *I = oc->in[1], *Os = oc->nin > 2 ? oc->in[2] : NULL;
    char sa[96], sb[96];
    int nd = tk_tensor_ndim(X), r = nd - 2;
    if (nd < 3) return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s: [N, C, spatial...] is required", tko_ext_shape(X, sa, sizeof sa));
    if (tk_tensor_ndim(I) != nd || memcmp(tk_tensor_shape(I), tk_tensor_shape(X), (size_t)nd * sizeof(int64_t)))
        return tko_fail(oc, TK_ERR_SHAPE, "indices of shape %s do not match X of shape %s", tko_ext_shape(I, sa, sizeof sa), tko_ext_shape(X, sb, sizeof sb));
    int64_t kernel[TK_MAX_DIMS], strides[TK_MAX_DIMS], pads[2 * TK_MAX_DIMS];
    tk_status s = tko_ext_ints_attr(oc, "kernel_shape", r, 0, kernel);
    if (!s) s = tko_ext_ints_attr(oc, "strides", r, 1, strides);
    if (!s) s = tko_ext_ints_attr(oc, "pads", 2 * r, 0, pads);
    if (s) return s;
    int64_t inferred[TK_MAX_DIMS] = { tk_tensor_shape(X)[0], tk_tensor_shape(X)[1] }, total = inferred[0] * inferred[1];
    for (int d = 0; d < r; d++) {
        inferred[2 + d] = (tk_tensor_shape(X)[2 + d] - 1) * strides[d] - (pads[d] + pads[r + d]) + kernel[d];
        if (kernel[d] < 1 || inferred[2 + d] < 0) return tko_fail(oc, TK_ERR_SHAPE, "kernel_shape, strides and pads give spatial dim %d a size of %lld", d, (long long)inferred[2 + d]);
        total *= inferred[2 + d];
    }
    int64_t oshape[TK_MAX_DIMS];
    memcpy(oshape, inferred, sizeof inferred);
    if (Os) {
        int n;
        if ((s = tko_input_ints(oc, 2, oshape, TK_MAX_DIMS, &n))) return s;
        if (n != nd) return tko_fail(oc, TK_ERR_SHAPE, "output_shape has %d entries for a %d-d X", n, nd);
        for (int d = 0; d < nd; d++)
            if (oshape[d] < 0 || (d < 2 && oshape[d] != inferred[d]))
                return tko_fail(oc, TK_ERR_SHAPE, "output_shape[%d] = %lld does not fit X of shape %s", d, (long long)oshape[d], tko_ext_shape(X, sa, sizeof sa));
    }
    tk_tensor *hx = NULL, *hi = NULL, *full = NULL, *y = NULL;
    const double *x;
    double *pf, *py;
    s = tko_ext_f64(oc, 0, &hx, &x);
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, I, TK_DTYPE_I64, &hi));
    if (!s) s = tko_ext_new_f64(oc, nd, inferred, &full, &pf);
    const int64_t *iv = s ? NULL : (const int64_t *)tkr_ptr(hi);
    for (int64_t e = 0; !s && e < tk_tensor_numel(X); e++) {
        if (iv[e] < 0 || iv[e] >= total)
            s = tko_fail(oc, TK_ERR_INDEX, "indices' element %lld is %lld, outside [0, %lld)", (long long)e, (long long)iv[e], (long long)total);
        else pf[iv[e]] = x[e];
    }
    if (!s) s = tko_ext_new_f64(oc, nd, oshape, &y, &py);
    if (!s) {   /* the inferred result at the start of each dim of the output */
        int64_t count = tk_tensor_numel(y);
        for (int64_t o = 0; o < count; o++) {
            int64_t rest = o, off = 0, stride = 1;
            bool inside = true;
            for (int d = nd - 1; d >= 0; d--) {
                int64_t i = rest % oshape[d];
                rest /= oshape[d];
                inside &= i < inferred[d];
                off += i * stride;
                stride *= inferred[d];
            }
            py[o] = inside ? pf[off] : 0;
        }
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
        y = NULL;
    }
    tk_tensor_release(y);
    tk_tensor_release(full);
    tk_tensor_release(hx);
    tk_tensor_release(hi);
    return s;
}
