/* norm.c — layer_norm and rms_norm. f32 and bf16 inputs run on the stdlib
 * kernels (layernorm.tk, rmsnorm.tk: rows of a [R, C] matrix, f32 math, bf16
 * rounded once); f16 and f64 on a plain loop in double. The normalised dims
 * are flattened into C, the others into R. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_nn.h"
#include "internal.h"
#include "stdlib_kernels.h"
#include "tk/nn.h"

/* Checks x and the affine parameter p (NULL allowed): p has the shape of x's
 * last nd dims. */
static tk_status check_norm_args(tk_context *ctx, const char *op, const tk_tensor *x, int nd, const tk_tensor *p, const char *pname)
{
    char sx[160], sp[160];
    if (nd < 1 || nd > x->ndim)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: normalized_ndim %d does not fit x %s (1 .. %d)", op, nd, TKR_SHAPE(x, sx), x->ndim);
    if (!tk_dtype_is_float(x->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: x is %s, needs a float tensor", op, tk_dtype_name(x->dtype));
    if (!p) return TK_OK;
    tk_status s = tkr_check_arg(ctx, op, pname, p);
    if (s) return s;
    bool ok = p->ndim == nd;
    for (int i = 0; ok && i < nd; i++) ok = p->shape[i] == x->shape[x->ndim - nd + i];
    if (!ok) return tkr_error(ctx, TK_ERR_SHAPE, "%s: %s %s must have the shape of x %s's last %d dims", op, pname, TKR_SHAPE(p, sp),
                              TKR_SHAPE(x, sx), nd);
    if (!tk_dtype_is_float(p->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: %s is %s, needs a float tensor", op, pname, tk_dtype_name(p->dtype));
    return TK_OK;
}

/* p as a contiguous f32 [C] tensor, or `fill` everywhere when p is NULL. */
static tk_status param_f32(tk_context *ctx, const tk_tensor *p, int64_t c, double fill, tk_tensor **out)
{
    if (!p) return tk_full(ctx, TK_DTYPE_F32, 1, &c, fill, out);
    tk_tensor *f = NULL;
    tk_status s = p->dtype == TK_DTYPE_F32 ? tkr_contiguous(ctx, p, &f) : tk_to_dtype(ctx, p, TK_DTYPE_F32, &f);
    if (s) return s;
    s = tkr_view(ctx, f, 1, &c, (int64_t[]){ 1 }, f->offset, out);
    tk_tensor_release(f);
    return s;
}

typedef struct {
    const tk_tensor *x, *g, *b;
    tk_tensor *y;
    int64_t c;
    double eps;
    bool rms;
} Rows;

/* Reference rows in double (f16, f64 inputs). */
static void plain_rows(int64_t begin, int64_t end, void *arg)
{
    const Rows *r = arg;
    size_t es = tk_dtype_size(r->x->dtype);
    const char *x = tkr_ptr(r->x);
    char *y = tkr_ptr(r->y);
    const float *g = (const float *)tkr_ptr(r->g), *b = r->b ? (const float *)tkr_ptr(r->b) : NULL;
    for (int64_t i = begin; i < end; i++) {
        const char *xr = x + i * r->c * (int64_t)es;
        double mean = 0, var = 0;
        if (!r->rms) {
            for (int64_t j = 0; j < r->c; j++) mean += tkr_load_f(xr + j * (int64_t)es, r->x->dtype);
            mean /= (double)r->c;
        }
        for (int64_t j = 0; j < r->c; j++) {
            double d = tkr_load_f(xr + j * (int64_t)es, r->x->dtype) - mean;
            var += d * d;
        }
        double rstd = 1.0 / sqrt(var / (double)r->c + r->eps);
        for (int64_t j = 0; j < r->c; j++) {
            double v = (tkr_load_f(xr + j * (int64_t)es, r->x->dtype) - mean) * rstd * g[j] + (b ? b[j] : 0.0);
            tkr_store_f(y + (i * r->c + j) * (int64_t)es, r->y->dtype, v);
        }
    }
}

static tk_status norm(tk_context *ctx, const char *op, bool rms, const tk_tensor *x, int nd, const tk_tensor *weight,
                      const tk_tensor *bias, double eps, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!ctx->device->host_ops) {
        if (!(eps >= 0)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: eps is %g, must be >= 0", op, eps);
        return tkr_gpu_norm(ctx, rms, x, nd, weight, bias, eps, out);
    }
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = tkr_check_arg(ctx, op, "x", x);
    if (s || (s = check_norm_args(ctx, op, x, nd, weight, "weight")) || (s = check_norm_args(ctx, op, x, nd, bias, "bias"))) return s;
    if (!(eps >= 0)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: eps is %g, must be >= 0", op, eps);
    int64_t c = tkr_numel(nd, x->shape + x->ndim - nd), r = tkr_numel(x->ndim - nd, x->shape);
    if ((s = tkr_new(ctx, x->dtype, x->ndim, x->shape, out))) return s;
    if (r * c == 0) return tkr_ok(ctx);
    tk_tensor *xc = NULL, *g = NULL, *b = NULL;
    if ((s = tkr_contiguous(ctx, x, &xc)) || (s = param_f32(ctx, weight, c, 1.0, &g)) || (!rms && (s = param_f32(ctx, bias, c, 0.0, &b))))
        goto done;
    if (x->dtype == TK_DTYPE_F32 || x->dtype == TK_DTYPE_BF16) {
        char name[64];
        snprintf(name, sizeof name, "%s_%s", rms ? "rmsnorm" : "layernorm", x->dtype == TK_DTYPE_F32 ? "f32" : "bf16");
        tk_kernel *k;
        if ((s = tkr_stdlib_kernel(ctx, rms ? "rmsnorm.tk" : "layernorm.tk", name, &k))) goto done;
        float e = (float)eps;
        double est = tkr_est_bytes_ns(2.0 * (double)(r * c) * (double)tk_dtype_size(x->dtype));
        tk_arg xa = { tkr_ptr(xc), { r, c, 0, 0 }, 2 }, ya = { tkr_ptr(*out), { r, c, 0, 0 }, 2 };
        tk_arg ga = { tkr_ptr(g), { c, 0, 0, 0 }, 1 };
        if (rms) {
            tk_arg args[4] = { xa, ga, ya, TK_SCALAR(&e) };
            s = tkr_launch_est(ctx, k, NULL, args, 4, est);
        } else {
            tk_arg ba = { tkr_ptr(b), { c, 0, 0, 0 }, 1 };
            tk_arg args[5] = { xa, ga, ba, ya, TK_SCALAR(&e) };
            s = tkr_launch_est(ctx, k, NULL, args, 5, est);
        }
    } else {
        Rows rows = { xc, g, b, *out, c, eps, rms };
        tkr_parallel_for(ctx, r, 64, plain_rows, &rows);
    }
done:
    tk_tensor_release(xc);
    tk_tensor_release(g);
    tk_tensor_release(b);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_layer_norm(tk_context *ctx, const tk_tensor *x, int normalized_ndim, const tk_tensor *weight, const tk_tensor *bias,
                        double eps, tk_tensor **out)
{
    return norm(ctx, "tk_layer_norm", false, x, normalized_ndim, weight, bias, eps, out);
}

tk_status tk_rms_norm(tk_context *ctx, const tk_tensor *x, int normalized_ndim, const tk_tensor *weight, double eps, tk_tensor **out)
{
    return norm(ctx, "tk_rms_norm", true, x, normalized_ndim, weight, NULL, eps, out);
}
