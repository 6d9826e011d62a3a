/* op_nn_attention.c — ONNX Attention (opset 23+) on tk_sdpa, the runtime's
 * flash-attention kernels.
 *
 * 3-d inputs [B, S, heads · D] are viewed as [B, heads, S, D]; past_key /
 * past_value are joined in front of K / V (the present_* outputs). What the
 * kernel does not take is folded into one additive mask [.., S, SKV]: a
 * boolean or float attn_mask (padded with -inf up to SKV), causal masking
 * whose frontier is not the kernel's bottom-right one (ONNX aligns it with
 * the past length, or nonpad_kv_seqlen - S per batch), the sliding window
 * (opset 25) and the per-batch key padding (nonpad_kv_seqlen, opset 24).
 *
 * softcap, a requested qk_matmul_output, and value heads wider or narrower
 * than the query heads need the scores themselves: that path composes
 * tk_matmul, tk_softmax and element-wise ops (rows with no visible key give
 * 0, as ONNX says). 16-bit inputs compute in f32 there and round once. */
#include <math.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

typedef struct {
    int64_t b, hq, hkv, s, skv, past;   /* batch, heads, query and key counts, past length */
    bool causal;
    int64_t left, right;                /* sliding window, -1: unbounded */
    const tk_tensor *nonpad;            /* [B] int, or NULL */
} AttnDims;

const char *tko_nn_check_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t mode = tko_attr_int(n, "qk_matmul_output_mode", 0);
    if (mode < 0 || mode > 3) return tko_nn_why(why, len, "qk_matmul_output_mode=%lld is not one of 0..3", (long long)mode);
    if (tko_attr_int(n, "left_window_size", -1) < -1 || tko_attr_int(n, "right_window_size", -1) < -1)
        return tko_nn_why(why, len, "window sizes must be -1 or >= 0");
    return NULL;
}

/* [B, S, heads·D] as [B, heads, S, D] (a view). */
static tk_status to_heads(TkoOpCtx *oc, const tk_tensor *t, int64_t heads, const char *what, tk_tensor **out)
{
    const int64_t *sh = tk_tensor_shape(t);
    if (heads < 1 || sh[2] % heads)
        return tko_fail(oc, TK_ERR_SHAPE, "%s's hidden size %lld is not a multiple of %lld heads", what, (long long)sh[2],
                        (long long)heads);
    tk_tensor *r = NULL;
    tk_status s = tk_reshape(oc->ctx, t, 4, (int64_t[]){ sh[0], sh[1], heads, sh[2] / heads }, &r);
    if (!s) s = tk_permute(oc->ctx, r, (int[]){ 0, 2, 1, 3 }, out);
    tk_tensor_release(r);
    return tko_nn_wrap(oc, s);
}

/* A 0-d tensor of dtype d holding v. */
static tk_status scalar(TkoOpCtx *oc, tk_dtype d, double v, tk_tensor **out)
{
    return tk_full(oc->ctx, d, 0, NULL, v, out);
}

/* where(allowed, 0, -inf) as dtype d. */
static tk_status allowed_to_bias(TkoOpCtx *oc, const tk_tensor *allowed, tk_dtype d, tk_tensor **out)
{
    tk_tensor *z = NULL, *ninf = NULL;
    tk_status s = scalar(oc, d, 0.0, &z);
    if (!s) s = scalar(oc, d, -INFINITY, &ninf);
    if (!s) s = tk_where(oc->ctx, allowed, z, ninf, out);
    tk_tensor_release(z);
    tk_tensor_release(ninf);
    return s;
}

/* Which keys each query may see by position: causal (when not left to the
 * kernel), the window and the key padding; NULL when all. diff = i + offset - j
 * with offset the past length, or nonpad - S per batch ([B, 1, 1, 1]). */
static tk_status positional_allowed(TkoOpCtx *oc, const AttnDims *d, bool causal, tk_tensor **out)
{
    *out = NULL;
    if (!causal && d->left < 0 && d->right < 0 && !d->nonpad) return TK_OK;
    tk_tensor *t[8] = { 0 }, *acc = NULL, *c = NULL;   /* i, j, i + offset, diff, nonpad [B,1,1,1], ... */
    tk_status s = tk_arange(oc->ctx, TK_DTYPE_I64, 0, (double)d->s, 1, &t[0]);
    if (!s) s = tk_reshape(oc->ctx, t[0], 2, (int64_t[]){ d->s, 1 }, &t[1]);
    tk_tensor_release(t[0]), t[0] = NULL;
    if (!s) s = tk_arange(oc->ctx, TK_DTYPE_I64, 0, (double)d->skv, 1, &t[0]);   /* j, [SKV] broadcasts as [1, SKV] */
    if (!s && d->nonpad) {
        if (!(s = tk_to_dtype(oc->ctx, d->nonpad, TK_DTYPE_I64, &t[6])))
            s = tk_reshape(oc->ctx, t[6], 4, (int64_t[]){ d->b, 1, 1, 1 }, &t[4]);
        if (!s) s = tk_binary_scalar(oc->ctx, TK_SUB, t[4], (double)d->s, &t[5]);   /* the per-batch offset */
        if (!s) s = tk_add(oc->ctx, t[1], t[5], &t[2]);
    } else if (!s) s = tk_binary_scalar(oc->ctx, TK_ADD, t[1], (double)d->past, &t[2]);
    if (!s) s = tk_sub(oc->ctx, t[2], t[0], &t[3]);
    if (!s && causal && !(s = tk_binary_scalar(oc->ctx, TK_GE, t[3], 0, &c))) s = tko_nn_and_into(oc, &acc, c), c = NULL;
    if (!s && d->left >= 0 && !(s = tk_binary_scalar(oc->ctx, TK_LE, t[3], (double)d->left, &c))) s = tko_nn_and_into(oc, &acc, c), c = NULL;
    if (!s && d->right >= 0 && !(s = tk_binary_scalar(oc->ctx, TK_GE, t[3], -(double)d->right, &c)))
        s = tko_nn_and_into(oc, &acc, c), c = NULL;
    if (!s && d->nonpad && !(s = tk_binary(oc->ctx, TK_LT, t[0], t[4], &c))) s = tko_nn_and_into(oc, &acc, c), c = NULL;
    tk_tensor_release(c);
    tko_nn_release(t, 8);
    if (s) {
        tk_tensor_release(acc);
        return s;
    }
    *out = acc;
    return TK_OK;
}

/* The additive bias of dtype bd ([.., S, SKV]) or NULL when nothing masks. */
static tk_status build_bias(TkoOpCtx *oc, const AttnDims *d, const tk_tensor *mask, bool causal_in_bias, tk_dtype bd,
                            tk_tensor **out)
{
    *out = NULL;
    tk_tensor *m = NULL, *pos = NULL, *posb = NULL;
    tk_status s = TK_OK;
    if (mask) {
        tk_tensor *f = NULL;
        if (tk_tensor_dtype(mask) == TK_DTYPE_BOOL) s = allowed_to_bias(oc, mask, bd, &f);
        else s = tk_to_dtype(oc->ctx, mask, bd, &f);
        int64_t short_by = d->skv - tk_tensor_shape(mask)[tk_tensor_ndim(mask) - 1];
        if (!s && short_by > 0) {   /* keys past the mask's end are masked */
            s = tk_pad(oc->ctx, f, (int64_t[]){ 0, short_by }, 2, TK_PAD_CONSTANT, -INFINITY, &m);
            tk_tensor_release(f);
        } else m = f;
    }
    if (!s) s = positional_allowed(oc, d, causal_in_bias, &pos);
    if (!s && pos) s = allowed_to_bias(oc, pos, bd, &posb);
    if (!s) {
        if (m && posb) s = tk_add(oc->ctx, m, posb, out);
        else *out = m ? tk_tensor_retain(m) : posb ? tk_tensor_retain(posb) : NULL;
    }
    tk_tensor_release(m), tk_tensor_release(pos), tk_tensor_release(posb);
    return s;
}

/* [B, HKV, SKV, D] with each head repeated H / HKV times: [B, H, SKV, D]. */
static tk_status repeat_heads(TkoOpCtx *oc, const tk_tensor *t, int64_t h, tk_tensor **out)
{
    const int64_t *sh = tk_tensor_shape(t);
    if (sh[1] == h) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return TK_OK;
    }
    tk_tensor *u = NULL, *e = NULL;
    tk_status s = tk_unsqueeze(oc->ctx, t, 2, &u);
    if (!s) s = tk_expand(oc->ctx, u, 5, (int64_t[]){ sh[0], sh[1], h / sh[1], sh[2], sh[3] }, &e);
    if (!s) s = tk_reshape(oc->ctx, e, 4, (int64_t[]){ sh[0], h, sh[2], sh[3] }, out);
    tk_tensor_release(u), tk_tensor_release(e);
    return s;
}

/* softmax(softcap(q·kᵀ·scale) + bias)·v from its parts, with the scores
 * output (qk_matmul_output) when wanted. q, k, v 4-d in the work dtype. */
static tk_status composed(TkoOpCtx *oc, const AttnDims *d, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v,
                          const tk_tensor *bias, double scale, double softcap, int64_t mode, tk_tensor **y, tk_tensor **qk_out)
{
    tk_context *ctx = oc->ctx;
    tk_tensor *t[16] = { 0 };
    tk_status s = repeat_heads(oc, k, d->hq, &t[0]);
    if (!s) s = repeat_heads(oc, v, d->hq, &t[1]);
    if (!s) s = tk_transpose(ctx, t[0], 2, 3, &t[2]);
    if (!s) s = tk_matmul(ctx, q, t[2], &t[3]);
    if (!s) s = tk_binary_scalar(ctx, TK_MUL, t[3], scale, &t[4]);
    tk_tensor *scores = t[4];
    if (!s && softcap > 0) {   /* softcap · tanh(scores / softcap) */
        if (!(s = tk_binary_scalar(ctx, TK_DIV, scores, softcap, &t[5])) && !(s = tk_unary(ctx, TK_TANH, t[5], &t[6])))
            s = tk_binary_scalar(ctx, TK_MUL, t[6], softcap, &t[7]);
        scores = t[7];
    }
    if (!s && qk_out && mode <= 1) *qk_out = tk_tensor_retain(scores);
    tk_tensor *biased = scores;
    if (!s && bias) s = tk_add(ctx, scores, bias, &t[8]), biased = t[8];
    if (!s && qk_out && mode == 2) *qk_out = tk_tensor_retain(biased);
    if (!s) s = tk_softmax(ctx, biased, -1, &t[9]);
    tk_tensor *p = t[9];
    if (!s && bias) {   /* a row whose bias is -inf everywhere attends to nothing: 0 */
        tk_reduce_opts ro = { .dims = (int[]){ -1 }, .ndims = 1, .keepdim = true };
        if (!(s = tk_reduce(ctx, TK_MAX, bias, &ro, &t[10])) && !(s = tk_binary_scalar(ctx, TK_EQ, t[10], -INFINITY, &t[11])) &&
            !(s = scalar(oc, tk_tensor_dtype(p), 0.0, &t[12])))
            s = tk_where(ctx, t[11], t[12], p, &t[13]);
        p = t[13];
    }
    if (!s && qk_out && mode == 3) *qk_out = tk_tensor_retain(p);
    if (!s) s = tk_matmul(ctx, p, t[1], y);
    tko_nn_release(t, 16);
    if (s && qk_out) tk_tensor_release(*qk_out), *qk_out = NULL;
    return s;
}

/* 4-d [B, H, S, Dv] back to the input's layout (3-d: [B, S, H·Dv]). */
static tk_status from_heads(TkoOpCtx *oc, const tk_tensor *y, bool three_d, tk_tensor **out)
{
    if (!three_d) return tk_contiguous(oc->ctx, y, out);
    const int64_t *sh = tk_tensor_shape(y);
    tk_tensor *p = NULL;
    tk_status s = tk_permute(oc->ctx, y, (int[]){ 0, 2, 1, 3 }, &p);
    if (!s) s = tk_reshape(oc->ctx, p, 3, (int64_t[]){ sh[0], sh[2], sh[1] * sh[3] }, out);
    tk_tensor_release(p);
    return s;
}

static bool wanted(const TkoOpCtx *oc, int o)
{
    return oc->nout > o && oc->node->outputs[o] != TKO_NO_VALUE;
}

tk_status tko_nn_run_attention(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    tk_context *ctx = oc->ctx;
    const tk_tensor *Q = oc->in[0], *K = oc->in[1], *V = oc->in[2];
    const tk_tensor *mask = oc->nin > 3 ? oc->in[3] : NULL, *pk = oc->nin > 4 ? oc->in[4] : NULL, *pv = oc->nin > 5 ? oc->in[5] : NULL;
    int rank = tk_tensor_ndim(Q);
    if ((rank != 3 && rank != 4) || tk_tensor_ndim(K) != rank || tk_tensor_ndim(V) != rank)
        return tko_fail(oc, TK_ERR_SHAPE, "Q, K, V are %d-d, %d-d, %d-d; all must be 3-d or 4-d", rank, tk_tensor_ndim(K),
                        tk_tensor_ndim(V));
    if (!pk != !pv) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "past_key and past_value must be given together");
    tk_dtype qd = tk_tensor_dtype(Q);
    if (!tk_dtype_is_float(qd)) return tko_fail(oc, TK_ERR_DTYPE, "Q is %s, needs a float type", tk_dtype_name(qd));
    AttnDims d = { .causal = tko_attr_int(n, "is_causal", 0) != 0, .left = tko_attr_int(n, "left_window_size", -1),
                   .right = tko_attr_int(n, "right_window_size", -1), .nonpad = oc->nin > 6 ? oc->in[6] : NULL };
    if (d.nonpad && pk) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "nonpad_kv_seqlen cannot be combined with past_key");
    int64_t mode = tko_attr_int(n, "qk_matmul_output_mode", 0);
    double softcap = tko_attr_float(n, "softcap", 0.0f);
    tk_tensor *t[16] = { 0 };   /* q4, k4, v4, present k, present v, bias, work q, k, v, y4, y, qk */
    tk_status s = TK_OK;
    if (rank == 3) {
        int64_t hq = tko_attr_int(n, "q_num_heads", 0), hkv = tko_attr_int(n, "kv_num_heads", 0);
        if ((s = to_heads(oc, Q, hq, "Q", &t[0])) || (s = to_heads(oc, K, hkv, "K", &t[1])) || (s = to_heads(oc, V, hkv, "V", &t[2])))
            goto done;
    } else t[0] = tk_tensor_retain((tk_tensor *)Q), t[1] = tk_tensor_retain((tk_tensor *)K), t[2] = tk_tensor_retain((tk_tensor *)V);
    if (pk) {
        const tk_tensor *kk[2] = { pk, t[1] }, *vv[2] = { pv, t[2] };
        if ((s = tk_cat(ctx, kk, 2, 2, &t[3])) || (s = tk_cat(ctx, vv, 2, 2, &t[4]))) goto done;
        d.past = tk_tensor_shape(pk)[2];
    } else t[3] = tk_tensor_retain(t[1]), t[4] = tk_tensor_retain(t[2]);
    const int64_t *qs = tk_tensor_shape(t[0]), *ks = tk_tensor_shape(t[3]), *vs = tk_tensor_shape(t[4]);
    d.b = qs[0], d.hq = qs[1], d.s = qs[2], d.hkv = ks[1], d.skv = ks[2];
    if (d.hkv < 1 || d.hq % d.hkv || vs[1] != d.hkv) {
        s = tko_fail(oc, TK_ERR_SHAPE, "%lld query heads cannot share %lld key / %lld value heads", (long long)d.hq,
                     (long long)d.hkv, (long long)vs[1]);
        goto done;
    }
    if (d.nonpad && tk_tensor_numel(d.nonpad) != d.b) {
        s = tko_fail(oc, TK_ERR_SHAPE, "nonpad_kv_seqlen has %lld entries for batch %lld", (long long)tk_tensor_numel(d.nonpad),
                     (long long)d.b);
        goto done;
    }
    double scale = tko_attr(n, "scale") ? tko_attr_float(n, "scale", 1.0f) : 1.0 / sqrt((double)qs[3]);
    bool want_qk = wanted(oc, 3);
    bool fast = softcap <= 0 && !want_qk && vs[3] == qs[3];
    /* the kernel's causal frontier is j <= i + SKV - S; ONNX's is j <= i + past */
    bool kernel_causal = fast && d.causal && !d.nonpad && d.past == d.skv - d.s;
    tk_dtype work = qd == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    if ((s = build_bias(oc, &d, mask, d.causal && !kernel_causal, fast ? TK_DTYPE_F32 : work, &t[5]))) goto done;
    if (fast) {
        tk_sdpa_opts o = { .causal = kernel_causal, .mask = t[5], .has_scale = true, .scale = scale };
        s = tk_sdpa(ctx, t[0], t[3], t[4], &o, &t[9]);
    } else {
        if ((s = tko_nn_to(oc, t[0], work, &t[6])) || (s = tko_nn_to(oc, t[3], work, &t[7])) || (s = tko_nn_to(oc, t[4], work, &t[8])))
            goto done;
        s = composed(oc, &d, t[6], t[7], t[8], t[5], scale, softcap, mode, &t[9], want_qk ? &t[11] : NULL);
    }
    if (s || (s = from_heads(oc, t[9], rank == 3, &oc->out[0])) || (s = tko_nn_as_dtype(oc, &oc->out[0], qd))) goto done;
    if (wanted(oc, 1) && ((s = tk_contiguous(ctx, t[3], &oc->out[1])) || (s = tko_nn_as_dtype(oc, &oc->out[1], qd)))) goto done;
    if (wanted(oc, 2) && ((s = tk_contiguous(ctx, t[4], &oc->out[2])) || (s = tko_nn_as_dtype(oc, &oc->out[2], tk_tensor_dtype(V)))))
        goto done;
    if (want_qk) {
        oc->out[3] = t[11], t[11] = NULL;
        s = tko_nn_as_dtype(oc, &oc->out[3], qd);
    }
done:
    tko_nn_release(t, 16);
    if (s) {
        tko_nn_release(oc->out, oc->nout);
        return tko_nn_wrap(oc, s);
    }
    return TK_OK;
}
