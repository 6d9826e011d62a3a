/* pool.c — max / avg pooling and their adaptive forms over NCHW (or CHW).
 *
 * Every form reduces to per-axis tables: output row o reads `count[o]`
 * input rows from `start[o]` stepping by the dilation (the window clipped
 * to the image), and avg pooling divides by `span[o]` rows (the window
 * clipped to the padded image: PyTorch's count_include_pad divisor) or by
 * the count. The tables follow PyTorch's formulas exactly (ceil_mode, the
 * last window starting inside the image or left padding). Planes (n, c) are
 * independent tasks; each output is computed by one task in a fixed order.
 * f32 and f64 are read as they are; bf16 and f16 are widened to f32 (exact)
 * and the result rounded once from double. A channels-last f32/f64 input
 * (a convolution's output) is pooled in place into a channels-last result,
 * one output row per task, with the same arithmetic. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "conv_common.h"

typedef struct {
    int64_t *start, *count, *span;   /* out entries each */
    int64_t step;
} AxisTable;

typedef enum { POOL_MAX, POOL_AVG } PoolKind;

typedef struct {
    PoolKind kind;
    bool exclude_pad;
    const void *x;   /* contiguous planes of the work dtype */
    tk_dtype work;
    tk_tensor *y;
    int64_t h, w, oh, ow;
    int64_t c;   /* channels, for the channels-last path */
    AxisTable rows, cols;
    atomic_bool oom;
} Pool;

static void table_free(AxisTable *t)
{
    free(t->start);
    t->start = t->count = t->span = NULL;
}

static bool table_alloc(AxisTable *t, int64_t out)
{
    size_t n = (size_t)(out ? out : 1);
    t->start = malloc(3 * n * sizeof(int64_t));
    if (!t->start) return false;
    t->count = t->start + n;
    t->span = t->start + 2 * n;
    return true;
}

/* PyTorch's pooling_output_shape: the output size along one axis, or -1 if it is not positive. */
static int64_t pool_out_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode)
{
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;   /* floor division */
    if (ceil_mode && (out - 1) * stride >= in + pad) out--;   /* the last window must start inside the image or left padding */
    return out;
}

/* Windows of k taps (dilated) every stride from −pad, clipped to [0, in). */
static void window_table(AxisTable *t, int64_t out, int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil)
{
    t->step = dil;
    for (int64_t o = 0; o < out; o++) {
        int64_t s0 = o * stride - pad, end = s0 + (k - 1) * dil + 1;
        int64_t padded_end = s0 + k > in + pad ? in + pad : s0 + k;   /* avg (dil 1): the window within the padded input */
        t->span[o] = padded_end - s0;
        int64_t s = s0;
        while (s < 0) s += dil;
        if (end > in) end = in;
        t->start[o] = s;
        t->count[o] = s < end ? (end - s + dil - 1) / dil : 0;
    }
}

/* Adaptive windows: ⌊o·in/out⌋ .. ⌈(o+1)·in/out⌉. */
static void adaptive_table(AxisTable *t, int64_t out, int64_t in)
{
    t->step = 1;
    for (int64_t o = 0; o < out; o++) {
        int64_t s = o * in / out, e = ((o + 1) * in + out - 1) / out;
        t->start[o] = s;
        t->count[o] = t->span[o] = e - s;
    }
}

#define POOL_PLANE(T)                                                                                          \
    static void pool_plane_##T(const Pool *a, int64_t plane, double *row)                                      \
    {                                                                                                          \
        const T *x = (const T *)a->x + plane * a->h * a->w;                                                     \
        size_t es = tk_dtype_size(a->y->dtype);                                                                \
        char *y = tkr_ptr(a->y) + (int64_t)es * plane * a->oh * a->ow;                                         \
        int64_t dh = a->rows.step, dw = a->cols.step;                                                          \
        for (int64_t oh = 0; oh < a->oh; oh++) {                                                               \
            int64_t h0 = a->rows.start[oh], nh = a->rows.count[oh];                                            \
            for (int64_t ow = 0; ow < a->ow; ow++) {                                                           \
                int64_t w0 = a->cols.start[ow], nw = a->cols.count[ow];                                        \
                if (a->kind == POOL_MAX) {                                                                     \
                    T m = (T)-INFINITY;                                                                        \
                    for (int64_t i = 0; i < nh; i++) {                                                         \
                        const T *xr = x + (h0 + i * dh) * a->w + w0;                                           \
                        for (int64_t j = 0; j < nw; j++) {                                                     \
                            T v = xr[j * dw];                                                                  \
                            if (v > m || isnan(v)) m = v; /* NaN wins, as PyTorch */                           \
                        }                                                                                      \
                    }                                                                                          \
                    row[ow] = (double)m;                                                                       \
                } else {                                                                                       \
                    double sum = 0;                                                                            \
                    for (int64_t i = 0; i < nh; i++) {                                                         \
                        const T *xr = x + (h0 + i) * a->w + w0;                                                \
                        for (int64_t j = 0; j < nw; j++) sum += (double)xr[j];                                 \
                    }                                                                                          \
                    int64_t div = a->exclude_pad ? nh * nw : a->rows.span[oh] * a->cols.span[ow];              \
                    row[ow] = sum / (double)div;                                                               \
                }                                                                                              \
            }                                                                                                  \
            tkr_store_row_f(y + (int64_t)es * oh * a->ow, a->y->dtype, row, a->ow);                            \
        }                                                                                                      \
    }
POOL_PLANE(float)
POOL_PLANE(double)

/* The interior columns [*lo, *hi): full windows whose starts step evenly
 * (by *stride); false when there are fewer than two. */
static bool interior_cols(const AxisTable *t, int64_t ow, int64_t *lo, int64_t *hi, int64_t *stride)
{
    int64_t full = 0;
    for (int64_t o = 0; o < ow; o++)
        if (t->count[o] > full) full = t->count[o];
    int64_t a = 0;
    while (a < ow && t->count[a] != full) a++;
    int64_t b = a;
    while (b < ow && t->count[b] == full) b++;
    if (b - a < 2) return false;
    *stride = t->start[a + 1] - t->start[a];
    for (int64_t o = a + 1; o < b; o++)
        if (t->start[o] - t->start[o - 1] != *stride) return false;
    *lo = a, *hi = b;
    return true;
}

/* Max pooling of an f32 plane, a whole output row at a time: every interior
 * column's running max updates in one loop over the row (the compiler
 * vectorises it), the edge columns take the per-element loop. NaN wins,
 * as in pool_plane_float. Used when columns are not dilated. */
static void max_plane_rows(const Pool *a, int64_t plane, float *acc, double *row, int64_t lo, int64_t hi, int64_t st)
{
    const float *x = (const float *)a->x + plane * a->h * a->w;
    size_t es = tk_dtype_size(a->y->dtype);
    char *y = tkr_ptr(a->y) + (int64_t)es * plane * a->oh * a->ow;
    int64_t kw = a->cols.count[lo], base = a->cols.start[lo] - lo * st;
    for (int64_t oh = 0; oh < a->oh; oh++) {
        int64_t h0 = a->rows.start[oh], nh = a->rows.count[oh];
        for (int64_t o = 0; o < a->ow; o++) acc[o] = -INFINITY;
        for (int64_t i = 0; i < nh; i++) {
            const float *xr = x + (h0 + i * a->rows.step) * a->w;
            for (int64_t j = 0; j < kw; j++) {
                const float *xs = xr + base + j;
                for (int64_t o = lo; o < hi; o++) {
                    float v = xs[o * st], m = acc[o];
                    acc[o] = (v > m || v != v) ? v : m;
                }
            }
            for (int64_t o = 0; o < a->ow; o++) {   /* the clipped windows at both edges */
                if (o >= lo && o < hi) continue;
                const float *xs = xr + a->cols.start[o];
                for (int64_t j = 0; j < a->cols.count[o]; j++) {
                    float v = xs[j], m = acc[o];
                    acc[o] = (v > m || v != v) ? v : m;
                }
            }
        }
        for (int64_t o = 0; o < a->ow; o++) row[o] = acc[o];
        tkr_store_row_f(y + (int64_t)es * oh * a->ow, a->y->dtype, row, a->ow);
    }
}

static void pool_planes(int64_t begin, int64_t end, void *arg)
{
    Pool *a = arg;
    double *row = malloc((size_t)(a->ow ? a->ow : 1) * sizeof *row);
    float *acc = malloc((size_t)(a->ow ? a->ow : 1) * sizeof *acc);
    if (!row || !acc) {
        free(row), free(acc);
        atomic_store(&a->oom, true);
        return;
    }
    int64_t lo, hi, st;
    bool rows_path = a->kind == POOL_MAX && a->work == TK_DTYPE_F32 && a->cols.step == 1 && interior_cols(&a->cols, a->ow, &lo, &hi, &st);
    for (int64_t p = begin; p < end; p++) {
        if (rows_path) max_plane_rows(a, p, acc, row, lo, hi, st);
        else if (a->work == TK_DTYPE_F64) pool_plane_double(a, p, row);
        else pool_plane_float(a, p, row);
    }
    free(row);
    free(acc);
}

/* A channels-last x (f32 or f64, NHWC in memory): one task per output row
 * (n, oh); each output pixel takes its window's C-vectors, so the inner
 * loops run along the contiguous channels. The window visits taps in the
 * plane loops' order (rows, then columns) and sums in double, so the results
 * are those of the NCHW path bit for bit. acc holds C doubles. */
#define POOL_NHWC(T)                                                                                                   \
    static void pool_nhwc_row_##T(const Pool *a, int64_t r, double *acc)                                               \
    {                                                                                                                  \
        int64_t c = a->c, n = r / a->oh, oh = r % a->oh;                                                               \
        const T *x = (const T *)a->x + n * a->h * a->w * c;                                                            \
        T *y = (T *)tkr_ptr(a->y) + r * a->ow * c;                                                                     \
        int64_t h0 = a->rows.start[oh], nh = a->rows.count[oh], dh = a->rows.step, dw = a->cols.step;                 \
        for (int64_t ow = 0; ow < a->ow; ow++, y += c) {                                                               \
            int64_t w0 = a->cols.start[ow], nw = a->cols.count[ow];                                                    \
            if (a->kind == POOL_MAX) {                                                                                 \
                for (int64_t k = 0; k < c; k++) y[k] = (T)-INFINITY;                                                   \
                for (int64_t i = 0; i < nh; i++)                                                                       \
                    for (int64_t j = 0; j < nw; j++) {                                                                 \
                        const T *xp = x + ((h0 + i * dh) * a->w + w0 + j * dw) * c;                                    \
                        for (int64_t k = 0; k < c; k++) {                                                              \
                            T v = xp[k], m = y[k];                                                                     \
                            y[k] = (v > m || v != v) ? v : m; /* NaN wins, as PyTorch */                               \
                        }                                                                                              \
                    }                                                                                                  \
            } else {                                                                                                   \
                for (int64_t k = 0; k < c; k++) acc[k] = 0;                                                            \
                for (int64_t i = 0; i < nh; i++)                                                                       \
                    for (int64_t j = 0; j < nw; j++) {                                                                 \
                        const T *xp = x + ((h0 + i) * a->w + w0 + j) * c;                                              \
                        for (int64_t k = 0; k < c; k++) acc[k] += (double)xp[k];                                       \
                    }                                                                                                  \
                double div = (double)(a->exclude_pad ? nh * nw : a->rows.span[oh] * a->cols.span[ow]);                 \
                for (int64_t k = 0; k < c; k++) y[k] = (T)(acc[k] / div);                                              \
            }                                                                                                          \
        }                                                                                                              \
    }
POOL_NHWC(float)
POOL_NHWC(double)

static void pool_nhwc_rows(int64_t begin, int64_t end, void *arg)
{
    Pool *a = arg;
    double *acc = malloc((size_t)(a->c ? a->c : 1) * sizeof *acc);
    if (!acc) {
        atomic_store(&a->oom, true);
        return;
    }
    for (int64_t r = begin; r < end; r++) {
        if (a->work == TK_DTYPE_F64) pool_nhwc_row_double(a, r, acc);
        else pool_nhwc_row_float(a, r, acc);
    }
    free(acc);
}

/* Checks x ([N, C, H, W] or [C, H, W], float). */
static tk_status check_input(tk_context *ctx, const char *op, const tk_tensor *x)
{
    tk_status s = tkr_check_arg(ctx, op, "x", x);
    if (s) return s;
    char sx[160];
    if (x->ndim != 3 && x->ndim != 4) return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s must be [N, C, H, W] or [C, H, W]", op, TKR_SHAPE(x, sx));
    if (!tk_dtype_is_float(x->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: x is %s, needs a float tensor", op, tk_dtype_name(x->dtype));
    return TK_OK;
}

/* Runs the pool whose tables are filled (a->rows, a->cols, a->oh, a->ow) into *out. */
static tk_status run_pool(tk_context *ctx, const char *op, const tk_tensor *x, Pool *a, tk_tensor **out)
{
    int64_t shape[4];
    for (int i = 0; i < x->ndim - 2; i++) shape[i] = x->shape[i];
    shape[x->ndim - 2] = a->oh;
    shape[x->ndim - 1] = a->ow;
    /* a channels-last f32/f64 x is pooled in place into a channels-last result */
    bool nhwc = x->ndim == 4 && (x->dtype == TK_DTYPE_F32 || x->dtype == TK_DTYPE_F64) && tk_tensor_is_channels_last(x) &&
                !tk_tensor_is_contiguous(x);
    tk_status s = nhwc ? tkr_new_channels_last(ctx, x->dtype, shape, out) : tkr_new(ctx, x->dtype, x->ndim, shape, out);
    if (s || tk_tensor_numel(*out) == 0) return s;
    a->work = x->dtype == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;   /* f16, bf16 widen exactly */
    if (nhwc) {
        a->x = tkr_ptr(x);
        a->y = *out;
        a->c = x->shape[1];
        a->h = x->shape[2];
        a->w = x->shape[3];
        int64_t rows = x->shape[0] * a->oh, per = a->ow * a->c * 4;
        tkr_parallel_for(ctx, rows, per >= 16384 ? 1 : 16384 / (per ? per : 1), pool_nhwc_rows, a);
        if (atomic_load(&a->oom)) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld channel sums", op, (long long)a->c);
        return TK_OK;
    }
    tk_tensor *xc = NULL;
    if ((s = tkr_contiguous_as(ctx, x, a->work, &xc))) return s;
    a->x = tkr_ptr(xc);
    a->y = *out;
    a->h = x->shape[x->ndim - 2];
    a->w = x->shape[x->ndim - 1];
    int64_t planes = tkr_numel(x->ndim - 2, x->shape), per = a->h * a->w + a->oh * a->ow;
    tkr_parallel_for(ctx, planes, per >= 16384 ? 1 : 16384 / (per ? per : 1), pool_planes, a);
    tk_tensor_release(xc);
    if (atomic_load(&a->oom)) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for a row of %lld outputs", op, (long long)a->ow);
    return TK_OK;
}

static tk_status window_pool(tk_context *ctx, const char *op, PoolKind kind, const tk_tensor *x, const tk_pool_opts *opts,
                             tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_input(ctx, op, x);
    if (s) return s;
    if (!opts) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: opts is NULL (kernel_size is required)", op);
    char sx[160];
    TKR_SHAPE(x, sx);
    int64_t k[2], st[2], pad[2], dil[2], size[2];
    for (int i = 0; i < 2; i++) {
        const char *ax = i ? "W" : "H";
        k[i] = opts->kernel_size[i];
        st[i] = opts->stride[i] ? opts->stride[i] : k[i];
        pad[i] = opts->padding[i];
        dil[i] = opts->dilation[i] ? opts->dilation[i] : 1;
        if (k[i] < 1 || st[i] < 1 || pad[i] < 0 || dil[i] < 1)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: along %s kernel_size %lld, stride %lld, padding %lld, dilation %lld (need k, stride >= 1, padding >= 0)",
                             op, ax, (long long)k[i], (long long)opts->stride[i], (long long)pad[i], (long long)opts->dilation[i]);
        if (kind == POOL_AVG && dil[i] != 1)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dilation %lld along %s (avg pooling has none)", op, (long long)dil[i], ax);
        if (pad[i] > k[i] / 2)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: padding %lld along %s must be at most half of kernel_size %lld", op,
                             (long long)pad[i], ax, (long long)k[i]);
        int64_t in = x->shape[x->ndim - 2 + i];
        size[i] = pool_out_size(in, k[i], pad[i], st[i], dil[i], opts->ceil_mode);
        if (size[i] < 1)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: kernel_size %lld (dilation %lld) along %s is larger than x %s with padding %lld", op,
                             (long long)k[i], (long long)dil[i], ax, sx, (long long)pad[i]);
    }
    Pool a = { .kind = kind, .exclude_pad = opts->exclude_pad, .oh = size[0], .ow = size[1] };
    if (!table_alloc(&a.rows, size[0]) || !table_alloc(&a.cols, size[1])) {
        table_free(&a.rows);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for the window tables", op);
    }
    window_table(&a.rows, size[0], x->shape[x->ndim - 2], k[0], pad[0], st[0], dil[0]);
    window_table(&a.cols, size[1], x->shape[x->ndim - 1], k[1], pad[1], st[1], dil[1]);
    s = run_pool(ctx, op, x, &a, out);
    table_free(&a.rows);
    table_free(&a.cols);
    return tkr_conv_finish(ctx, op, t0, s, out);
}

static tk_status adaptive_pool(tk_context *ctx, const char *op, PoolKind kind, const tk_tensor *x, int64_t oh, int64_t ow,
                               tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_input(ctx, op, x);
    if (s) return s;
    char sx[160];
    if (oh < 0 || ow < 0) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: output size %lld x %lld is negative", op, (long long)oh, (long long)ow);
    int64_t h = x->shape[x->ndim - 2], w = x->shape[x->ndim - 1];
    if ((h == 0 && oh > 0) || (w == 0 && ow > 0))
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s has an empty H or W but the output is %lld x %lld", op, TKR_SHAPE(x, sx), (long long)oh,
                         (long long)ow);
    Pool a = { .kind = kind, .oh = oh, .ow = ow };
    if (!table_alloc(&a.rows, oh) || !table_alloc(&a.cols, ow)) {
        table_free(&a.rows);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for the window tables", op);
    }
    adaptive_table(&a.rows, oh, h);
    adaptive_table(&a.cols, ow, w);
    s = run_pool(ctx, op, x, &a, out);
    table_free(&a.rows);
    table_free(&a.cols);
    return tkr_conv_finish(ctx, op, t0, s, out);
}

tk_status tk_max_pool2d(tk_context *ctx, const tk_tensor *x, const tk_pool_opts *opts, tk_tensor **out)
{
    return window_pool(ctx, "tk_max_pool2d", POOL_MAX, x, opts, out);
}

tk_status tk_avg_pool2d(tk_context *ctx, const tk_tensor *x, const tk_pool_opts *opts, tk_tensor **out)
{
    return window_pool(ctx, "tk_avg_pool2d", POOL_AVG, x, opts, out);
}

tk_status tk_adaptive_avg_pool2d(tk_context *ctx, const tk_tensor *x, int64_t out_h, int64_t out_w, tk_tensor **out)
{
    return adaptive_pool(ctx, "tk_adaptive_avg_pool2d", POOL_AVG, x, out_h, out_w, out);
}

tk_status tk_adaptive_max_pool2d(tk_context *ctx, const tk_tensor *x, int64_t out_h, int64_t out_w, tk_tensor **out)
{
    return adaptive_pool(ctx, "tk_adaptive_max_pool2d", POOL_MAX, x, out_h, out_w, out);
}
