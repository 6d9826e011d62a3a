/* op_nn_resize.c — ONNX Resize (opset 10+) and Upsample (7-9).
 *
 * Resizing is separable: each resized axis is done on its own. Along an
 * axis, every output position o reads a few input positions with weights
 * that depend only on o (the coordinate transformation, the mode's
 * coefficients, antialiasing, exclude_outside, clamping at the edges), so
 *   nearest         is tk_index_select with one source index per output;
 *   linear, cubic   is a tk_matmul of x (the axis moved last) by the
 *                   [in, out] weight matrix built here in double;
 * and tf_crop_and_resize's outside positions are set to extrapolation_value
 * with tk_where. Floats compute in f32 (f64 for f64) and are cast back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

typedef enum { MODE_NEAREST, MODE_LINEAR, MODE_CUBIC } ResizeMode;

typedef struct {
    ResizeMode mode;
    const char *coord;     /* coordinate_transformation_mode */
    const char *nearest;   /* nearest_mode */
    double cubic_a, extrapolation;
    bool exclude_outside, antialias;
} ResizeParams;

static bool one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0) return true;
    return false;
}

const char *tko_nn_check_resize(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    static const char *const modes[] = { "nearest", "linear", "cubic", NULL };
    static const char *const coords[] = { "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                          "asymmetric", "tf_crop_and_resize", NULL };
    static const char *const nearest[] = { "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL };
    static const char *const policies[] = { "stretch", "not_larger", "not_smaller", NULL };
    const char *mode = tko_attr_string(n, "mode", "nearest");
    if (!one_of(mode, modes)) return tko_nn_why(why, len, "mode='%s' is not supported", mode);
    if (strcmp(n->op, "Upsample") == 0 && strcmp(mode, "cubic") == 0) return tko_nn_why(why, len, "mode='cubic' is not an Upsample mode");
    const char *c = tko_attr_string(n, "coordinate_transformation_mode", "half_pixel");
    if (!one_of(c, coords)) return tko_nn_why(why, len, "coordinate_transformation_mode='%s' is not supported", c);
    const char *nm = tko_attr_string(n, "nearest_mode", "round_prefer_floor");
    if (!one_of(nm, nearest)) return tko_nn_why(why, len, "nearest_mode='%s' is not supported", nm);
    const char *p = tko_attr_string(n, "keep_aspect_ratio_policy", "stretch");
    if (!one_of(p, policies)) return tko_nn_why(why, len, "keep_aspect_ratio_policy='%s' is not supported", p);
    if (tko_attr_int(n, "antialias", 0) && strcmp(mode, "nearest") == 0)
        return tko_nn_why(why, len, "antialias with mode='nearest' is not defined");
    return NULL;
}

/* ------------------------------------------------------------ coefficients (ONNX's reference definitions) */

/* The weights of the taps for fractional position ratio; returns the count. */
static int coefficients(const ResizeParams *p, double ratio, double scale, double *c, int max)
{
    if (p->mode == MODE_NEAREST) {
        bool hi;
        if (ratio == 1.0) hi = true;   /* an integral source position: its own sample */
        else if (strcmp(p->nearest, "round_prefer_ceil") == 0) hi = ratio >= 0.5;
        else if (strcmp(p->nearest, "floor") == 0) hi = false;
        else if (strcmp(p->nearest, "ceil") == 0) hi = true;
        else hi = ratio > 0.5;
        c[0] = !hi, c[1] = hi;
        return 2;
    }
    if (p->mode == MODE_LINEAR && !p->antialias) {
        c[0] = 1 - ratio, c[1] = ratio;
        return 2;
    }
    double a = p->cubic_a;
    if (p->mode == MODE_CUBIC && !p->antialias) {
        double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
        c[0] = ((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a;
        c[1] = ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1;
        c[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
        c[3] = ((a * q1 - 5 * a) * q1 + 8 * a) * q1 - 4 * a;
        return 4;
    }
    /* antialias: the kernel stretched by 1/scale when downscaling, normalised */
    double s = scale < 1.0 ? scale : 1.0, sum = 0;
    int start = (int)floor((p->mode == MODE_LINEAR ? -1.0 : -2.0) / s) + 1, n = p->mode == MODE_LINEAR ? 2 - 2 * start : 2 - 2 * start;
    if (n > max) n = max;
    for (int i = 0; i < n; i++) {
        double x = fabs(s * (start + i - ratio)), v;
        if (p->mode == MODE_LINEAR) v = 1 - x < 0 ? 0 : 1 - x > 1 ? 1 : 1 - x;
        else if (x <= 1) v = (a + 2) * x * x * x - (a + 3) * x * x + 1;
        else if (x < 2) v = a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
        else v = 0;
        c[i] = v, sum += v;
    }
    for (int i = 0; i < n; i++) c[i] /= sum;
    return n;
}

/* The source coordinate of output position o; *outside for tf_crop_and_resize. */
static double source_coord(const ResizeParams *p, double o, double scale, int64_t in, int64_t out, const double *roi, bool *outside)
{
    double ow = scale * (double)in, x;
    *outside = false;
    if (strcmp(p->coord, "align_corners") == 0) x = ow == 1 ? 0 : o * (double)(in - 1) / (ow - 1);
    else if (strcmp(p->coord, "asymmetric") == 0) x = o / scale;
    else if (strcmp(p->coord, "tf_crop_and_resize") == 0) {
        x = ow == 1 ? (roi[1] - roi[0]) * (double)(in - 1) / 2 : o * (roi[1] - roi[0]) * (double)(in - 1) / (ow - 1);
        x += roi[0] * (double)(in - 1);
        *outside = x < 0 || x > (double)(in - 1);
    } else if (strcmp(p->coord, "pytorch_half_pixel") == 0) x = ow == 1 ? -0.5 : (o + 0.5) / scale - 0.5;
    else if (strcmp(p->coord, "half_pixel_symmetric") == 0) {
        double adjustment = (double)out / ow, center = (double)in / 2;
        x = center * (1 - adjustment) + (o + 0.5) / scale - 0.5;
    } else x = (o + 0.5) / scale - 0.5;   /* half_pixel */
    return x;
}

#define MAX_TAPS 64

/* The taps of output o: n source indices (clamped into [0, in)) and weights. */
static int taps(const ResizeParams *p, int64_t o, double scale, int64_t in, int64_t out, const double *roi, int64_t *idx, double *w,
                bool *outside)
{
    double x = source_coord(p, (double)o, scale, in, out, roi, outside);
    double fl = floor(x), ratio = x == fl ? 1.0 : x - fl;
    int n = coefficients(p, ratio, scale, w, MAX_TAPS);
    int pad = (n + 1) / 2;
    double xp = x + pad, pp = floor(xp), frac = xp - pp;
    int64_t off = n % 2 == 0 ? (frac == 0 ? -(n / 2) : -(n / 2) + 1) : (frac <= 0.5 ? -((n - 1) / 2) : -((n - 1) / 2) + 1);
    int64_t start = (int64_t)pp + off - pad;
    double sum = 0;
    for (int k = 0; k < n; k++) {
        int64_t i = start + k;
        if (p->exclude_outside && (i < 0 || i >= in)) w[k] = 0;
        sum += w[k];
        idx[k] = i < 0 ? 0 : i >= in ? in - 1 : i;
    }
    if (p->exclude_outside)
        for (int k = 0; k < n; k++) w[k] /= sum == 0 ? 1 : sum;
    return n;
}

/* ------------------------------------------------------------ one axis */

static tk_status resize_axis(TkoOpCtx *oc, const ResizeParams *p, const tk_tensor *x, int axis, int64_t out, double scale,
                             const double *roi, tk_tensor **y)
{
    tk_context *ctx = oc->ctx;
    int64_t in = tk_tensor_shape(x)[axis];
    int nd = tk_tensor_ndim(x);
    bool *outside = calloc((size_t)(out ? out : 1), sizeof *outside);
    int64_t *index = NULL;
    double *wm = NULL;
    tk_tensor *t[8] = { 0 };
    tk_status s = TK_OK;
    bool any_outside = false;
    if (!outside) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    if (in == 0) {
        s = tko_fail(oc, TK_ERR_SHAPE, "axis %d is empty", axis);
        goto done;
    }
    if (p->mode == MODE_NEAREST) {
        if (!(index = malloc((size_t)(out ? out : 1) * sizeof *index))) goto oom;
        for (int64_t o = 0; o < out; o++) {
            int64_t ti[MAX_TAPS];
            double w[MAX_TAPS];
            int n = taps(p, o, scale, in, out, roi, ti, w, &outside[o]);
            index[o] = ti[0];
            for (int k = 0; k < n; k++)
                if (w[k] != 0) index[o] = ti[k];
            any_outside |= outside[o];
        }
        if ((s = tk_from_data(ctx, index, TK_DTYPE_I64, 1, &out, &t[0]))) goto done;
        s = tk_index_select(ctx, x, axis, t[0], &t[1]);
    } else {
        if (!(wm = calloc((size_t)(out > 0 ? in * out : 1), sizeof *wm))) goto oom;   /* [in, out] */
        for (int64_t o = 0; o < out; o++) {
            int64_t ti[MAX_TAPS];
            double w[MAX_TAPS];
            int n = taps(p, o, scale, in, out, roi, ti, w, &outside[o]);
            for (int k = 0; k < n; k++) wm[ti[k] * out + o] += w[k];
            any_outside |= outside[o];
        }
        tk_dtype d = tk_tensor_dtype(x);
        if ((s = tk_from_data(ctx, wm, TK_DTYPE_F64, 2, (int64_t[]){ in, out }, &t[2])) || (s = tk_to_dtype(ctx, t[2], d, &t[3])) ||
            (s = tk_transpose(ctx, x, axis, nd - 1, &t[4])) || (s = tk_matmul(ctx, t[4], t[3], &t[5])))
            goto done;
        s = tk_transpose(ctx, t[5], axis, nd - 1, &t[1]);
    }
    if (!s && any_outside) {   /* tf_crop_and_resize: positions outside the input take extrapolation_value */
        int64_t shape[TK_MAX_DIMS];
        for (int i = 0; i < nd; i++) shape[i] = i == axis ? out : 1;
        tk_tensor *m = NULL, *mv = NULL, *e = NULL;
        if (!(s = tk_from_data(ctx, outside, TK_DTYPE_BOOL, 1, &out, &m)) && !(s = tk_reshape(ctx, m, nd, shape, &mv)) &&
            !(s = tk_full(ctx, tk_tensor_dtype(t[1]), 0, NULL, p->extrapolation, &e)))
            s = tk_where(ctx, mv, e, t[1], y);
        tk_tensor_release(m), tk_tensor_release(mv), tk_tensor_release(e);
    } else if (!s) *y = tk_tensor_retain(t[1]);
    goto done;
oom:
    s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory for the interpolation weights of axis %d", axis);
done:
    tko_nn_release(t, 8);
    free(outside), free(index), free(wm);
    return s;
}

/* ------------------------------------------------------------ the ops */

/* Reads scales / sizes (inputs or, for Upsample-7, the attribute), axes and
 * roi into per-dim output sizes, scales and roi (starts then ends). */
static tk_status plan(TkoOpCtx *oc, const tk_tensor *x, int64_t *out, double *scale, double *roi, bool *has_roi)
{
    const TkoNode *n = oc->node;
    int nd = tk_tensor_ndim(x), naxes = nd, c;
    const int64_t *xs = tk_tensor_shape(x);
    int axes[TK_MAX_DIMS];
    tk_status s;
    const int64_t *ax = tko_attr_ints(n, "axes", &c);
    if (ax) {
        if (c > nd) return tko_fail(oc, TK_ERR_SHAPE, "axes has %d entries for a %d-d input", c, nd);
        naxes = c;
        for (int i = 0; i < c; i++)
            if ((s = tko_axis(oc, ax[i], nd, &axes[i]))) return s;
    } else
        for (int i = 0; i < nd; i++) axes[i] = i;
    for (int i = 0; i < nd; i++) out[i] = xs[i], scale[i] = 1.0, roi[i] = 0.0, roi[nd + i] = 1.0;
    *has_roi = false;
    int scales_in = -1, sizes_in = -1, roi_in = -1;
    bool upsample = strcmp(n->op, "Upsample") == 0;
    if (upsample) scales_in = n->opset >= 9 ? 1 : -1;
    else if (n->opset < 11) scales_in = 1;
    else roi_in = 1, scales_in = 2, sizes_in = 3;
    double sv[TK_MAX_DIMS];
    int ns = 0;
    if (upsample && n->opset < 9) {
        const TkoAttr *a = tko_attr(n, "scales");
        if (!a || a->n != nd) return tko_fail(oc, TK_ERR_SHAPE, "attribute scales must have one value per dim (%d)", nd);
        for (int i = 0; i < nd; i++) sv[i] = a->floats[i];
        ns = nd;
    } else if (scales_in < oc->nin && oc->in[scales_in] && tk_tensor_numel(oc->in[scales_in]) > 0) {
        const tk_tensor *st = oc->in[scales_in];
        if (tk_tensor_numel(st) != naxes)
            return tko_fail(oc, TK_ERR_SHAPE, "scales has %lld values for %d axes", (long long)tk_tensor_numel(st), naxes);
        tk_tensor *sd = NULL;
        if ((s = tko_nn_wrap(oc, tk_to_dtype(oc->ctx, st, TK_DTYPE_F64, &sd)))) return s;
        memcpy(sv, tk_tensor_data(sd), (size_t)naxes * sizeof *sv);
        tk_tensor_release(sd);
        ns = naxes;
    }
    if (ns) {
        for (int i = 0; i < naxes; i++) {
            if (!(sv[i] > 0)) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "scales[%d] = %g must be > 0", i, sv[i]);
            scale[axes[i]] = sv[i], out[axes[i]] = (int64_t)(sv[i] * (double)xs[axes[i]]);
        }
    } else if (sizes_in >= 0 && sizes_in < oc->nin && oc->in[sizes_in]) {
        int64_t sz[TK_MAX_DIMS];
        if ((s = tko_input_ints(oc, sizes_in, sz, TK_MAX_DIMS, &c))) return s;
        if (c != naxes) return tko_fail(oc, TK_ERR_SHAPE, "sizes has %d values for %d axes", c, naxes);
        for (int i = 0; i < naxes; i++) scale[axes[i]] = (double)sz[i] / (double)xs[axes[i]], out[axes[i]] = sz[i];
        const char *pol = tko_attr_string(n, "keep_aspect_ratio_policy", "stretch");
        if (strcmp(pol, "stretch") != 0) {
            double k = scale[axes[0]];
            for (int i = 1; i < naxes; i++)
                k = strcmp(pol, "not_larger") == 0 ? fmin(k, scale[axes[i]]) : fmax(k, scale[axes[i]]);
            for (int i = 0; i < naxes; i++) scale[axes[i]] = k, out[axes[i]] = (int64_t)(k * (double)xs[axes[i]] + 0.5);
        }
    } else return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "one of scales and sizes is required");
    if (roi_in >= 0 && roi_in < oc->nin && oc->in[roi_in] && tk_tensor_numel(oc->in[roi_in]) > 0) {
        const tk_tensor *rt = oc->in[roi_in];
        if (tk_tensor_numel(rt) != 2 * naxes)
            return tko_fail(oc, TK_ERR_SHAPE, "roi has %lld values for %d axes", (long long)tk_tensor_numel(rt), naxes);
        tk_tensor *rd = NULL;
        if ((s = tko_nn_wrap(oc, tk_to_dtype(oc->ctx, rt, TK_DTYPE_F64, &rd)))) return s;
        const double *r = tk_tensor_data(rd);
        for (int i = 0; i < naxes; i++) roi[axes[i]] = r[i], roi[nd + axes[i]] = r[naxes + i];
        tk_tensor_release(rd);
        *has_roi = true;
    }
    return TK_OK;
}

tk_status tko_nn_run_resize(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0];
    tk_dtype d = tk_tensor_dtype(x);
    int nd = tk_tensor_ndim(x);
    bool legacy = strcmp(n->op, "Upsample") == 0 || n->opset < 11;   /* Upsample and Resize-10: asymmetric, floor */
    const char *mode = tko_attr_string(n, "mode", "nearest");
    ResizeParams p = {
        .mode = strcmp(mode, "linear") == 0 ? MODE_LINEAR : strcmp(mode, "cubic") == 0 ? MODE_CUBIC : MODE_NEAREST,
        .coord = legacy ? "asymmetric" : tko_attr_string(n, "coordinate_transformation_mode", "half_pixel"),
        .nearest = legacy ? "floor" : tko_attr_string(n, "nearest_mode", "round_prefer_floor"),
        .cubic_a = tko_attr_float(n, "cubic_coeff_a", -0.75f),
        .extrapolation = tko_attr_float(n, "extrapolation_value", 0.0f),
        .exclude_outside = tko_attr_int(n, "exclude_outside", 0) != 0,
        .antialias = tko_attr_int(n, "antialias", 0) != 0,
    };
    int64_t out[TK_MAX_DIMS];
    double scale[TK_MAX_DIMS], roi[2 * TK_MAX_DIMS];
    bool has_roi;
    tk_status s = plan(oc, x, out, scale, roi, &has_roi);
    if (s) return s;
    /* interpolating modes compute in f32 (f64 for f64); nearest only moves elements */
    tk_dtype work = p.mode == MODE_NEAREST ? d : d == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    tk_tensor *cur = NULL;
    if ((s = tko_nn_to(oc, x, work, &cur))) return s;
    for (int a = 0; a < nd && !s; a++) {
        bool crops = has_roi && strcmp(p.coord, "tf_crop_and_resize") == 0 && (fabs(roi[a]) > 1e-9 || fabs(roi[nd + a] - 1) > 1e-9);
        if (fabs(scale[a] - 1.0) <= 1e-9 && out[a] == tk_tensor_shape(cur)[a] && !crops) continue;   /* as the reference: untouched */
        double r2[2] = { roi[a], roi[nd + a] };
        tk_tensor *next = NULL;
        s = resize_axis(oc, &p, cur, a, out[a], scale[a], r2, &next);
        tk_tensor_release(cur);
        cur = next;
    }
    if (!s) s = tko_nn_wrap(oc, tk_contiguous(oc->ctx, cur, &oc->out[0]));
    tk_tensor_release(cur);
    if (!s && oc->out[0] == x) {   /* nothing resized: a copy, never the input itself */
        tk_tensor *c;
        if (!(s = tko_nn_wrap(oc, tk_clone(oc->ctx, x, &c)))) tk_tensor_release(oc->out[0]), oc->out[0] = c;
    }
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}
