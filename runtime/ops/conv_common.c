/* conv_common.c — see conv_common.h. */
#include "conv_common.h"

#include <math.h>
#include "tk/ops.h"
#include "tk/shape.h"

tk_status tkr_conv_params(tk_context *ctx, const char *op, const tk_conv_opts *opts, int nsp, bool transpose, TkrConvParams *p)
{
    static const tk_conv_opts defaults;
    if (!opts) opts = &defaults;
    static const char *axis[2] = { "H", "W" };
    for (int i = 0; i < nsp; i++) {
        const char *ax = nsp == 1 ? "L" : axis[i];
        if (opts->stride[i] < 0 || opts->padding[i] < 0 || opts->dilation[i] < 0 || opts->output_padding[i] < 0)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT,
                             "%s: negative option along %s (stride %lld, padding %lld, dilation %lld, output_padding %lld)", op, ax,
                             (long long)opts->stride[i], (long long)opts->padding[i], (long long)opts->dilation[i],
                             (long long)opts->output_padding[i]);
        if (!transpose && opts->output_padding[i] != 0)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: output_padding %lld along %s is for conv_transpose only", op,
                             (long long)opts->output_padding[i], ax);
    }
    if (opts->clamp && (isnan(opts->clamp_min) || isnan(opts->clamp_max)))
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: clamp bounds [%g, %g] must not be NaN (±inf leaves a side open)", op,
                         (double)opts->clamp_min, (double)opts->clamp_max);
    if (opts->groups < 0) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: groups is %lld, must be >= 1 (0: 1)", op, (long long)opts->groups);
    /* conv1d is a conv2d with H = 1: a 1-row kernel, stride and dilation 1, no padding along H */
    for (int i = 0; i < 2; i++) {
        int k = nsp == 1 ? 0 : i;   /* conv1d's L is the W axis and reads index 0 */
        bool used = nsp == 2 || i == 1;
        p->stride[i] = used && opts->stride[k] ? opts->stride[k] : 1;
        p->pad[i] = used ? opts->padding[k] : 0;
        p->dil[i] = used && opts->dilation[k] ? opts->dilation[k] : 1;
        p->opad[i] = used ? opts->output_padding[k] : 0;
    }
    p->groups = opts->groups ? opts->groups : 1;
    p->relu = opts->relu;
    p->clamp = opts->clamp;
    p->clamp_min = opts->clamp_min;
    p->clamp_max = opts->clamp_max;
    p->channels_last = opts->channels_last;
    return TK_OK;
}

tk_status tkr_conv_check_tensors(tk_context *ctx, const char *op, int nsp, const tk_tensor *x, const tk_tensor *w,
                                 const tk_tensor *bias)
{
    tk_status s = tkr_check_arg(ctx, op, "x", x);
    if (s || (s = tkr_check_arg(ctx, op, "weight", w)) || (bias && (s = tkr_check_arg(ctx, op, "bias", bias)))) return s;
    char sx[160], sw[160], sb[160];
    const char *form = nsp == 1 ? "[N, C, L]" : "[N, C, H, W]";
    if (x->ndim != 2 + nsp) return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s must be %s", op, TKR_SHAPE(x, sx), form);
    if (w->ndim != 2 + nsp)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: weight %s must have %d dims (x is %s)", op, TKR_SHAPE(w, sw), 2 + nsp, TKR_SHAPE(x, sx));
    if (!tk_dtype_is_float(x->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: x is %s, needs a float tensor", op, tk_dtype_name(x->dtype));
    if (w->dtype != x->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: weight is %s, x is %s (they must match)", op, tk_dtype_name(w->dtype), tk_dtype_name(x->dtype));
    if (bias && bias->dtype != x->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: bias is %s, x is %s (they must match)", op, tk_dtype_name(bias->dtype), tk_dtype_name(x->dtype));
    if (bias && bias->ndim != 1) return tkr_error(ctx, TK_ERR_SHAPE, "%s: bias %s must be 1-d", op, TKR_SHAPE(bias, sb));
    return TK_OK;
}

tk_status tkr_contiguous_as(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out)
{
    return t->dtype == dtype ? tkr_contiguous(ctx, t, out) : tk_to_dtype(ctx, t, dtype, out);
}

void tkr_store_row_f(void *dst, tk_dtype dtype, const double *v, int64_t n)
{
    if (dtype == TK_DTYPE_F32) {
        float *d = dst;
        for (int64_t i = 0; i < n; i++) d[i] = (float)v[i];
    } else if (dtype == TK_DTYPE_F64) {
        double *d = dst;
        for (int64_t i = 0; i < n; i++) d[i] = v[i];
    } else {
        size_t es = tk_dtype_size(dtype);
        for (int64_t i = 0; i < n; i++) tkr_store_f((char *)dst + i * (int64_t)es, dtype, v[i]);
    }
}

tk_status tkr_conv_finish(tk_context *ctx, const char *op, double t0, tk_status s, tk_tensor **out)
{
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tkr_conv_activate(tk_context *ctx, const TkrConvParams *p, tk_tensor *y)
{
    if (tk_tensor_numel(y) == 0) return TK_OK;
    tk_status s;
    if (p->relu && (s = tk_unary_(ctx, TK_RELU, y))) return s;
    /* tk_clamp_ keeps NaN and gives max where min > max, as the kernels' clamp */
    tk_clamp_opts c = { .has_min = true, .has_max = true, .min = p->clamp_min, .max = p->clamp_max };
    if (p->clamp && (s = tk_clamp_(ctx, y, &c))) return s;
    return TK_OK;
}

tk_status tkr_conv_epilogue(tk_context *ctx, const TkrConvParams *p, bool channels_last, tk_tensor **out)
{
    tk_status s;
    if ((s = tkr_conv_activate(ctx, p, *out))) return s;
    if (channels_last && (*out)->ndim == 4 && !tk_tensor_is_channels_last(*out)) {
        tk_tensor *t = NULL;
        if ((s = tk_to_channels_last(ctx, *out, &t))) return s;
        tk_tensor_release(*out);
        *out = t;
    }
    return TK_OK;
}
