/* op_ext_detect.c — the detection ops: RoiAlign (avg and max, half_pixel
 * and output_half_pixel) and NonMaxSuppression (corner and centre boxes),
 * following the ONNX reference implementation (ONNX Runtime's rules). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_ext.h"

/* ------------------------------------------------------------ RoiAlign */

/* coordinate_transformation_mode came at opset 16, defaulting to half_pixel;
 * before, the op behaved as output_half_pixel. */
static const char *roi_ctm(const TkoNode *n)
{
    return tko_attr_string(n, "coordinate_transformation_mode", n->opset >= 16 ? "half_pixel" : "output_half_pixel");
}

const char *tko_check_roi_align(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *ctm = roi_ctm(n), *mode = tko_attr_string(n, "mode", "avg");
    if (strcmp(ctm, "half_pixel") && strcmp(ctm, "output_half_pixel")) {
        snprintf(why, len, "coordinate_transformation_mode='%s' is not supported", ctm);
        return why;
    }
    if (strcmp(mode, "avg") && strcmp(mode, "max")) {
        snprintf(why, len, "mode='%s' is not supported", mode);
        return why;
    }
    if (tko_attr_int(n, "output_height", 1) < 1 || tko_attr_int(n, "output_width", 1) < 1) {
        snprintf(why, len, "output_height and output_width must be at least 1");
        return why;
    }
    return NULL;
}

typedef struct {
    const double *x, *rois;
    const int64_t *batch;
    double *y;
    int64_t C, H, W, ph, pw, sampling;
    double scale, offset;
    bool half_pixel, max_mode;
} RoiArgs;

/* One bilinear sample point: four positions and weights (all zero outside). */
typedef struct {
    int64_t pos[4];
    double w[4];
} RoiTap;

static RoiTap roi_tap(const RoiArgs *a, double y, double x)
{
    RoiTap t = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    if (!(y >= -1.0 && y <= (double)a->H && x >= -1.0 && x <= (double)a->W)) return t;   /* NaN too */
    if (y < 0) y = 0;
    if (x < 0) x = 0;
    int64_t yl = (int64_t)y, xl = (int64_t)x, yh, xh;
    if (yl >= a->H - 1) {
        yh = yl = a->H - 1;
        y = (double)yl;
    } else yh = yl + 1;
    if (xl >= a->W - 1) {
        xh = xl = a->W - 1;
        x = (double)xl;
    } else xh = xl + 1;
    double ly = y - (double)yl, lx = x - (double)xl, hy = 1 - ly, hx = 1 - lx;
    t.pos[0] = yl * a->W + xl;
    t.pos[1] = yl * a->W + xh;
    t.pos[2] = yh * a->W + xl;
    t.pos[3] = yh * a->W + xh;
    t.w[0] = hy * hx;
    t.w[1] = hy * lx;
    t.w[2] = ly * hx;
    t.w[3] = ly * lx;
    return t;
}

/* One output bin of one (roi, channel). */
static double roi_bin(const RoiArgs *a, int64_t r, int64_t c, int64_t i, int64_t j)
{
    const double *roi = a->rois + r * 4;
    double x0 = roi[0] * a->scale - a->offset, y0 = roi[1] * a->scale - a->offset;
    double x1 = roi[2] * a->scale - a->offset, y1 = roi[3] * a->scale - a->offset;
    double rw = x1 - x0, rh = y1 - y0;
    if (!a->half_pixel) {   /* malformed rois are forced to 1 × 1 */
        if (rw < 1) rw = 1;
        if (rh < 1) rh = 1;
    }
    if (!isfinite(rw) || !isfinite(rh)) return NAN;
    double bh = rh / (double)a->ph, bw = rw / (double)a->pw;
    int64_t gh = a->sampling > 0 ? a->sampling : (int64_t)ceil(rh / (double)a->ph);
    int64_t gw = a->sampling > 0 ? a->sampling : (int64_t)ceil(rw / (double)a->pw);
    int64_t count = gh * gw > 1 ? gh * gw : 1;
    const double *plane = a->x + (a->batch[r] * a->C + c) * a->H * a->W;
    double acc = 0;
    bool first = true;
    for (int64_t iy = 0; iy < gh; iy++) {
        double yy = y0 + (double)i * bh + ((double)iy + 0.5) * bh / (double)gh;
        for (int64_t ix = 0; ix < gw; ix++) {
            double xx = x0 + (double)j * bw + ((double)ix + 0.5) * bw / (double)gw;
            RoiTap t = roi_tap(a, yy, xx);
            if (!a->max_mode) {
                acc += t.w[0] * plane[t.pos[0]] + t.w[1] * plane[t.pos[1]] + t.w[2] * plane[t.pos[2]] + t.w[3] * plane[t.pos[3]];
                continue;
            }
            /* max mode takes the largest weighted corner, as ONNX Runtime does */
            double v = t.w[0] * plane[t.pos[0]];
            for (int k = 1; k < 4; k++) v = fmax(v, t.w[k] * plane[t.pos[k]]);
            acc = first ? v : fmax(acc, v);
            first = false;
        }
    }
    return a->max_mode ? acc : acc / (double)count;
}

static void roi_range(int64_t begin, int64_t end, void *arg)
{
    const RoiArgs *a = arg;
    int64_t per_roi = a->C * a->ph * a->pw;
    for (int64_t k = begin; k < end; k++) {
        int64_t r = k / per_roi, rest = k % per_roi;
        int64_t c = rest / (a->ph * a->pw), i = rest / a->pw % a->ph, j = rest % a->pw;
        a->y[k] = roi_bin(a, r, c, i, j);
    }
}

tk_status tko_run_roi_align(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *R = oc->in[1], *B = oc->in[2];
    char sa[96], sb[96], sc[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (!s) s = tko_ext_need_float(oc, 1);
    if (s) return s;
    const int64_t *xs = tk_tensor_shape(X), *rs = tk_tensor_shape(R), *bs = tk_tensor_shape(B);
    if (tk_tensor_ndim(X) != 4 || tk_tensor_ndim(R) != 2 || rs[1] != 4 || tk_tensor_ndim(B) != 1 || bs[0] != rs[0])
        return tko_fail(oc, TK_ERR_SHAPE, "X %s, rois %s and batch_indices %s do not fit ([N, C, H, W], [R, 4], [R])",
                        tko_ext_shape(X, sa, sizeof sa), tko_ext_shape(R, sb, sizeof sb), tko_ext_shape(B, sc, sizeof sc));
    tk_dtype bd = tk_tensor_dtype(B);
    if (bd != TK_DTYPE_I64 && bd != TK_DTYPE_I32) return tko_fail(oc, TK_ERR_DTYPE, "batch_indices hold %s (int64 is required)", tk_dtype_name(bd));
    RoiArgs a = {
        .C = xs[1], .H = xs[2], .W = xs[3],
        .ph = tko_attr_int(oc->node, "output_height", 1), .pw = tko_attr_int(oc->node, "output_width", 1),
        .sampling = tko_attr_int(oc->node, "sampling_ratio", 0), .scale = tko_attr_float(oc->node, "spatial_scale", 1.0f),
        .half_pixel = !strcmp(roi_ctm(oc->node), "half_pixel"), .max_mode = !strcmp(tko_attr_string(oc->node, "mode", "avg"), "max"),
    };
    a.offset = a.half_pixel ? 0.5 : 0.0;
    if (rs[0] > 0 && (a.H == 0 || a.W == 0)) return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s has an empty plane", tko_ext_shape(X, sa, sizeof sa));
    tk_tensor *hb;
    s = tko_wrap(oc, tk_to_dtype(oc->ctx, B, TK_DTYPE_I64, &hb));
    if (s) return s;
    a.batch = (const int64_t *)tkr_ptr(hb);
    for (int64_t r = 0; r < rs[0]; r++)
        if (a.batch[r] < 0 || a.batch[r] >= xs[0]) {
            int64_t bad = a.batch[r];
            tk_tensor_release(hb);
            return tko_fail(oc, TK_ERR_INDEX, "batch_indices[%lld] = %lld is outside [0, %lld)", (long long)r, (long long)bad, (long long)xs[0]);
        }
    tk_tensor *hx = NULL, *hr = NULL, *y = NULL;
    double *py;
    int64_t oshape[4] = { rs[0], xs[1], a.ph, a.pw };
    s = tko_ext_f64(oc, 0, &hx, &a.x);
    if (!s) s = tko_ext_f64(oc, 1, &hr, &a.rois);
    if (!s) s = tko_ext_new_f64(oc, 4, oshape, &y, &py);
    if (!s) {
        a.y = py;
        tkr_parallel_for(oc->ctx, rs[0] * xs[1] * a.ph * a.pw, 64, roi_range, &a);
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
    }
    tk_tensor_release(hx);
    tk_tensor_release(hr);
    tk_tensor_release(hb);
    return s;
}

/* ------------------------------------------------------------ NonMaxSuppression */

typedef struct {
    double score;
    int64_t index;
} NmsCand;

/* Higher score first; equal scores by lower box index (a total order). */
static int nms_order(const void *pa, const void *pb)
{
    const NmsCand *a = pa, *b = pb;
    if (isnan(a->score) != isnan(b->score)) return isnan(a->score) ? 1 : -1;   /* NaN last */
    if (a->score != b->score && !isnan(a->score)) return a->score > b->score ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* IoU > threshold, in the boxes' own precision T (a float model's boundary
 * cases are decided in float arithmetic, as the reference does). */
#define NMS_SUPPRESS(NAME, T)                                                                          \
    static bool NAME(const T *b1, const T *b2, bool centre, T threshold)                               \
    {                                                                                                  \
        T x1lo, x1hi, y1lo, y1hi, x2lo, x2hi, y2lo, y2hi;                                              \
        if (!centre) {                                                                                 \
            y1lo = b1[0] < b1[2] ? b1[0] : b1[2], y1hi = b1[0] < b1[2] ? b1[2] : b1[0];                \
            x1lo = b1[1] < b1[3] ? b1[1] : b1[3], x1hi = b1[1] < b1[3] ? b1[3] : b1[1];                \
            y2lo = b2[0] < b2[2] ? b2[0] : b2[2], y2hi = b2[0] < b2[2] ? b2[2] : b2[0];                \
            x2lo = b2[1] < b2[3] ? b2[1] : b2[3], x2hi = b2[1] < b2[3] ? b2[3] : b2[1];                \
        } else {                                                                                       \
            T w1 = b1[2] / 2, h1 = b1[3] / 2, w2 = b2[2] / 2, h2 = b2[3] / 2;                          \
            x1lo = b1[0] - w1, x1hi = b1[0] + w1, y1lo = b1[1] - h1, y1hi = b1[1] + h1;                \
            x2lo = b2[0] - w2, x2hi = b2[0] + w2, y2lo = b2[1] - h2, y2hi = b2[1] + h2;                \
        }                                                                                              \
        T ixlo = x1lo > x2lo ? x1lo : x2lo, ixhi = x1hi < x2hi ? x1hi : x2hi;                          \
        if (ixhi <= ixlo) return false;                                                                \
        T iylo = y1lo > y2lo ? y1lo : y2lo, iyhi = y1hi < y2hi ? y1hi : y2hi;                          \
        if (iyhi <= iylo) return false;                                                                \
        T inter = (ixhi - ixlo) * (iyhi - iylo);                                                       \
        T area1 = (x1hi - x1lo) * (y1hi - y1lo), area2 = (x2hi - x2lo) * (y2hi - y2lo);                \
        T uni = area1 + area2 - inter;                                                                 \
        if (inter <= 0 || area1 <= 0 || area2 <= 0 || uni <= 0) return false;                         \
        return inter / uni > threshold;                                                                \
    }
NMS_SUPPRESS(nms_suppress_f, float)
NMS_SUPPRESS(nms_suppress_d, double)

/* An optional scalar input: *given false when omitted or empty. */
static tk_status nms_scalar(TkoOpCtx *oc, int i, double *v, bool *given)
{
    *given = false;
    if (i >= oc->nin || !oc->in[i] || tk_tensor_numel(oc->in[i]) == 0) return TK_OK;
    *given = true;
    return tko_input_scalar(oc, i, v);
}

tk_status tko_run_nms(TkoOpCtx *oc)
{
    const tk_tensor *Bx = oc->in[0], *Sc = oc->in[1];
    char sa[96], sb[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (!s) s = tko_ext_need_float(oc, 1);
    if (s) return s;
    const int64_t *bs = tk_tensor_shape(Bx), *ss = tk_tensor_shape(Sc);
    if (tk_tensor_ndim(Bx) != 3 || bs[2] != 4 || tk_tensor_ndim(Sc) != 3 || ss[0] != bs[0] || ss[2] != bs[1])
        return tko_fail(oc, TK_ERR_SHAPE, "boxes %s and scores %s do not fit ([B, N, 4] and [B, C, N])", tko_ext_shape(Bx, sa, sizeof sa),
                        tko_ext_shape(Sc, sb, sizeof sb));
    double max_out = 0, iou = 0, score_min = 0;
    bool has_max, has_iou, has_score;
    s = nms_scalar(oc, 2, &max_out, &has_max);
    if (!s) s = nms_scalar(oc, 3, &iou, &has_iou);
    if (!s) s = nms_scalar(oc, 4, &score_min, &has_score);
    if (s) return s;
    int64_t per_class = has_max && max_out > 0 ? (int64_t)max_out : 0;
    bool centre = tko_attr_int(oc->node, "center_point_box", 0) != 0;
    /* the boxes' precision decides the IoU arithmetic (see NMS_SUPPRESS) */
    bool in_float = tk_tensor_dtype(Bx) != TK_DTYPE_F64;
    int64_t B = bs[0], N = bs[1], C = ss[1];
    tk_tensor *hb = NULL, *hs = NULL, *hf = NULL, *out = NULL;
    const double *boxes, *scores;
    s = tko_ext_f64(oc, 0, &hb, &boxes);
    if (!s) s = tko_ext_f64(oc, 1, &hs, &scores);
    if (!s && in_float) s = tko_wrap(oc, tk_to_dtype(oc->ctx, Bx, TK_DTYPE_F32, &hf));
    NmsCand *cand = NULL;
    int64_t *picked = NULL, *sel = NULL, nsel = 0;
    if (!s) {
        int64_t cap = B * C * (per_class < N ? per_class : N);
        cand = malloc((size_t)(N ? N : 1) * sizeof *cand);
        picked = malloc((size_t)(N ? N : 1) * sizeof *picked);
        sel = malloc((size_t)(cap ? cap : 1) * 3 * sizeof *sel);
        if (!cand || !picked || !sel) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld boxes", (long long)N);
    }
    for (int64_t b = 0; !s && b < B; b++)
        for (int64_t c = 0; c < C; c++) {
            const double *sc = scores + (b * C + c) * N;
            int64_t nc = 0, np = 0;
            for (int64_t i = 0; i < N; i++)
                if (!has_score || sc[i] > score_min) cand[nc++] = (NmsCand){ sc[i], i };
            qsort(cand, (size_t)nc, sizeof *cand, nms_order);
            for (int64_t k = 0; k < nc && np < per_class; k++) {
                bool keep = true;
                for (int64_t q = 0; q < np && keep; q++) {
                    int64_t i1 = b * N + cand[k].index, i2 = b * N + picked[q];
                    keep = in_float ? !nms_suppress_f((const float *)tkr_ptr(hf) + i1 * 4, (const float *)tkr_ptr(hf) + i2 * 4, centre, (float)iou)
                                    : !nms_suppress_d(boxes + i1 * 4, boxes + i2 * 4, centre, iou);
                }
                if (!keep) continue;
                picked[np++] = cand[k].index;
                sel[nsel * 3] = b, sel[nsel * 3 + 1] = c, sel[nsel * 3 + 2] = cand[k].index;
                nsel++;
            }
        }
    if (!s) s = tko_wrap(oc, tk_from_data(oc->ctx, sel, TK_DTYPE_I64, 2, (int64_t[]){ nsel, 3 }, &out));
    if (!s) oc->out[0] = out;
    free(cand);
    free(picked);
    free(sel);
    tk_tensor_release(hb);
    tk_tensor_release(hs);
    tk_tensor_release(hf);
    return s;
}
