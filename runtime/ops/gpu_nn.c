/* gpu_nn.c — the nn ops on a GPU device (TK_DEVICE_CUDA, TK_DEVICE_CUDA_EMU):
 * matmul, linear, softmax, layer_norm and rms_norm, each one launch of its
 * stdlib kernel compiled for the device's target at the kernel's GPU
 * configuration (the target(gpu: ...) defaults in the stdlib .tk files).
 * The public ops send a GPU context's call here before their CPU checks.
 * Operands are made contiguous on the device first (tkr_contiguous); f32 and
 * bf16 only, as the kernels are. What the kernels do not cover (a softmax
 * over another dim than the last, broadcast batch dims) is refused with
 * TK_ERR_UNSUPPORTED naming it, never run on the host in secret. */
#include <stdio.h>
#include <string.h>

#include "gpu_nn.h"
#include "stdlib_kernels.h"

static tk_arg tensor_arg(const tk_tensor *t, int rank, const int64_t *shape)
{
    tk_arg a = { tkr_ptr(t), { 0, 0, 0, 0 }, (unsigned)rank };
    for (int d = 0; d < rank; d++) a.shape[d] = shape[d];
    return a;
}

static tk_status float_operand(tk_context *ctx, const char *op, const char *name, const tk_tensor *t)
{
    tk_status s = tkr_check_device_arg(ctx, op, name, t);
    if (s) return s;
    if (t->dtype != TK_DTYPE_F32 && t->dtype != TK_DTYPE_BF16)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: %s is %s; on %s the kernels take f32 and bf16", op, name, tk_dtype_name(t->dtype),
                         ctx->device->name);
    return TK_OK;
}

/* A contiguous f32 [n] on the device: p converted, or `fill` everywhere when p is NULL. */
static tk_status param_f32(tk_context *ctx, const tk_tensor *p, int64_t n, double fill, tk_tensor **out)
{
    if (!p) return tk_full(ctx, TK_DTYPE_F32, 1, &n, fill, out);
    tk_tensor *flat;
    tk_status s = tk_reshape(ctx, p, 1, &n, &flat);
    if (s) return s;
    s = flat->dtype == TK_DTYPE_F32 ? tkr_contiguous(ctx, flat, out) : tk_to_dtype(ctx, flat, TK_DTYPE_F32, out);
    tk_tensor_release(flat);
    return s;
}

/* ------------------------------------------------------------ products */

/* C[m, n] = A[m, k] · B (b_nt: B is [n, k]) + bias, one launch. f32 gives f32;
 * bf16 gives bf16 through the _ep_bf16 kernels (accumulated in f32, rounded once). */
static tk_status gemm(tk_context *ctx, const char *a, const char *b, const char *c, int64_t m, int64_t n, int64_t k,
                      bool b_nt, const tk_tensor *bias, tk_dtype dt, const char *label)
{
    bool bf = dt == TK_DTYPE_BF16;
    char name[48];
    snprintf(name, sizeof name, "gemm_%s%s_ep%s", bf ? "bf16" : "f32", b_nt ? "_nt" : "", bf ? "_bf16" : "");
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "gemm.tk", name, &kern);
    if (s) return s;
    /* an unused bias still binds N: any f32 [n] will do, it is not read */
    tk_tensor *dummy = NULL;
    if (!bias && (s = tk_empty(ctx, TK_DTYPE_F32, 1, &n, &dummy))) return s;
    int32_t act = 0;
    uint8_t use_bias = bias != NULL, use_residual = 0;
    int64_t bsh[2] = { b_nt ? n : k, b_nt ? k : n };
    tk_arg args[8] = {
        { (void *)a, { m, k, 0, 0 }, 2 },
        { (void *)b, { bsh[0], bsh[1], 0, 0 }, 2 },
        tensor_arg(bias ? bias : dummy, 1, &n),
        { (void *)c, { m, n, 0, 0 }, 2 },   /* R: not read */
        { (void *)c, { m, n, 0, 0 }, 2 },
        TK_SCALAR(&act), TK_SCALAR(&use_bias), TK_SCALAR(&use_residual),
    };
    s = tkr_launch(ctx, kern, label, args, 8);
    tk_tensor_release(dummy);
    return s;
}

tk_status tkr_gpu_matmul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    const char *op = "tk_matmul";
    *out = NULL;
    tk_status s;
    if ((s = float_operand(ctx, op, "a", a)) || (s = float_operand(ctx, op, "b", b))) return s;
    char sa[160], sb[160];
    if (a->dtype != b->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: a is %s and b is %s (convert one with tk_to_dtype)", op, tk_dtype_name(a->dtype),
                         tk_dtype_name(b->dtype));
    bool same_batch = a->ndim == b->ndim && a->ndim >= 2 && memcmp(a->shape, b->shape, (size_t)(a->ndim - 2) * sizeof *a->shape) == 0;
    if (a->ndim < 2 || !(b->ndim == 2 || same_batch))
        return tkr_error(ctx, TK_ERR_UNSUPPORTED,
                         "%s: a %s and b %s on %s: the GPU path takes a [..., M, K] with b [K, N] or b [..., K, N] of a's batch dims",
                         op, TKR_SHAPE(a, sa), TKR_SHAPE(b, sb), ctx->device->name);
    int64_t m = a->shape[a->ndim - 2], k = a->shape[a->ndim - 1], n = b->shape[b->ndim - 1];
    if (b->shape[b->ndim - 2] != k)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: shapes %s and %s cannot be multiplied (%lld columns vs %lld rows)", op, TKR_SHAPE(a, sa),
                         TKR_SHAPE(b, sb), (long long)k, (long long)b->shape[b->ndim - 2]);
    int64_t osh[TK_MAX_DIMS];
    memcpy(osh, a->shape, (size_t)a->ndim * sizeof *osh);
    osh[a->ndim - 1] = n;
    if ((s = tkr_new(ctx, a->dtype, a->ndim, osh, out))) return s;
    if (tk_tensor_numel(*out) == 0) return tkr_ok(ctx);
    tk_tensor *ac = NULL, *bc = NULL;
    if (!(s = tkr_contiguous(ctx, a, &ac)) && !(s = tkr_contiguous(ctx, b, &bc))) {
        size_t es = tk_dtype_size(a->dtype);
        if (b->ndim == 2) {   /* the batch dims fold into M */
            int64_t rows = tkr_numel(a->ndim - 1, a->shape);
            s = k == 0 ? tk_fill_(ctx, *out, 0.0) : gemm(ctx, tkr_ptr(ac), tkr_ptr(bc), tkr_ptr(*out), rows, n, k, false, NULL, a->dtype, op);
        } else {
            int64_t batches = tkr_numel(a->ndim - 2, a->shape);
            if (k == 0) s = tk_fill_(ctx, *out, 0.0);
            for (int64_t i = 0; i < batches && !s && k; i++)
                s = gemm(ctx, tkr_ptr(ac) + i * m * k * (int64_t)es, tkr_ptr(bc) + i * k * n * (int64_t)es,
                         tkr_ptr(*out) + i * m * n * (int64_t)es, m, n, k, false, NULL, a->dtype, op);
        }
    }
    tk_tensor_release(ac);
    tk_tensor_release(bc);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    return tkr_ok(ctx);
}

tk_status tkr_gpu_linear(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, tk_tensor **out)
{
    const char *op = "tk_linear";
    *out = NULL;
    tk_status s;
    if ((s = float_operand(ctx, op, "x", x)) || (s = float_operand(ctx, op, "weight", w)) ||
        (bias && (s = float_operand(ctx, op, "bias", bias))))
        return s;
    char sx[160], sw[160], sbias[160];
    if (x->dtype != w->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: x is %s and weight is %s (convert one with tk_to_dtype)", op, tk_dtype_name(x->dtype),
                         tk_dtype_name(w->dtype));
    if (w->ndim != 2 || x->ndim < 1 || x->shape[x->ndim - 1] != w->shape[1])
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s and weight %s do not fit (weight is [out, in], x [..., in])", op, TKR_SHAPE(x, sx),
                         TKR_SHAPE(w, sw));
    int64_t n = w->shape[0], k = w->shape[1], m = tkr_numel(x->ndim - 1, x->shape);
    if (bias && (bias->ndim != 1 || bias->shape[0] != n))
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: bias %s does not fit weight %s (needs [%lld])", op, TKR_SHAPE(bias, sbias), TKR_SHAPE(w, sw),
                         (long long)n);
    int64_t osh[TK_MAX_DIMS];
    memcpy(osh, x->shape, (size_t)x->ndim * sizeof *osh);
    osh[x->ndim - 1] = n;
    if ((s = tkr_new(ctx, x->dtype, x->ndim, osh, out))) return s;
    if (tk_tensor_numel(*out) == 0) return tkr_ok(ctx);
    tk_tensor *xc = NULL, *wc = NULL, *bf = NULL;
    if (!(s = tkr_contiguous(ctx, x, &xc)) && !(s = tkr_contiguous(ctx, w, &wc)) && !(bias && (s = param_f32(ctx, bias, n, 0, &bf)))) {
        if (k == 0) s = bias ? tk_copy_(ctx, *out, bias) : tk_fill_(ctx, *out, 0.0);
        else s = gemm(ctx, tkr_ptr(xc), tkr_ptr(wc), tkr_ptr(*out), m, n, k, true, bf, x->dtype, op);
    }
    tk_tensor_release(xc);
    tk_tensor_release(wc);
    tk_tensor_release(bf);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    return tkr_ok(ctx);
}

/* ------------------------------------------------------------ rows: softmax and the norms */

/* x viewed as rows [r, c] of its last `nd` dims, made contiguous on the device; out like x. */
static tk_status rows_of(tk_context *ctx, const char *op, const tk_tensor *x, int nd, tk_tensor **xc, tk_tensor **out, int64_t *r,
                         int64_t *c)
{
    tk_status s = float_operand(ctx, op, "x", x);
    if (s) return s;
    if (nd < 1 || nd > x->ndim)
        return tkr_error(ctx, TK_ERR_INDEX, "%s: normalises over %d dims of a %d-dim tensor", op, nd, x->ndim);
    *c = tkr_numel(nd, x->shape + x->ndim - nd);
    *r = *c ? tk_tensor_numel(x) / *c : 0;
    if ((s = tkr_contiguous(ctx, x, xc))) return s;
    if ((s = tkr_new(ctx, x->dtype, x->ndim, x->shape, out))) {
        tk_tensor_release(*xc);
        *xc = NULL;
    }
    return s;
}

static tk_status finish_rows(tk_context *ctx, tk_status s, tk_tensor *xc, tk_tensor **out)
{
    tk_tensor_release(xc);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    return tkr_ok(ctx);
}

tk_status tkr_gpu_softmax(tk_context *ctx, const tk_tensor *x, int dim, tk_tensor **out)
{
    const char *op = "tk_softmax";
    *out = NULL;
    tk_status s = tkr_check_device_arg(ctx, op, "a", x);
    int ax;
    if (s || (s = tkr_axis(ctx, op, dim, x->ndim, &ax))) return s;
    if (x->ndim > 0 && ax != x->ndim - 1)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: over dim %d of a %d-dim tensor: on %s the kernel runs over the last dim only", op,
                         dim, x->ndim, ctx->device->name);
    tk_tensor *xc;
    int64_t r, c;
    if ((s = rows_of(ctx, op, x, x->ndim ? 1 : 0, &xc, out, &r, &c))) return s;
    if (r * c > 0) {
        tk_kernel *k;
        if (!(s = tkr_stdlib_kernel(ctx, "softmax.tk", x->dtype == TK_DTYPE_F32 ? "softmax_f32" : "softmax_bf16", &k))) {
            int64_t sh[2] = { r, c };
            tk_arg args[2] = { tensor_arg(xc, 2, sh), tensor_arg(*out, 2, sh) };
            s = tkr_launch(ctx, k, op, args, 2);
        }
    }
    return finish_rows(ctx, s, xc, out);
}

tk_status tkr_gpu_norm(tk_context *ctx, bool rms, const tk_tensor *x, int nd, const tk_tensor *weight, const tk_tensor *bias, double eps,
                       tk_tensor **out)
{
    const char *op = rms ? "tk_rms_norm" : "tk_layer_norm";
    *out = NULL;
    tk_status s;
    if ((weight && (s = float_operand(ctx, op, "weight", weight))) || (bias && (s = float_operand(ctx, op, "bias", bias)))) return s;
    tk_tensor *xc, *g = NULL, *b = NULL;
    int64_t r, c;
    if ((s = rows_of(ctx, op, x, nd, &xc, out, &r, &c))) return s;
    char sx[160], sp[160];
    const tk_tensor *params[2] = { weight, bias };
    for (int i = 0; i < 2 && !s; i++)
        if (params[i] && tk_tensor_numel(params[i]) != c)
            s = tkr_error(ctx, TK_ERR_SHAPE, "%s: %s %s does not fit the last %d dims of x %s", op, i ? "bias" : "weight",
                          TKR_SHAPE(params[i], sp), nd, TKR_SHAPE(x, sx));
    if (!s && r * c > 0 && !(s = param_f32(ctx, weight, c, 1.0, &g)) && (rms || !(s = param_f32(ctx, bias, c, 0.0, &b)))) {
        char name[32];
        snprintf(name, sizeof name, "%s_%s", rms ? "rmsnorm" : "layernorm", x->dtype == TK_DTYPE_F32 ? "f32" : "bf16");
        tk_kernel *k;
        if (!(s = tkr_stdlib_kernel(ctx, rms ? "rmsnorm.tk" : "layernorm.tk", name, &k))) {
            int64_t sh[2] = { r, c };
            float e = (float)eps;
            tk_arg args[5];
            unsigned n = 0;
            args[n++] = tensor_arg(xc, 2, sh);
            args[n++] = tensor_arg(g, 1, &c);
            if (!rms) args[n++] = tensor_arg(b, 1, &c);
            args[n++] = tensor_arg(*out, 2, sh);
            args[n++] = (tk_arg)TK_SCALAR(&e);
            s = tkr_launch(ctx, k, op, args, n);
        }
    }
    tk_tensor_release(g);
    tk_tensor_release(b);
    return finish_rows(ctx, s, xc, out);
}
