/* op_ext_qconv.c — the integer convolutions ConvInteger (10+: int32 sums of
 * (x - x_zero_point) * (w - w_zero_point)) and QLinearConv (10+: the same
 * sums plus an int32 bias, requantized by x_scale * w_scale / y_scale to
 * y_zero_point's type, rounding half to even, saturating), N-D with groups,
 * strides, dilations, pads and auto_pad. Padding reads the zero point (adds
 * nothing). One loop per output cell, exact in int64: the same bits on any
 * thread count. The requantization follows onnx.reference: the multiplier
 * in float, its product with the sum in double. */
#include <math.h>
#include <string.h>

#include "op_ext.h"

#define QC_SPATIAL (TK_MAX_DIMS - 2)

typedef struct {
    int r;
    int64_t N, C, OC, group;
    int64_t in[QC_SPATIAL], k[QC_SPATIAL], out[QC_SPATIAL], str[QC_SPATIAL], dil[QC_SPATIAL], pad[QC_SPATIAL];
    int64_t in_plane, out_plane, kernel;
    const int64_t *x, *w, *wzp, *bias;   /* x and w as i64; wzp: per output channel (or NULL); bias or NULL */
    int64_t xzp;
    bool wzp_per_channel;
    int64_t *acc;   /* [N, OC, out...] */
} QConv;

const char *tko_check_qconv(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *ap = tko_attr_string(n, "auto_pad", "NOTSET");
    if (strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID")) {
        snprintf(why, len, "auto_pad='%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", ap);
        return why;
    }
    return NULL;
}

static void qc_cells(int64_t begin, int64_t end, void *arg)
{
    const QConv *q = arg;
    int64_t cpg = q->C / q->group, opg = q->OC / q->group;
    for (int64_t cell = begin; cell < end; cell++) {
        int64_t o = cell % q->out_plane, oc = cell / q->out_plane % q->OC, n = cell / (q->out_plane * q->OC);
        int64_t start[QC_SPATIAL], rest = o;
        for (int d = q->r - 1; d >= 0; d--) {
            start[d] = rest % q->out[d] * q->str[d] - q->pad[d];
            rest /= q->out[d];
        }
        int64_t g = oc / opg, wz = q->wzp ? q->wzp[q->wzp_per_channel ? oc : 0] : 0, acc = q->bias ? q->bias[oc] : 0;
        for (int64_t t = 0; t < q->kernel; t++) {
            int64_t tr = t, off = 0, stride = 1;
            bool inside = true;
            for (int d = q->r - 1; d >= 0; d--) {
                int64_t pos = start[d] + tr % q->k[d] * q->dil[d];
                tr /= q->k[d];
                inside &= pos >= 0 && pos < q->in[d];
                off += pos * stride;
                stride *= q->in[d];
            }
            if (!inside) continue;
            for (int64_t ci = 0; ci < cpg; ci++) {
                int64_t c = g * cpg + ci;
                acc += (q->x[(n * q->C + c) * q->in_plane + off] - q->xzp) * (q->w[(oc * cpg + ci) * q->kernel + t] - wz);
            }
        }
        q->acc[cell] = acc;
    }
}

static bool qc_is_8bit(tk_dtype d) { return d == TK_DTYPE_I8 || d == TK_DTYPE_U8; }

/* The sums of a ConvInteger / QLinearConv: x input xi, w input wi, zero
 * points at xz / wz (-1: none), bias input bi (-1: none). */
static tk_status qc_sums(TkoOpCtx *oc, int xi, int wi, int xz, int wz, int bi, QConv *q, tk_tensor **acc_out, tk_tensor **hold)
{
    const tk_tensor *X = oc->in[xi], *W = oc->in[wi];
    char sa[96], sb[96];
    for (int i = 0; i < 2; i++) {
        tk_dtype d = tk_tensor_dtype(i ? W : X);
        if (!qc_is_8bit(d)) return tko_fail(oc, TK_ERR_DTYPE, "%s holds %s (int8 or uint8)", i ? "w" : "x", tk_dtype_name(d));
    }
    int nd = tk_tensor_ndim(X);
    q->r = nd - 2;
    if (nd < 3 || q->r > QC_SPATIAL || tk_tensor_ndim(W) != nd)
        return tko_fail(oc, TK_ERR_SHAPE, "x %s and w %s: [N, C, spatial...] and [M, C / group, kernel...] are required", tko_ext_shape(X, sa, sizeof sa),
                        tko_ext_shape(W, sb, sizeof sb));
    const int64_t *xs = tk_tensor_shape(X), *ws = tk_tensor_shape(W);
    q->N = xs[0], q->C = xs[1], q->OC = ws[0], q->group = tko_attr_int(oc->node, "group", 1);
    if (q->group < 1 || q->C % q->group || q->OC % q->group || ws[1] * q->group != q->C)
        return tko_fail(oc, TK_ERR_SHAPE, "x %s and w %s do not fit group %lld", tko_ext_shape(X, sa, sizeof sa), tko_ext_shape(W, sb, sizeof sb),
                        (long long)q->group);
    int64_t pads[2 * QC_SPATIAL];
    tk_status s = tko_ext_ints_attr(oc, "kernel_shape", q->r, 0, q->k);
    if (!s) s = tko_ext_ints_attr(oc, "strides", q->r, 1, q->str);
    if (!s) s = tko_ext_ints_attr(oc, "dilations", q->r, 1, q->dil);
    if (!s) s = tko_ext_ints_attr(oc, "pads", 2 * q->r, 0, pads);
    if (s) return s;
    const char *ap = tko_attr_string(oc->node, "auto_pad", "NOTSET");
    q->in_plane = q->out_plane = q->kernel = 1;
    for (int d = 0; d < q->r; d++) {
        if (!tko_attr(oc->node, "kernel_shape")) q->k[d] = ws[2 + d];
        if (q->k[d] != ws[2 + d] || q->str[d] < 1 || q->dil[d] < 1)
            return tko_fail(oc, TK_ERR_SHAPE, "w %s does not fit kernel_shape, or a stride or dilation is below 1", tko_ext_shape(W, sa, sizeof sa));
        q->in[d] = xs[2 + d];
        int64_t span = (q->k[d] - 1) * q->dil[d] + 1, pb = pads[d], pe = pads[q->r + d];
        if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
            int64_t outd = (q->in[d] + q->str[d] - 1) / q->str[d], need = (outd - 1) * q->str[d] + span - q->in[d];
            if (need < 0) need = 0;
            pb = !strcmp(ap, "SAME_UPPER") ? need / 2 : need - need / 2;
            pe = need - pb;
        } else if (!strcmp(ap, "VALID")) pb = pe = 0;
        if (pb < 0 || pe < 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "pads must be >= 0");
        int64_t room = q->in[d] + pb + pe - span;
        if (room < 0)
            return tko_fail(oc, TK_ERR_SHAPE, "the kernel (%lld) is larger than the padded input (%lld) along spatial dim %d", (long long)span,
                            (long long)(q->in[d] + pb + pe), d);
        q->pad[d] = pb;
        q->out[d] = room / q->str[d] + 1;
        q->in_plane *= q->in[d], q->out_plane *= q->out[d], q->kernel *= q->k[d];
    }
    tk_tensor *hx = NULL, *hw = NULL, *hz = NULL, *hb = NULL;
    if (xz >= 0 && xz < oc->nin && oc->in[xz]) {
        double v;
        if (tk_tensor_numel(oc->in[xz]) != 1) return tko_fail(oc, TK_ERR_SHAPE, "x_zero_point must be one value (per-tensor)");
        if ((s = tko_input_scalar(oc, xz, &v))) return s;
        q->xzp = (int64_t)v;
    }
    if (wz >= 0 && wz < oc->nin && oc->in[wz]) {
        int64_t nz = tk_tensor_numel(oc->in[wz]);
        if (nz != 1 && nz != q->OC) return tko_fail(oc, TK_ERR_SHAPE, "w_zero_point has %lld values for %lld output channels", (long long)nz, (long long)q->OC);
        q->wzp_per_channel = nz > 1;
        if ((s = tko_wrap(oc, tk_to_dtype(oc->ctx, oc->in[wz], TK_DTYPE_I64, &hz)))) return s;
        q->wzp = (const int64_t *)tkr_ptr(hz);
    }
    if (bi >= 0 && bi < oc->nin && oc->in[bi]) {
        const tk_tensor *B = oc->in[bi];
        if (tk_tensor_dtype(B) != TK_DTYPE_I32 || tk_tensor_numel(B) != q->OC)
            s = tko_fail(oc, TK_ERR_SHAPE, "B (%s %s) must be %lld int32 values", tk_dtype_name(tk_tensor_dtype(B)), tko_ext_shape(B, sa, sizeof sa),
                         (long long)q->OC);
        if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, B, TK_DTYPE_I64, &hb));
        if (!s) q->bias = (const int64_t *)tkr_ptr(hb);
    }
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, X, TK_DTYPE_I64, &hx));
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, W, TK_DTYPE_I64, &hw));
    int64_t oshape[TK_MAX_DIMS] = { q->N, q->OC };
    for (int d = 0; d < q->r; d++) oshape[2 + d] = q->out[d];
    if (!s) s = tko_wrap(oc, tk_zeros(oc->ctx, TK_DTYPE_I64, nd, oshape, acc_out));
    if (!s) {
        q->x = (const int64_t *)tkr_ptr(hx), q->w = (const int64_t *)tkr_ptr(hw), q->acc = (int64_t *)tkr_ptr(*acc_out);
        int64_t work = q->kernel * (q->C / q->group);
        tkr_parallel_for(oc->ctx, q->N * q->OC * q->out_plane, work >= 1024 ? 1 : 1024 / (work ? work : 1), qc_cells, q);
    }
    tk_tensor_release(hx);
    tk_tensor_release(hw);
    hold[0] = hz, hold[1] = hb;
    return s;
}

tk_status tko_run_conv_integer(TkoOpCtx *oc)
{
    QConv q = { 0 };
    tk_tensor *acc = NULL, *hold[2] = { NULL, NULL };
    tk_status s = qc_sums(oc, 0, 1, 2, 3, -1, &q, &acc, hold);
    /* the sums fit int32 for any conv ONNX Runtime runs; C's conversion otherwise */
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, acc, TK_DTYPE_I32, &oc->out[0]));
    tk_tensor_release(acc);
    tk_tensor_release(hold[0]);
    tk_tensor_release(hold[1]);
    return s;
}

tk_status tko_run_qlinear_conv(TkoOpCtx *oc)
{
    QConv q = { 0 };
    tk_tensor *acc = NULL, *hold[2] = { NULL, NULL }, *ws = NULL, *y = NULL;
    tk_status s = qc_sums(oc, 0, 3, 2, 5, 8, &q, &acc, hold);
    double xs, ys, yzp = 0;
    if (!s) s = tko_input_scalar(oc, 1, &xs);
    if (!s) s = tko_input_scalar(oc, 6, &ys);
    tk_dtype yd = oc->in[7] ? tk_tensor_dtype(oc->in[7]) : tk_tensor_dtype(oc->in[0]);
    if (!s && oc->in[7]) s = tko_input_scalar(oc, 7, &yzp);
    if (!s && !qc_is_8bit(yd)) s = tko_fail(oc, TK_ERR_DTYPE, "y_zero_point holds %s (int8 or uint8)", tk_dtype_name(yd));
    int64_t nws = s ? 0 : tk_tensor_numel(oc->in[4]);
    if (!s && nws != 1 && nws != q.OC) s = tko_fail(oc, TK_ERR_SHAPE, "w_scale has %lld values for %lld output channels", (long long)nws, (long long)q.OC);
    if (!s) s = tko_wrap(oc, tk_to_dtype(oc->ctx, oc->in[4], TK_DTYPE_F32, &ws));
    if (!s) s = tko_wrap(oc, tk_empty(oc->ctx, yd, tk_tensor_ndim(acc), tk_tensor_shape(acc), &y));
    if (!s) {
        const float *wsc = (const float *)tkr_ptr(ws);
        const int64_t *a = (const int64_t *)tkr_ptr(acc);
        double lo = yd == TK_DTYPE_I8 ? -128 : 0, hi = yd == TK_DTYPE_I8 ? 127 : 255;
        char *py = tkr_ptr(y);
        for (int64_t i = 0; i < tk_tensor_numel(acc); i++) {
            int64_t oc_i = i / q.out_plane % q.OC;
            float mult = (float)xs * wsc[nws > 1 ? oc_i : 0] / (float)ys;   /* the scale in float, as the reference */
            double r = (double)(int32_t)a[i] * (double)mult + yzp;
            r = r < lo ? lo : r > hi ? hi : r;
            tkr_store_i(py + i * (int64_t)tk_dtype_size(yd), yd, (int64_t)nearbyint(r));
        }
        oc->out[0] = y;
        y = NULL;
    }
    tk_tensor_release(y);
    tk_tensor_release(ws);
    tk_tensor_release(acc);
    tk_tensor_release(hold[0]);
    tk_tensor_release(hold[1]);
    return s;
}
