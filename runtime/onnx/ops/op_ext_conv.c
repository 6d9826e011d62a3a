/* op_ext_conv.c — the convolution-shaped ops the runtime has no kernel for:
 * Col2Im (N-D, the inverse of im2col: overlapping blocks summed) and
 * DeformConv (2-D, each kernel tap read at an offset position by bilinear
 * interpolation, zero outside the image, optionally masked). */
#include <math.h>
#include <string.h>

#include "op_ext.h"

/* ------------------------------------------------------------ Col2Im */

typedef struct {
    const double *x;
    double *y;
    int r;
    int64_t img[TK_MAX_DIMS], blk[TK_MAX_DIMS], cols[TK_MAX_DIMS];
    int64_t dil[TK_MAX_DIMS], pad[TK_MAX_DIMS], str[TK_MAX_DIMS];
    int64_t kernel, L, plane;   /* prod(block), prod(cols), prod(image) */
} Col2ImArgs;

/* One (n, c) image: every block position's column added at its place, in
 * the fixed order (tap, block) so the sums do not depend on threads. */
static void col2im_plane(const Col2ImArgs *a, int64_t nc)
{
    const double *col = a->x + nc * a->kernel * a->L;
    double *img = a->y + nc * a->plane;
    for (int64_t k = 0; k < a->kernel; k++)
        for (int64_t l = 0; l < a->L; l++) {
            int64_t kr = k, lr = l, off = 0, stride = 1;
            bool inside = true;
            for (int d = a->r - 1; d >= 0; d--) {
                int64_t kd = kr % a->blk[d], ld = lr % a->cols[d];
                kr /= a->blk[d];
                lr /= a->cols[d];
                int64_t pos = ld * a->str[d] - a->pad[d] + kd * a->dil[d];
                if (pos < 0 || pos >= a->img[d]) inside = false;
                off += pos * stride;
                stride *= a->img[d];
            }
            if (inside) img[off] += col[k * a->L + l];
        }
}

static void col2im_range(int64_t begin, int64_t end, void *arg)
{
    for (int64_t i = begin; i < end; i++) col2im_plane(arg, i);
}

tk_status tko_run_col2im(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    char sa[96];
    tk_status s;
    int64_t img[TK_MAX_DIMS], blk[TK_MAX_DIMS];
    int ni, nb;
    if ((s = tko_input_ints(oc, 1, img, TK_MAX_DIMS - 2, &ni)) || (s = tko_input_ints(oc, 2, blk, TK_MAX_DIMS - 2, &nb))) return s;
    if (ni != nb || ni < 1) return tko_fail(oc, TK_ERR_SHAPE, "image_shape has %d entries and block_shape %d (equal, at least 1)", ni, nb);
    Col2ImArgs a = { .r = ni, .kernel = 1, .L = 1, .plane = 1 };
    int64_t pads[2 * TK_MAX_DIMS];
    if ((s = tko_ext_ints_attr(oc, "dilations", ni, 1, a.dil)) || (s = tko_ext_ints_attr(oc, "strides", ni, 1, a.str)) ||
        (s = tko_ext_ints_attr(oc, "pads", 2 * ni, 0, pads)))
        return s;
    const int64_t *xs = tk_tensor_shape(X);
    for (int d = 0; d < ni; d++) {
        if (img[d] < 0 || blk[d] < 1 || a.dil[d] < 1 || a.str[d] < 1 || pads[d] < 0 || pads[d + ni] < 0)
            return tko_fail(oc, TK_ERR_SHAPE, "dim %d: image %lld, block %lld, dilation %lld, stride %lld, pads %lld/%lld out of range", d,
                            (long long)img[d], (long long)blk[d], (long long)a.dil[d], (long long)a.str[d], (long long)pads[d],
                            (long long)pads[d + ni]);
        a.img[d] = img[d];
        a.blk[d] = blk[d];
        a.pad[d] = pads[d];
        int64_t span = a.dil[d] * (blk[d] - 1) + 1, room = img[d] + pads[d] + pads[d + ni] - span;
        a.cols[d] = room < 0 ? 0 : room / a.str[d] + 1;
        a.kernel *= blk[d];
        a.L *= a.cols[d];
        a.plane *= img[d];
    }
    if (tk_tensor_ndim(X) != 3 || xs[1] % a.kernel || xs[2] != a.L)
        return tko_fail(oc, TK_ERR_SHAPE, "input of shape %s does not fit: [N, C * %lld, %lld] is required by the block and image shapes",
                        tko_ext_shape(X, sa, sizeof sa), (long long)a.kernel, (long long)a.L);
    s = tko_ext_need_float(oc, 0);
    if (s) return s;
    int64_t oshape[TK_MAX_DIMS] = { xs[0], xs[1] / a.kernel };
    memcpy(oshape + 2, img, (size_t)ni * sizeof *img);
    tk_tensor *hx, *y;
    double *py;
    s = tko_ext_f64(oc, 0, &hx, &a.x);
    if (s) return s;
    s = tko_ext_new_f64(oc, ni + 2, oshape, &y, &py);
    if (!s) {
        a.y = py;
        tkr_parallel_for(oc->ctx, oshape[0] * oshape[1], 1, col2im_range, &a);
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
    }
    tk_tensor_release(hx);
    return s;
}

/* ------------------------------------------------------------ DeformConv */

typedef struct {
    const double *x, *w, *off, *bias, *mask;
    double *y;
    int64_t N, C, H, W, OC, OH, OW, kh, kw, group, ogroup;
    int64_t sh, sw, dh, dw, ph, pw;
} DeformArgs;

/* X[n, c] at (h, w) by bilinear interpolation, corners outside reading 0. */
static double deform_sample(const DeformArgs *a, const double *plane, double h, double w)
{
    if (!(h > -1 && h < (double)a->H && w > -1 && w < (double)a->W)) return 0;   /* every corner outside, or NaN */
    double fh = floor(h), fw = floor(w), th = h - fh, tw = w - fw;
    int64_t h0 = (int64_t)fh, w0 = (int64_t)fw;
    double v = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int64_t hh = h0 + i, ww = w0 + j;
            if (hh < 0 || hh >= a->H || ww < 0 || ww >= a->W) continue;
            v += (i ? th : 1 - th) * (j ? tw : 1 - tw) * plane[hh * a->W + ww];
        }
    return v;
}

static double deform_point(const DeformArgs *a, int64_t n, int64_t o, int64_t i, int64_t j)
{
    int64_t cpg = a->C / a->group, opg = a->OC / a->group, cpo = a->C / a->ogroup, taps = a->kh * a->kw;
    int64_t g = o / opg;
    double acc = a->bias ? a->bias[o] : 0;
    for (int64_t ci = 0; ci < cpg; ci++) {
        int64_t c = g * cpg + ci, og = c / cpo;
        const double *plane = a->x + (n * a->C + c) * a->H * a->W;
        for (int64_t t = 0; t < taps; t++) {
            int64_t ki = t / a->kw, kj = t % a->kw;
            /* offset holds (dh, dw) per (offset group, tap) as channels */
            int64_t ch = (og * taps + t) * 2;
            double dh = a->off[((n * a->ogroup * taps * 2 + ch) * a->OH + i) * a->OW + j];
            double dw = a->off[((n * a->ogroup * taps * 2 + ch + 1) * a->OH + i) * a->OW + j];
            double h = (double)(i * a->sh - a->ph + ki * a->dh) + dh, w = (double)(j * a->sw - a->pw + kj * a->dw) + dw;
            double m = a->mask ? a->mask[((n * a->ogroup * taps + og * taps + t) * a->OH + i) * a->OW + j] : 1;
            acc += a->w[(o * cpg + ci) * taps + t] * m * deform_sample(a, plane, h, w);
        }
    }
    return acc;
}

static void deform_range(int64_t begin, int64_t end, void *arg)
{
    const DeformArgs *a = arg;
    for (int64_t k = begin; k < end; k++) {
        int64_t j = k % a->OW, i = k / a->OW % a->OH, o = k / (a->OW * a->OH) % a->OC, n = k / (a->OW * a->OH * a->OC);
        a->y[k] = deform_point(a, n, o, i, j);
    }
}

tk_status tko_run_deform_conv(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *Wt = oc->in[1], *Off = oc->in[2];
    const tk_tensor *Bi = oc->nin > 3 ? oc->in[3] : NULL, *Mk = oc->nin > 4 ? oc->in[4] : NULL;
    char sa[96], sb[96], sc[96];
    for (int i = 0; i < oc->nin; i++)
        if (oc->in[i]) {
            tk_status s = tko_ext_need_float(oc, i);
            if (s) return s;
        }
    if (tk_tensor_ndim(X) != 4)
        return tko_fail(oc, TK_ERR_UNSUPPORTED, "X of shape %s: only 2-D deformable convolution (4-D X) is supported", tko_ext_shape(X, sa, sizeof sa));
    const int64_t *xs = tk_tensor_shape(X), *ws = tk_tensor_shape(Wt), *os = tk_tensor_shape(Off);
    DeformArgs a = { .N = xs[0], .C = xs[1], .H = xs[2], .W = xs[3], .group = tko_attr_int(oc->node, "group", 1),
                     .ogroup = tko_attr_int(oc->node, "offset_group", 1) };
    int64_t ks[2], st[2], dl[2], pd[4];
    tk_status s;
    if (tk_tensor_ndim(Wt) != 4) return tko_fail(oc, TK_ERR_SHAPE, "W of shape %s is not 4-D", tko_ext_shape(Wt, sa, sizeof sa));
    if ((s = tko_ext_ints_attr(oc, "kernel_shape", 2, 0, ks)) || (s = tko_ext_ints_attr(oc, "strides", 2, 1, st)) ||
        (s = tko_ext_ints_attr(oc, "dilations", 2, 1, dl)) || (s = tko_ext_ints_attr(oc, "pads", 4, 0, pd)))
        return s;
    if (!tko_attr(oc->node, "kernel_shape")) ks[0] = ws[2], ks[1] = ws[3];
    a.OC = ws[0], a.kh = ks[0], a.kw = ks[1], a.sh = st[0], a.sw = st[1], a.dh = dl[0], a.dw = dl[1], a.ph = pd[0], a.pw = pd[1];
    if (a.group < 1 || a.ogroup < 1 || a.C % a.group || a.OC % a.group || ws[1] * a.group != a.C || a.C % a.ogroup || ks[0] != ws[2] ||
        ks[1] != ws[3] || a.sh < 1 || a.sw < 1 || a.dh < 1 || a.dw < 1)
        return tko_fail(oc, TK_ERR_SHAPE, "X %s and W %s do not fit group %lld, offset_group %lld, kernel_shape [%lld, %lld]",
                        tko_ext_shape(X, sa, sizeof sa), tko_ext_shape(Wt, sb, sizeof sb), (long long)a.group, (long long)a.ogroup,
                        (long long)ks[0], (long long)ks[1]);
    a.OH = (a.H + pd[0] + pd[2] - (a.dh * (a.kh - 1) + 1)) / a.sh + 1;
    a.OW = (a.W + pd[1] + pd[3] - (a.dw * (a.kw - 1) + 1)) / a.sw + 1;
    int64_t taps = a.kh * a.kw;
    if (tk_tensor_ndim(Off) != 4 || os[0] != a.N || os[1] != a.ogroup * taps * 2 || os[2] != a.OH || os[3] != a.OW)
        return tko_fail(oc, TK_ERR_SHAPE, "offset of shape %s does not fit X %s: [%lld, %lld, %lld, %lld] is required", tko_ext_shape(Off, sa, sizeof sa),
                        tko_ext_shape(X, sb, sizeof sb), (long long)a.N, (long long)(a.ogroup * taps * 2), (long long)a.OH, (long long)a.OW);
    if (Bi && (tk_tensor_numel(Bi) != a.OC))
        return tko_fail(oc, TK_ERR_SHAPE, "B of shape %s does not have %lld values", tko_ext_shape(Bi, sa, sizeof sa), (long long)a.OC);
    if (Mk) {
        const int64_t *ms = tk_tensor_shape(Mk);
        if (tk_tensor_ndim(Mk) != 4 || ms[0] != a.N || ms[1] != a.ogroup * taps || ms[2] != a.OH || ms[3] != a.OW)
            return tko_fail(oc, TK_ERR_SHAPE, "mask of shape %s does not fit offset %s", tko_ext_shape(Mk, sa, sizeof sa), tko_ext_shape(Off, sc, sizeof sc));
    }
    tk_tensor *h[5] = { NULL }, *y = NULL;
    const double *p[5] = { NULL };
    for (int i = 0; i < 5 && !s; i++)
        if (i < oc->nin && oc->in[i]) s = tko_ext_f64(oc, i, &h[i], &p[i]);
    double *py;
    int64_t oshape[4] = { a.N, a.OC, a.OH, a.OW };
    if (!s) s = tko_ext_new_f64(oc, 4, oshape, &y, &py);
    if (!s) {
        a.x = p[0], a.w = p[1], a.off = p[2], a.bias = p[3], a.mask = p[4], a.y = py;
        tkr_parallel_for(oc->ctx, a.N * a.OC * a.OH * a.OW, 16, deform_range, &a);
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
    }
    for (int i = 0; i < 5; i++) tk_tensor_release(h[i]);
    return s;
}
