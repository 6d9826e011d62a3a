/* ffn.c — the transformer MLP on the fused stdlib kernels (stdlib-kernels/ffn.tk,
 * docs/stdlib/ffn.md): the [T, F] hidden activation never goes to memory.
 * Weights come as the kernels (and ONNX MatMul) store them, [in, out]; when
 * every weight is marked (tk_mark_weight) they are packed once, in the form
 * tk_matmul keeps for them, and the ffn_packed.tk kernels read them in place.
 * The bias kernels (ffn_gelu_X) take the activation as a compile-time ACT:
 * the plain name is gelu (tanh), <1> relu, <2> the exact gelu. For a
 * few rows (T <= 16, a decode step) the F dimension is split across blocks
 * (one 256-column chunk each) through an f32 scratch summed in order, so a
 * decode step uses every thread; the split depends on T and F alone, so the
 * result is the same on any thread count. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "kernel_arg.h"
#include "matmul_internal.h"
#include "stdlib_kernels.h"
#include "tk/nn.h"

static bool is_vec(const tk_tensor *t, int64_t n) { return t && t->ndim == 1 && t->shape[0] == n; }

tk_status tk_ffn(tk_context *ctx, const tk_tensor *x, const tk_tensor *w1, const tk_tensor *w3, const tk_tensor *w2, const tk_ffn_opts *opts,
                 tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_ffn_opts o = opts ? *opts : (tk_ffn_opts){ 0 };
    bool swiglu = o.activation == TK_FFN_SWIGLU;
    tk_status s;
    if ((s = tkr_check_arg(ctx, "tk_ffn", "x", x)) || (s = tkr_check_arg(ctx, "tk_ffn", "w1", w1)) ||
        (s = tkr_check_arg(ctx, "tk_ffn", "w2", w2)) || (swiglu && (s = tkr_check_arg(ctx, "tk_ffn", "w3", w3))))
        return s;
    if (o.activation != TK_FFN_SWIGLU && o.activation != TK_FFN_GELU_TANH && o.activation != TK_FFN_RELU &&
        o.activation != TK_FFN_GELU_ERF)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_ffn: activation %d is not a tk_ffn_activation", (int)o.activation);
    if (x->dtype != TK_DTYPE_F32 && x->dtype != TK_DTYPE_BF16)
        return tkr_error(ctx, TK_ERR_DTYPE, "tk_ffn: x is %s; the fused kernels take f32 and bf16 (compose tk_linear and tk_unary otherwise)",
                         tk_dtype_name(x->dtype));
    if (w1->dtype != x->dtype || w2->dtype != x->dtype || (swiglu && w3->dtype != x->dtype))
        return tkr_error(ctx, TK_ERR_DTYPE, "tk_ffn: the weights must have x's dtype %s", tk_dtype_name(x->dtype));
    char sx[160], s1[160], s2[160];
    int64_t d = x->ndim ? x->shape[x->ndim - 1] : 0, f = w1->ndim == 2 ? w1->shape[1] : -1;
    bool ok = x->ndim >= 1 && w1->ndim == 2 && w1->shape[0] == d && w2->ndim == 2 && w2->shape[0] == f && w2->shape[1] == d &&
              (!swiglu || (w3->ndim == 2 && w3->shape[0] == d && w3->shape[1] == f));
    if (!ok)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_ffn: x %s, w1 %s, w2 %s do not fit [..., D], [D, F], [F, D] (w3 as w1)", TKR_SHAPE(x, sx),
                         TKR_SHAPE(w1, s1), TKR_SHAPE(w2, s2));
    if (!swiglu && ((o.b1 && !is_vec(o.b1, f)) || (o.b2 && !is_vec(o.b2, d))))
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_ffn: b1 must be [%lld] and b2 [%lld]", (long long)f, (long long)d);
    int64_t t = tkr_numel(x->ndim - 1, x->shape);
    if ((s = tkr_new(ctx, x->dtype, x->ndim, x->shape, out))) return s;
    if (t == 0 || d == 0) return tkr_ok(ctx);
    tk_tensor *xc = NULL, *c1 = NULL, *c3 = NULL, *c2 = NULL, *b1 = NULL, *b2 = NULL, *p = NULL;
    if ((s = tkr_contiguous(ctx, x, &xc))) goto done;
    /* every weight marked: their packed planes, made on the first call and kept; else as they are, contiguous */
    bool packed = w1->weight && w2->weight && (!swiglu || w3->weight);
    if (packed) {
        if ((s = tkr_weight_form(ctx, w1, TKR_FORM_MATMUL_PACKED, tkr_matmul_pack_b, &c1)) ||
            (s = tkr_weight_form(ctx, w2, TKR_FORM_MATMUL_PACKED, tkr_matmul_pack_b, &c2)) ||
            (swiglu && (s = tkr_weight_form(ctx, w3, TKR_FORM_MATMUL_PACKED, tkr_matmul_pack_b, &c3))))
            goto done;
    } else if ((s = tkr_contiguous(ctx, w1, &c1)) || (s = tkr_contiguous(ctx, w2, &c2)) || (swiglu && (s = tkr_contiguous(ctx, w3, &c3))))
        goto done;
    if (!swiglu) {   /* biases in f32; absent ones are zeros */
        s = o.b1 ? tk_to_dtype(ctx, o.b1, TK_DTYPE_F32, &b1) : tk_zeros(ctx, TK_DTYPE_F32, 1, &f, &b1);
        if (!s) s = o.b2 ? tk_to_dtype(ctx, o.b2, TK_DTYPE_F32, &b2) : tk_zeros(ctx, TK_DTYPE_F32, 1, &d, &b2);
        if (s) goto done;
    }
    const char *ty = x->dtype == TK_DTYPE_BF16 ? "bf16" : "f32", *act = swiglu ? "swiglu" : "gelu", *pk = packed ? "_packed" : "";
    const char *file = packed ? "ffn_packed.tk" : "ffn.tk";
    /* the bias kernels' instance: ACT 1 relu, 2 exact gelu (stdlib_instances.txt lists them) */
    const char *inst = o.activation == TK_FFN_RELU ? "<1>" : o.activation == TK_FFN_GELU_ERF ? "<2>" : "";
    tk_arg xa = { tkr_ptr(xc), { t, d, 0, 0 }, 2 }, ya = { tkr_ptr(*out), { t, d, 0, 0 }, 2 };
    int64_t chunks = (f + 255) / 256;
    bool split = t <= 16 && chunks > 1;   /* by size alone: the same bits on any thread count */
    char name[64];
    tk_kernel *k;
    if (!split) {
        snprintf(name, sizeof name, "ffn_%s_%s%s%s", act, ty, pk, inst);
        if ((s = tkr_stdlib_kernel(ctx, file, name, &k))) goto done;
        if (swiglu) {
            tk_arg args[5] = { xa, tkr_kernel_arg(c1), tkr_kernel_arg(c3), tkr_kernel_arg(c2), ya };
            s = tkr_launch(ctx, k, NULL, args, 5);
        } else {
            tk_arg args[6] = { xa, tkr_kernel_arg(c1), tkr_kernel_arg(b1), tkr_kernel_arg(c2), tkr_kernel_arg(b2), ya };
            s = tkr_launch(ctx, k, NULL, args, 6);
        }
        goto done;
    }
    /* decode: one hidden chunk of 256 per block, then the slices summed in order */
    if ((s = tkr_new(ctx, TK_DTYPE_F32, 3, (int64_t[]){ chunks, t, d }, &p))) goto done;
    snprintf(name, sizeof name, "ffn_%s_%s%s_part%s", act, ty, pk, inst);
    if ((s = tkr_stdlib_kernel(ctx, file, name, &k))) goto done;
    if (swiglu) {
        tk_arg args[5] = { xa, tkr_kernel_arg(c1), tkr_kernel_arg(c3), tkr_kernel_arg(c2), tkr_kernel_arg(p) };
        s = tkr_launch(ctx, k, NULL, args, 5);
    } else {
        tk_arg args[5] = { xa, tkr_kernel_arg(c1), tkr_kernel_arg(b1), tkr_kernel_arg(c2), tkr_kernel_arg(p) };
        s = tkr_launch(ctx, k, NULL, args, 5);
    }
    if (s) goto done;
    snprintf(name, sizeof name, swiglu ? "ffn_partial_sum_%s" : "ffn_partial_sum_bias_%s", ty);
    if ((s = tkr_stdlib_kernel(ctx, "ffn.tk", name, &k))) goto done;
    if (swiglu) {
        tk_arg args[2] = { tkr_kernel_arg(p), ya };
        s = tkr_launch(ctx, k, NULL, args, 2);
    } else {
        tk_arg args[3] = { tkr_kernel_arg(p), tkr_kernel_arg(b2), ya };
        s = tkr_launch(ctx, k, NULL, args, 3);
    }
done:
    tk_tensor_release(xc);
    tk_tensor_release(c1);
    tk_tensor_release(c3);
    tk_tensor_release(c2);
    tk_tensor_release(b1);
    tk_tensor_release(b2);
    tk_tensor_release(p);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", "tk_ffn", tkr_now() - t0);
    return tkr_ok(ctx);
}
