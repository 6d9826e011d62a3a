/* conv_transpose.c — conv_transpose2d.
 *
 * f32 and bf16: per group, one gemm (the stdlib gemm kernels, through
 * tk_matmul) multiplies every input pixel's channels by the weight, giving
 * each pixel's contribution to every (output channel, tap) in f32 ("cols");
 * col2im then adds those into the output planes. f16 and f64 (and cols past
 * 128 MiB) run a direct loop in double instead. Both are scatter forms with
 * one output plane (n, oc) per task: the task owns the plane's accumulators,
 * adds every input pixel's contribution through every tap in a fixed order,
 * then stores the plane. No two tasks write one element, so any thread count
 * gives the same bits. */
#include <stdatomic.h>
#include <stdlib.h>

#include "conv_common.h"
#include "tk/ops.h"
#include "tk/shape.h"

typedef struct {
    const void *x, *w;   /* contiguous, of the work dtype (f32 or f64) */
    const double *bias;
    tk_tensor *y;
    int64_t n, c, h, wd, oc, kh, kw, oh, ow, groups;
    TkrConvParams p;
    atomic_bool oom;
} Transposed;

/* out[oh, ow] += x[ih, iw] · w[c, ocl, kh, kw] with oh = ih·sh − ph + kh·dh, ow = iw·sw − pw + kw·dw. */
#define SCATTER_PLANE(T)                                                                                          \
    static void scatter_plane_##T(const Transposed *a, int64_t item, double *acc)                                 \
    {                                                                                                             \
        const T *x = a->x, *w = a->w;                                                                             \
        int64_t ocg = a->oc / a->groups, cg = a->c / a->groups;                                                   \
        int64_t n = item / a->oc, oc = item % a->oc, g = oc / ocg, ocl = oc % ocg;                               \
        int64_t sw = a->p.stride[1];                                                                              \
        double b = a->bias ? a->bias[oc] : 0.0;                                                                   \
        for (int64_t i = 0; i < a->oh * a->ow; i++) acc[i] = b;                                                   \
        for (int64_t cl = 0; cl < cg; cl++) {                                                                     \
            int64_t c = g * cg + cl;                                                                              \
            const T *xp = x + (n * a->c + c) * a->h * a->wd;                                                      \
            const T *wk = w + (c * ocg + ocl) * a->kh * a->kw;                                                    \
            for (int64_t ih = 0; ih < a->h; ih++) {                                                               \
                const T *xr = xp + ih * a->wd;                                                                    \
                for (int64_t kh = 0; kh < a->kh; kh++) {                                                          \
                    int64_t oh = ih * a->p.stride[0] - a->p.pad[0] + kh * a->p.dil[0];                            \
                    if (oh < 0 || oh >= a->oh) continue;                                                          \
                    double *ar = acc + oh * a->ow;                                                                \
                    for (int64_t kw = 0; kw < a->kw; kw++) {                                                      \
                        double wv = (double)wk[kh * a->kw + kw];                                                  \
                        int64_t off = kw * a->p.dil[1] - a->p.pad[1];                                             \
                        /* input columns iw with 0 <= iw·sw + off < OW */                                         \
                        int64_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;                                         \
                        int64_t hi = a->ow - 1 - off < 0 ? 0 : (a->ow - 1 - off) / sw + 1;                        \
                        if (hi > a->wd) hi = a->wd;                                                               \
                        double *as = ar + off;                                                                    \
                        for (int64_t iw = lo; iw < hi; iw++) as[iw * sw] += wv * (double)xr[iw];                  \
                    }                                                                                             \
                }                                                                                                 \
            }                                                                                                     \
        }                                                                                                         \
        size_t es = tk_dtype_size(a->y->dtype);                                                                   \
        tkr_store_row_f(tkr_ptr(a->y) + (int64_t)es * item * a->oh * a->ow, a->y->dtype, acc, a->oh * a->ow);   \
    }
SCATTER_PLANE(float)
SCATTER_PLANE(double)

static void scatter_planes(int64_t begin, int64_t end, void *arg)
{
    Transposed *a = arg;
    double *acc = malloc((size_t)(a->oh * a->ow) * sizeof *acc);
    if (!acc) {
        atomic_store(&a->oom, true);
        return;
    }
    for (int64_t item = begin; item < end; item++) {
        if (a->y->dtype == TK_DTYPE_F64) scatter_plane_double(a, item, acc);
        else scatter_plane_float(a, item, acc);
    }
    free(acc);
}

/* ------------------------------------------------------------ gemm + col2im */

/* Largest cols matrix (elements, one group's): 128 MiB of f32. */
#define COLS_MAX ((int64_t)1 << 25)

typedef struct {
    const float *cols;   /* [N·H·W, OCg·KH·KW]: group g's product */
    const double *bias;  /* [OC] or NULL */
    tk_tensor *y;        /* [N, OC, OH, OW], contiguous */
    int64_t h, wd, oc, ocg, g, kh, kw, oh, ow;
    TkrConvParams p;
    atomic_bool oom;
} Col2im;

/* out[oh, ow] += cols[pixel (ih, iw), (ocl, kh, kw)] with oh = ih·sh − ph + kh·dh, ow = iw·sw − pw + kw·dw. */
static void col2im_plane(const Col2im *a, int64_t item, double *acc)
{
    int64_t n = item / a->ocg, ocl = item % a->ocg, oc = a->g * a->ocg + ocl, taps = a->kh * a->kw, width = a->ocg * taps;
    double b = a->bias ? a->bias[oc] : 0.0;
    for (int64_t i = 0; i < a->oh * a->ow; i++) acc[i] = b;
    for (int64_t ih = 0; ih < a->h; ih++)
        for (int64_t iw = 0; iw < a->wd; iw++) {
            const float *c = a->cols + ((n * a->h + ih) * a->wd + iw) * width + ocl * taps;
            for (int64_t kh = 0; kh < a->kh; kh++) {
                int64_t oh = ih * a->p.stride[0] - a->p.pad[0] + kh * a->p.dil[0];
                if (oh < 0 || oh >= a->oh) continue;
                for (int64_t kw = 0; kw < a->kw; kw++) {
                    int64_t ow = iw * a->p.stride[1] - a->p.pad[1] + kw * a->p.dil[1];
                    if (ow >= 0 && ow < a->ow) acc[oh * a->ow + ow] += (double)c[kh * a->kw + kw];
                }
            }
        }
    size_t es = tk_dtype_size(a->y->dtype);
    tkr_store_row_f(tkr_ptr(a->y) + (int64_t)es * (n * a->oc + oc) * a->oh * a->ow, a->y->dtype, acc, a->oh * a->ow);
}

static void col2im_planes(int64_t begin, int64_t end, void *arg)
{
    Col2im *a = arg;
    double *acc = malloc((size_t)(a->oh * a->ow) * sizeof *acc);
    if (!acc) {
        atomic_store(&a->oom, true);
        return;
    }
    for (int64_t item = begin; item < end; item++) col2im_plane(a, item, acc);
    free(acc);
}

static bool gemm_applies(const tk_tensor *x, const tk_tensor *w, int64_t groups)
{
    int64_t pixels = x->shape[0] * x->shape[2] * x->shape[3], width = w->shape[1] * w->shape[2] * w->shape[3];
    return (x->dtype == TK_DTYPE_F32 || x->dtype == TK_DTYPE_BF16) && pixels > 0 && width > 0 && x->shape[1] / groups > 0 &&
           pixels * width <= COLS_MAX;
}

/* x [N, C, H, W] and w [C, OCg, KH, KW] in f32 (bf16 widens exactly): per
 * group, cols = x's pixels × its C/groups channels (NHWC, a view) · its rows
 * of w viewed [C/groups, OCg·KH·KW], then col2im into y. */
static tk_status gemm_transpose(tk_context *ctx, const char *op, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias,
                                const TkrConvParams *p, tk_tensor *y)
{
    int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2], wd = x->shape[3], groups = p->groups, cg = c / groups;
    int64_t ocg = w->shape[1], width = ocg * w->shape[2] * w->shape[3], pixels = n * h * wd;
    tk_tensor *xt = NULL, *xn = NULL, *wc = NULL, *bc = NULL, *xg = NULL, *wg = NULL, *cols = NULL;
    tk_status s;
    if ((s = tk_permute(ctx, x, (int[]){ 0, 2, 3, 1 }, &xt)) || (s = tkr_contiguous_as(ctx, xt, TK_DTYPE_F32, &xn)) ||
        (s = tkr_contiguous_as(ctx, w, TK_DTYPE_F32, &wc)) || (bias && (s = tkr_contiguous_as(ctx, bias, TK_DTYPE_F64, &bc))))
        goto done;
    for (int64_t g = 0; g < groups && !s; g++) {
        if ((s = tkr_view(ctx, xn, 2, (int64_t[]){ pixels, cg }, (int64_t[]){ c, 1 }, xn->offset + g * cg, &xg)) ||
            (s = tkr_view(ctx, wc, 2, (int64_t[]){ cg, width }, (int64_t[]){ width, 1 }, wc->offset + g * cg * width, &wg)) ||
            (s = tk_matmul(ctx, xg, wg, &cols)))
            break;
        Col2im a = { (const float *)tkr_ptr(cols), bc ? (const double *)tkr_ptr(bc) : NULL, y, h, wd, y->shape[1], ocg, g,
                     w->shape[2], w->shape[3], y->shape[2], y->shape[3], *p, false };
        int64_t per = h * wd * w->shape[2] * w->shape[3];
        tkr_parallel_for(ctx, n * ocg, per >= 65536 ? 1 : 65536 / (per ? per : 1), col2im_planes, &a);
        if (atomic_load(&a.oom))
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for a plane of %lld accumulators", op, (long long)(a.oh * a.ow));
        tk_tensor_release(xg);
        tk_tensor_release(wg);
        tk_tensor_release(cols);
        xg = wg = cols = NULL;
    }
done:
    tk_tensor_release(xt);
    tk_tensor_release(xn);
    tk_tensor_release(wc);
    tk_tensor_release(bc);
    tk_tensor_release(xg);
    tk_tensor_release(wg);
    tk_tensor_release(cols);
    return s;
}

tk_status tk_conv_transpose2d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias,
                              const tk_conv_opts *opts, tk_tensor **out)
{
    const char *op = "tk_conv_transpose2d";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    TkrConvParams p;
    tk_status s = tkr_conv_check_tensors(ctx, op, 2, x, w, bias);
    if (s || (s = tkr_conv_params(ctx, op, opts, 2, true, &p))) return s;
    char sx[160], sw[160], sb[160];
    int64_t n = x->shape[0], c = x->shape[1], g = p.groups, oc = w->shape[1] * g;
    if (w->shape[0] != c)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: weight %s must be [C, OC/groups, KH, KW] with C = %lld, the channels of x %s", op,
                         TKR_SHAPE(w, sw), (long long)c, TKR_SHAPE(x, sx));
    if (c % g != 0)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: groups %lld must divide the channels of x %s", op, (long long)g, TKR_SHAPE(x, sx));
    if (bias && bias->shape[0] != oc)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: bias %s must be [%lld] (weight %s, groups %lld)", op, TKR_SHAPE(bias, sb), (long long)oc,
                         TKR_SHAPE(w, sw), (long long)g);
    int64_t size[2];
    for (int i = 0; i < 2; i++) {
        if (p.opad[i] >= p.stride[i] && p.opad[i] >= p.dil[i])
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: output_padding %lld along %s must be smaller than stride %lld or dilation %lld",
                             op, (long long)p.opad[i], i ? "W" : "H", (long long)p.stride[i], (long long)p.dil[i]);
        size[i] = (x->shape[2 + i] - 1) * p.stride[i] - 2 * p.pad[i] + p.dil[i] * (w->shape[2 + i] - 1) + p.opad[i] + 1;
        if (size[i] < 1)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s with weight %s gives an output %s of %lld (padding %lld too large)", op,
                             TKR_SHAPE(x, sx), TKR_SHAPE(w, sw), i ? "width" : "height", (long long)size[i], (long long)p.pad[i]);
    }
    if ((s = tkr_new(ctx, x->dtype, 4, (int64_t[]){ n, oc, size[0], size[1] }, out))) return s;
    if (tk_tensor_numel(*out) == 0) return tkr_conv_finish(ctx, op, t0, TK_OK, out);

    tk_dtype work = x->dtype == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;   /* f16, bf16 widen exactly */
    tk_tensor *xc = NULL, *wc = NULL, *bc = NULL;
    if (gemm_applies(x, w, g)) s = gemm_transpose(ctx, op, x, w, bias, &p, *out);
    else if (!(s = tkr_contiguous_as(ctx, x, work, &xc)) && !(s = tkr_contiguous_as(ctx, w, work, &wc)) &&
        !(bias && (s = tkr_contiguous_as(ctx, bias, TK_DTYPE_F64, &bc)))) {
        Transposed a = { tkr_ptr(xc), tkr_ptr(wc), bc ? (const double *)tkr_ptr(bc) : NULL, *out,
                         n, c, x->shape[2], x->shape[3], oc, w->shape[2], w->shape[3], size[0], size[1], g, p, false };
        int64_t per = x->shape[2] * x->shape[3] * (c / g) * a.kh * a.kw;
        tkr_parallel_for(ctx, n * oc, per >= 65536 ? 1 : 65536 / (per ? per : 1), scatter_planes, &a);
        if (atomic_load(&a.oom))
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for a plane of %lld accumulators", op, (long long)(size[0] * size[1]));
    }
    tk_tensor_release(xc);
    tk_tensor_release(wc);
    tk_tensor_release(bc);
    if (!s) s = tkr_conv_epilogue(ctx, &p, p.channels_last || (tk_tensor_is_channels_last(x) && !tk_tensor_is_contiguous(x)), out);
    return tkr_conv_finish(ctx, op, t0, s, out);
}
