/* conv_transpose.c — conv_transpose2d as a direct loop in double.
 *
 * Scatter form, one output plane (n, oc) per task: the task owns the plane's
 * accumulators, adds every input pixel's contribution through every tap in
 * a fixed order, then stores the plane. No two tasks write one element, so
 * any thread count gives the same bits. */
#include <stdatomic.h>
#include <stdlib.h>

#include "conv_common.h"

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
    if (!(s = tkr_contiguous_as(ctx, x, work, &xc)) && !(s = tkr_contiguous_as(ctx, w, work, &wc)) &&
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
