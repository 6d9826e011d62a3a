/* op_ext_grid.c — GridSample (N-D: nearest, linear, cubic; padding zeros,
 * border, reflection) and AffineGrid (2-D and 3-D), following the ONNX
 * reference implementation's coordinate rules (PyTorch's grid_sampler). */
#include <math.h>
#include <string.h>

#include "op_ext.h"

typedef enum { GS_NEAREST, GS_LINEAR, GS_CUBIC } GsMode;
#define GS_FAR 1e15   /* beyond any real image, inside int64 */
typedef enum { GS_ZEROS, GS_BORDER, GS_REFLECTION } GsPad;

/* Mode names changed at opset 20 (bilinear → linear, bicubic → cubic). */
static int gs_mode(const TkoNode *n, GsMode *mode)
{
    bool v20 = n->opset >= 20;
    const char *s = tko_attr_string(n, "mode", v20 ? "linear" : "bilinear");
    if (!strcmp(s, "nearest")) *mode = GS_NEAREST;
    else if (!strcmp(s, v20 ? "linear" : "bilinear")) *mode = GS_LINEAR;
    else if (!strcmp(s, v20 ? "cubic" : "bicubic")) *mode = GS_CUBIC;
    else return -1;
    return 0;
}

static int gs_pad(const TkoNode *n, GsPad *pad)
{
    const char *s = tko_attr_string(n, "padding_mode", "zeros");
    if (!strcmp(s, "zeros")) *pad = GS_ZEROS;
    else if (!strcmp(s, "border")) *pad = GS_BORDER;
    else if (!strcmp(s, "reflection")) *pad = GS_REFLECTION;
    else return -1;
    return 0;
}

const char *tko_check_grid_sample(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    GsMode mode;
    GsPad pad;
    if (gs_mode(n, &mode)) {
        snprintf(why, len, "mode='%s' is not a mode of opset %d's GridSample", tko_attr_string(n, "mode", ""), n->opset);
        return why;
    }
    if (gs_pad(n, &pad)) {
        snprintf(why, len, "padding_mode='%s' is not supported", tko_attr_string(n, "padding_mode", ""));
        return why;
    }
    return NULL;
}

/* Reflects x by the nearer border until it lies in [lo, hi]. */
static double gs_reflect(double x, double lo, double hi)
{
    double range = hi - lo;
    if (!(range > 0)) return lo;   /* a 1-wide dim with align_corners */
    if (x < lo) {
        double dx = lo - x;
        int64_t k = (int64_t)(dx / range);
        double r = dx - (double)k * range;
        return k % 2 == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        double dx = x - hi;
        int64_t k = (int64_t)(dx / range);
        double r = dx - (double)k * range;
        return k % 2 == 0 ? hi - r : lo + r;
    }
    return x;
}

/* Keys' cubic convolution weights (alpha -0.75) for a fraction t in [0, 1). */
static void gs_cubic_weights(double t, double w[4])
{
    const double a = -0.75;
    double x0 = t + 1, x1 = t, x2 = 1 - t, x3 = 2 - t;
    w[0] = ((a * x0 - 5 * a) * x0 + 8 * a) * x0 - 4 * a;
    w[1] = ((a + 2) * x1 - (a + 3)) * x1 * x1 + 1;
    w[2] = ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1;
    w[3] = ((a * x3 - 5 * a) * x3 + 8 * a) * x3 - 4 * a;
}

typedef struct {
    const double *x, *grid;
    double *y;
    int r;                       /* spatial dims */
    int64_t C, in_sp[TK_MAX_DIMS], in_plane, out_points;
    double lo[TK_MAX_DIMS], hi[TK_MAX_DIMS];   /* the borders reflection folds into */
    GsMode mode;
    GsPad pad;
    bool align;
} GsArgs;

/* A tap's index along dim d after padding; -1 where it reads a zero. */
static int64_t gs_tap(const GsArgs *a, int d, int64_t i)
{
    int64_t n = a->in_sp[d];
    if (i >= 0 && i < n) return i;
    switch (a->pad) {
    case GS_ZEROS: return -1;
    case GS_BORDER: return i < 0 ? 0 : n - 1;
    case GS_REFLECTION: {
        int64_t k = (int64_t)gs_reflect((double)i, a->lo[d], a->hi[d]);
        return k < 0 ? 0 : k >= n ? n - 1 : k;
    }
    }
    return -1;
}

/* Output point p of batch n, for every channel: the taps and weights are
 * worked out once per point. */
static void gs_point(const GsArgs *a, int64_t n, int64_t p)
{
    int r = a->r;
    const double *g = a->grid + (n * a->out_points + p) * r;
    int taps = a->mode == GS_NEAREST ? 1 : a->mode == GS_LINEAR ? 2 : 4;
    int64_t idx[TK_MAX_DIMS][4];
    double w[TK_MAX_DIMS][4];
    for (int d = 0; d < r; d++) {
        double v = g[r - 1 - d];     /* the grid lists x (the last dim) first */
        int64_t size = a->in_sp[d];
        double x = a->align ? (v + 1) / 2 * (double)(size - 1) : ((v + 1) * (double)size - 1) / 2;
        /* NaN or huge grid values read from far outside (a zero, or the
         * border), and stay where int64 conversions are defined */
        x = isnan(x) ? -GS_FAR : x < -GS_FAR ? -GS_FAR : x > GS_FAR ? GS_FAR : x;
        if (a->mode == GS_NEAREST) x = nearbyint(x);   /* half to even, as PyTorch */
        if (x < a->lo[d] || x > a->hi[d]) {
            if (a->pad == GS_BORDER) x = x < 0 ? 0 : x > (double)(size - 1) ? (double)(size - 1) : x;
            else if (a->pad == GS_REFLECTION) x = gs_reflect(x, a->lo[d], a->hi[d]);
        }
        if (a->mode == GS_NEAREST) {
            idx[d][0] = gs_tap(a, d, (int64_t)x);
            w[d][0] = 1;
            continue;
        }
        double f = floor(x), t = x - f;
        int64_t i0 = (int64_t)f;
        if (a->mode == GS_LINEAR) {
            w[d][0] = 1 - t;
            w[d][1] = t;
        } else {
            gs_cubic_weights(t, w[d]);
            i0 -= 1;
        }
        for (int k = 0; k < taps; k++) idx[d][k] = gs_tap(a, d, i0 + k);
    }
    int64_t total = 1;
    for (int d = 0; d < r; d++) total *= taps;
    for (int64_t c = 0; c < a->C; c++) {
        const double *plane = a->x + (n * a->C + c) * a->in_plane;
        double acc = 0;
        for (int64_t combo = 0; combo < total; combo++) {
            /* combo picks one tap per dim (the last dim fastest) */
            int64_t rest = combo, off = 0, stride = 1;
            double wt = 1;
            bool zero = false;
            for (int d = r - 1; d >= 0; d--) {
                int k = (int)(rest % taps);
                rest /= taps;
                zero |= idx[d][k] < 0;
                off += idx[d][k] * stride;
                stride *= a->in_sp[d];
                wt *= w[d][k];
            }
            if (zero) continue;
            acc += wt * plane[off];
        }
        a->y[(n * a->C + c) * a->out_points + p] = acc;
    }
}

static void gs_range(int64_t begin, int64_t end, void *arg)
{
    const GsArgs *a = arg;
    for (int64_t i = begin; i < end; i++) gs_point(a, i / a->out_points, i % a->out_points);
}

tk_status tko_run_grid_sample(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0], *G = oc->in[1];
    char sa[96], sb[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (!s) s = tko_ext_need_float(oc, 1);
    if (s) return s;
    int nd = tk_tensor_ndim(X), r = nd - 2;
    const int64_t *xs = tk_tensor_shape(X), *gsh = tk_tensor_shape(G);
    if (nd < 3 || tk_tensor_ndim(G) != nd || gsh[nd - 1] != r || gsh[0] != xs[0])
        return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s and grid of shape %s do not fit (grid: [N, spatial..., %d])",
                        tko_ext_shape(X, sa, sizeof sa), tko_ext_shape(G, sb, sizeof sb), r);
    if (oc->node->opset < 20 && r != 2)
        return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s: opset %d's GridSample takes 4-D input", tko_ext_shape(X, sa, sizeof sa),
                        oc->node->opset);
    GsArgs a = { .r = r, .C = xs[1], .in_plane = 1, .out_points = 1, .align = tko_attr_int(oc->node, "align_corners", 0) != 0 };
    gs_mode(oc->node, &a.mode);
    gs_pad(oc->node, &a.pad);
    int64_t oshape[TK_MAX_DIMS] = { xs[0], xs[1] };
    for (int d = 0; d < r; d++) {
        a.in_sp[d] = xs[d + 2];
        a.in_plane *= xs[d + 2];
        oshape[d + 2] = gsh[d + 1];
        a.out_points *= gsh[d + 1];
        a.lo[d] = a.align ? 0 : -0.5;
        a.hi[d] = a.align ? (double)xs[d + 2] - 1 : (double)xs[d + 2] - 0.5;
    }
    if (a.in_plane == 0 && a.out_points > 0 && xs[0] * xs[1] > 0)
        return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s has an empty spatial dim to sample from", tko_ext_shape(X, sa, sizeof sa));
    tk_tensor *hx, *hg, *y;
    double *py;
    s = tko_ext_f64(oc, 0, &hx, &a.x);
    if (s) return s;
    s = tko_ext_f64(oc, 1, &hg, &a.grid);
    if (!s) s = tko_ext_new_f64(oc, nd, oshape, &y, &py);
    if (!s) {
        a.y = py;
        int64_t work = xs[0] * a.out_points;
        tkr_parallel_for(oc->ctx, work, 256, gs_range, &a);
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(X));
    }
    tk_tensor_release(hx);
    tk_tensor_release(hg);
    return s;
}

/* ------------------------------------------------------------ AffineGrid */

/* Position i of a dim of n points in [-1, 1] (pixel centres unless align). */
static double base_coord(int64_t i, int64_t n, bool align)
{
    if (align) return n > 1 ? -1 + 2.0 * (double)i / (double)(n - 1) : 0;
    return (2.0 * (double)i + 1) / (double)n - 1;
}

tk_status tko_run_affine_grid(TkoOpCtx *oc)
{
    const tk_tensor *T = oc->in[0];
    char sa[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (s) return s;
    int64_t size[5];
    int ns;
    s = tko_input_ints(oc, 1, size, 5, &ns);
    if (s) return s;
    int r = ns - 2;
    const int64_t *ts = tk_tensor_shape(T);
    if ((ns != 4 && ns != 5) || tk_tensor_ndim(T) != 3 || ts[0] != size[0] || ts[1] != r || ts[2] != r + 1)
        return tko_fail(oc, TK_ERR_SHAPE, "theta of shape %s does not fit size of %d entries (theta is [N, 2, 3] for 4 sizes, [N, 3, 4] for 5)",
                        tko_ext_shape(T, sa, sizeof sa), ns);
    for (int i = 0; i < ns; i++)
        if (size[i] < 0) return tko_fail(oc, TK_ERR_SHAPE, "size[%d] = %lld is negative", i, (long long)size[i]);
    bool align = tko_attr_int(oc->node, "align_corners", 0) != 0;
    int64_t oshape[5] = { size[0] };
    int64_t points = 1;
    for (int d = 0; d < r; d++) {
        oshape[d + 1] = size[d + 2];
        points *= size[d + 2];
    }
    oshape[r + 1] = r;
    tk_tensor *ht, *y;
    const double *th;
    double *py;
    s = tko_ext_f64(oc, 0, &ht, &th);
    if (s) return s;
    s = tko_ext_new_f64(oc, r + 2, oshape, &y, &py);
    if (!s) {
        for (int64_t n = 0; n < size[0]; n++)
            for (int64_t p = 0; p < points; p++) {
                double h[4];   /* homogeneous (x, y[, z], 1): x walks the last dim */
                int64_t rest = p;
                for (int d = r - 1; d >= 0; d--) {
                    int64_t extent = size[d + 2];
                    h[r - 1 - d] = base_coord(rest % extent, extent, align);
                    rest /= extent;
                }
                h[r] = 1;
                const double *m = th + n * r * (r + 1);
                for (int k = 0; k < r; k++) {
                    double acc = 0;
                    for (int j = 0; j <= r; j++) acc += m[k * (r + 1) + j] * h[j];
                    py[(n * points + p) * r + k] = acc;
                }
            }
        s = tko_ext_emit(oc, 0, y, tk_tensor_dtype(T));
    }
    tk_tensor_release(ht);
    return s;
}
