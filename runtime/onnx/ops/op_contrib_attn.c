/* op_contrib_attn.c — the contrib attention ops on tk_sdpa:
 *
 * MultiHeadAttention: query [B, S, D] (or packed QKV [B, S, N, 3, H]), key /
 * value [B, L, D] (or [B, N, L, H], or packed KV [B, L, N, 2, H]), optional
 * bias added to the projections, key_padding_mask, attention_bias,
 * past_key / past_value joined in front (present_key / present_value).
 * Attention: the same after one projection input · weights + bias, with
 * the past as one [2, B, N, P, H] tensor (present likewise).
 *
 * Masks follow ONNX Runtime's CPU kernels: a masked key (mask 0, past a 1-d
 * mask's end or before its start) gets mask_filter_value (-10000) added,
 * not -inf, so a row whose every key is masked is a softmax of its plain
 * scores as there; a key in the future (unidirectional) is left out
 * altogether (the kernel's causal frontier). The masks and attention_bias go into
 * one additive f32 bias for the kernel. A value head size unlike the query
 * head size (qkv_hidden_sizes) runs composed tk_matmul / tk_softmax.
 *
 * RotaryEmbedding (com.microsoft): the ONNX op's implementation
 * (op_nn_rotary.c) on the input as [B, N, S, H], its position_ids either
 * [B, S] or one offset (positions offset .. offset + S - 1). */
#include <math.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ shared pieces */

tk_status tko_contrib_heads_view(TkoOpCtx *oc, const tk_tensor *t, int64_t heads, const char *what, tk_tensor **out)
{
    const int64_t *sh = tk_tensor_shape(t);
    if (tk_tensor_ndim(t) != 3 || heads < 1 || sh[2] % heads)
        return tko_fail(oc, TK_ERR_SHAPE, "%s (%d-d) must be [batch, sequence, a multiple of %lld heads]", what, tk_tensor_ndim(t),
                        (long long)heads);
    tk_tensor *r = NULL;
    tk_status s = tk_reshape(oc->ctx, t, 4, (int64_t[]){ sh[0], sh[1], heads, sh[2] / heads }, &r);
    if (!s) s = tk_permute(oc->ctx, r, (int[]){ 0, 2, 1, 3 }, out);
    tk_tensor_release(r);
    return s;
}

tk_status tko_contrib_merge_heads(TkoOpCtx *oc, const tk_tensor *y, tk_tensor **out)
{
    const int64_t *sh = tk_tensor_shape(y);
    tk_tensor *p = NULL;
    tk_status s = tk_permute(oc->ctx, y, (int[]){ 0, 2, 1, 3 }, &p);
    if (!s) s = tk_reshape(oc->ctx, p, 3, (int64_t[]){ sh[0], sh[2], sh[1] * sh[3] }, out);
    tk_tensor_release(p);
    return s;
}

/* Which keys each query may see ([.., S, T] bools broadcastable to [B, N, S, T],
 * NULL when all): *by_mask from the mask (2-d [B, T] or 3-d [B, S, T] of
 * 0/1, 1-d [B] end positions or [2B] ends then starts), *by_order when
 * causal (j <= i + T - S). Two tensors, as ONNX Runtime adds the filter
 * value once for each. */
static tk_status allowed_keys(TkoOpCtx *oc, const tk_tensor *mask, bool causal, int64_t b, int64_t s_len, int64_t t_len,
                              tk_tensor **by_mask, tk_tensor **by_order)
{
    tk_context *ctx = oc->ctx;
    *by_mask = *by_order = NULL;
    tk_tensor *t[8] = { 0 }, *acc = NULL, *c = NULL;
    tk_status s = TK_OK;
    if (mask) {
        int md = tk_tensor_ndim(mask);
        const int64_t *ms = tk_tensor_shape(mask);
        if (md == 2 && ms[0] == b && ms[1] == t_len) {
            if (!(s = tk_binary_scalar(ctx, TK_NE, mask, 0, &t[0]))) s = tk_reshape(ctx, t[0], 4, (int64_t[]){ b, 1, 1, t_len }, &acc);
        } else if (md == 3 && ms[0] == b && ms[1] == s_len && ms[2] == t_len) {
            if (!(s = tk_binary_scalar(ctx, TK_NE, mask, 0, &t[0]))) s = tk_reshape(ctx, t[0], 4, (int64_t[]){ b, 1, s_len, t_len }, &acc);
        } else if (md == 1 && (ms[0] == b || ms[0] == 2 * b)) {
            /* j < end[b] (and j >= start[b]) */
            if ((s = tk_arange(ctx, TK_DTYPE_I64, 0, (double)t_len, 1, &t[1])) || (s = tk_to_dtype(ctx, mask, TK_DTYPE_I64, &t[2])) ||
                (s = tk_slice(ctx, t[2], 0, 0, b, 1, &t[3])) || (s = tk_reshape(ctx, t[3], 4, (int64_t[]){ b, 1, 1, 1 }, &t[4])) ||
                (s = tk_binary(ctx, TK_LT, t[1], t[4], &acc)))
                goto done;
            if (ms[0] == 2 * b) {
                if ((s = tk_slice(ctx, t[2], 0, b, 2 * b, 1, &t[5])) || (s = tk_reshape(ctx, t[5], 4, (int64_t[]){ b, 1, 1, 1 }, &t[6])) ||
                    (s = tk_binary(ctx, TK_GE, t[1], t[6], &c)))
                    goto done;
                s = tko_nn_and_into(oc, &acc, c), c = NULL;
            }
        } else {
            s = tko_fail(oc, TK_ERR_SHAPE, "the mask is %d-d; it must be [B=%lld], [2B], [B, T=%lld] or [B, S=%lld, T]", md, (long long)b,
                         (long long)t_len, (long long)s_len);
            goto done;
        }
        if (s) goto done;
    }
    if (causal) {
        tko_nn_release(t, 8);
        if ((s = tk_arange(ctx, TK_DTYPE_I64, 0, (double)s_len, 1, &t[0])) || (s = tk_reshape(ctx, t[0], 2, (int64_t[]){ s_len, 1 }, &t[1])) ||
            (s = tk_binary_scalar(ctx, TK_ADD, t[1], (double)(t_len - s_len), &t[2])) ||
            (s = tk_arange(ctx, TK_DTYPE_I64, 0, (double)t_len, 1, &t[3])) || (s = tk_binary(ctx, TK_LE, t[3], t[2], by_order)))
            goto done;
    }
done:
    tk_tensor_release(c);
    tko_nn_release(t, 8);
    if (s) {
        tk_tensor_release(acc);
        tk_tensor_release(*by_order), *by_order = NULL;
    } else *by_mask = acc;
    return s;
}

/* The additive f32 bias: filter where by_mask is false, -inf where
 * by_order is false, plus the attention_bias [B|1, N|1, S, T]; NULL when none. */
static tk_status build_bias(TkoOpCtx *oc, const tk_tensor *by_mask, const tk_tensor *by_order, const tk_tensor *attn_bias, double filter,
                            tk_tensor **out)
{
    tk_context *ctx = oc->ctx;
    *out = NULL;
    tk_tensor *t[4] = { 0 }, *acc = NULL;
    const tk_tensor *allowed[2] = { by_mask, by_order };
    tk_status s = tk_full(ctx, TK_DTYPE_F32, 0, NULL, 0.0, &t[0]);
    if (!s) s = tk_full(ctx, TK_DTYPE_F32, 0, NULL, filter, &t[1]);
    for (int i = 0; i < 3 && !s; i++) {
        tk_tensor *term = NULL, *sum = NULL;
        if (i == 1 && allowed[1] && !(s = tk_full(ctx, TK_DTYPE_F32, 0, NULL, -INFINITY, &t[2])))
            s = tk_where(ctx, allowed[1], t[0], t[2], &term);
        else if (i == 0 && allowed[0]) s = tk_where(ctx, allowed[0], t[0], t[1], &term);
        else if (i == 2 && attn_bias) s = tko_nn_to(oc, attn_bias, TK_DTYPE_F32, &term);
        if (s || !term) continue;
        if (acc && !(s = tk_add(ctx, acc, term, &sum))) {
            tk_tensor_release(acc);
            acc = sum;
        } else if (!acc) acc = tk_tensor_retain(term);
        tk_tensor_release(term);
    }
    tko_nn_release(t, 4);
    if (s) tk_tensor_release(acc);
    else *out = acc;
    return s;
}

/* y [B, S, N·Hv] = softmax(q·kᵀ·scale + mask bias, causal)·v for q [B, N, S, H],
 * k [B, N, T, H], v [B, N, T, Hv] (work dtype); causal is the kernel's
 * bottom-right frontier j <= i + T - S. tk_sdpa when Hv == H, else composed
 * (the frontier then joins the bias as -inf). */
static tk_status attend(TkoOpCtx *oc, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_tensor *by_mask,
                        const tk_tensor *by_order, const tk_tensor *attn_bias, double filter, double scale, tk_tensor **y)
{
    tk_context *ctx = oc->ctx;
    tk_tensor *t[8] = { 0 };
    tk_status s;
    if (tk_tensor_shape(v)[3] == tk_tensor_shape(q)[3]) {
        if (!(s = build_bias(oc, by_mask, NULL, attn_bias, filter, &t[6]))) {
            tk_sdpa_opts o = { .causal = by_order != NULL, .mask = t[6], .has_scale = true, .scale = scale };
            s = tk_sdpa(ctx, q, k, v, &o, &t[0]);
        }
    } else {
        if (!(s = build_bias(oc, by_mask, by_order, attn_bias, filter, &t[6])) && !(s = tk_transpose(ctx, k, 2, 3, &t[1])) &&
            !(s = tk_matmul(ctx, q, t[1], &t[2])) && !(s = tk_binary_scalar(ctx, TK_MUL, t[2], scale, &t[3])) &&
            !(s = t[6] ? tk_add(ctx, t[3], t[6], &t[4]) : TK_OK) && !(s = tk_softmax(ctx, t[6] ? t[4] : t[3], -1, &t[5])))
            s = tk_matmul(ctx, t[5], v, &t[0]);
    }
    if (!s) s = tko_contrib_merge_heads(oc, t[0], y);
    tko_nn_release(t, 8);
    return s;
}

static bool given(const TkoOpCtx *oc, int i)
{
    return oc->nin > i && oc->in[i];
}

/* ------------------------------------------------------------ MultiHeadAttention */

const char *tko_contrib_check_mha(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr_int(n, "num_heads", 0) < 1) return tko_nn_why(why, len, "num_heads must be >= 1");
    if (n->nout > 3) return tko_nn_why(why, len, "the attention-probabilities output (output 3) is not supported");
    return NULL;
}

/* t's slice [from, from + width) of its last dim (a view). */
static tk_status last_slice(TkoOpCtx *oc, const tk_tensor *t, int64_t from, int64_t width, tk_tensor **out)
{
    return tk_slice(oc->ctx, t, -1, from, from + width, 1, out);
}

/* Packed [B, L, N, c, H] part i as [B, N, L, H]. */
static tk_status unpack(TkoOpCtx *oc, const tk_tensor *t, int i, tk_tensor **out)
{
    tk_tensor *sel = NULL;
    tk_status s = tk_select(oc->ctx, t, 3, i, &sel);
    if (!s) s = tk_permute(oc->ctx, sel, (int[]){ 0, 2, 1, 3 }, out);
    tk_tensor_release(sel);
    return s;
}

tk_status tko_contrib_run_mha(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const TkoNode *n = oc->node;
    const tk_tensor *query = oc->in[0], *key = given(oc, 1) ? oc->in[1] : NULL, *value = given(oc, 2) ? oc->in[2] : NULL;
    const tk_tensor *bias = given(oc, 3) ? oc->in[3] : NULL, *mask = given(oc, 4) ? oc->in[4] : NULL;
    const tk_tensor *ab = given(oc, 5) ? oc->in[5] : NULL, *pk = given(oc, 6) ? oc->in[6] : NULL, *pv = given(oc, 7) ? oc->in[7] : NULL;
    int64_t heads = tko_attr_int(n, "num_heads", 0);
    tk_dtype d = tk_tensor_dtype(query), w = d == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "query is %s; it must be a float type", tk_dtype_name(d));
    if (!pk != !pv) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "past_key and past_value must be given together");
    tk_tensor *t[24] = { 0 };   /* 0-2 q k v [B,N,*,H]; 3-5 biased 3-d; 6-8 bias parts; 9,10 present; 11-13 work; 14 allowed; 15 bias; 16 y */
    tk_status s = TK_OK;
    int qd = tk_tensor_ndim(query), kd = key ? tk_tensor_ndim(key) : 0;
    if (qd == 5) {   /* packed QKV [B, S, N, 3, H] */
        if (key || value || bias) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "a packed QKV query takes no key, value or bias");
            goto done;
        }
        if ((s = unpack(oc, query, 0, &t[0])) || (s = unpack(oc, query, 1, &t[1])) || (s = unpack(oc, query, 2, &t[2]))) goto done;
    } else {
        if (!key) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "key is missing (needed unless query is packed QKV)");
            goto done;
        }
        int64_t dq = tk_tensor_shape(query)[qd - 1];
        const tk_tensor *q3 = query;
        if (bias) {
            if (kd != 3 || !value) {
                s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "bias needs 3-d key and value (%d-d key given)", kd);
                goto done;
            }
            int64_t dk = tk_tensor_shape(key)[2], dv = tk_tensor_shape(value)[2];
            if (tk_tensor_numel(bias) != dq + dk + dv) {
                s = tko_fail(oc, TK_ERR_SHAPE, "bias has %lld elements; it must be D + D + Dv = %lld", (long long)tk_tensor_numel(bias),
                             (long long)(dq + dk + dv));
                goto done;
            }
            if ((s = last_slice(oc, bias, 0, dq, &t[6])) || (s = last_slice(oc, bias, dq, dk, &t[7])) ||
                (s = last_slice(oc, bias, dq + dk, dv, &t[8])) || (s = tk_add(ctx, query, t[6], &t[3])) || (s = tk_add(ctx, key, t[7], &t[4])) ||
                (s = tk_add(ctx, value, t[8], &t[5])))
                goto done;
            q3 = t[3], key = t[4], value = t[5];
        }
        if ((s = tko_contrib_heads_view(oc, q3, heads, "query", &t[0]))) goto done;
        if (kd == 5) {   /* packed KV [B, L, N, 2, H] */
            if (value) {
                s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "a packed KV key takes no value");
                goto done;
            }
            if ((s = unpack(oc, key, 0, &t[1])) || (s = unpack(oc, key, 1, &t[2]))) goto done;
        } else if (!value) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "value is missing");
            goto done;
        } else if (kd == 4 && tk_tensor_ndim(value) == 4) {   /* already [B, N, L, H] */
            if (pk) {
                s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "past_key cannot be combined with 4-d (BNSH) key and value");
                goto done;
            }
            t[1] = tk_tensor_retain((tk_tensor *)key), t[2] = tk_tensor_retain((tk_tensor *)value);
        } else if ((s = tko_contrib_heads_view(oc, key, heads, "key", &t[1])) || (s = tko_contrib_heads_view(oc, value, heads, "value", &t[2])))
            goto done;
    }
    if (pk) {
        const tk_tensor *kk[2] = { pk, t[1] }, *vv[2] = { pv, t[2] };
        if ((s = tk_cat(ctx, kk, 2, 2, &t[9])) || (s = tk_cat(ctx, vv, 2, 2, &t[10]))) goto done;
    } else t[9] = tk_tensor_retain(t[1]), t[10] = tk_tensor_retain(t[2]);
    const int64_t *qs = tk_tensor_shape(t[0]), *ks = tk_tensor_shape(t[9]), *vs = tk_tensor_shape(t[10]);
    if (ks[0] != qs[0] || ks[1] != qs[1] || ks[3] != qs[3] || vs[0] != qs[0] || vs[1] != qs[1] || vs[2] != ks[2]) {
        s = tko_fail(oc, TK_ERR_SHAPE, "query [B=%lld, N=%lld, S, H=%lld] and key/value [%lld, %lld, %lld, %lld] / [%lld, %lld, %lld, %lld] do not fit",
                     (long long)qs[0], (long long)qs[1], (long long)qs[3], (long long)ks[0], (long long)ks[1], (long long)ks[2],
                     (long long)ks[3], (long long)vs[0], (long long)vs[1], (long long)vs[2], (long long)vs[3]);
        goto done;
    }
    double scale = tko_attr_float(n, "scale", 0.0f);
    if (scale == 0.0) scale = 1.0 / sqrt((double)qs[3]);
    double filter = tko_attr_float(n, "mask_filter_value", -10000.0f);
    if ((s = allowed_keys(oc, mask, tko_attr_int(n, "unidirectional", 0) != 0, qs[0], qs[2], ks[2], &t[14], &t[17])))
        goto done;
    if ((s = tko_nn_to(oc, t[0], w, &t[11])) || (s = tko_nn_to(oc, t[9], w, &t[12])) || (s = tko_nn_to(oc, t[10], w, &t[13])) ||
        (s = attend(oc, t[11], t[12], t[13], t[14], t[17], ab, filter, scale, &oc->out[0])) || (s = tko_nn_as_dtype(oc, &oc->out[0], d)))
        goto done;
    if (tko_contrib_wanted(oc, 1) && ((s = tk_contiguous(ctx, t[9], &oc->out[1])) || (s = tko_nn_as_dtype(oc, &oc->out[1], d)))) goto done;
    if (tko_contrib_wanted(oc, 2)) {
        if (!(s = tk_contiguous(ctx, t[10], &oc->out[2]))) s = tko_nn_as_dtype(oc, &oc->out[2], d);
    }
done:
    tko_nn_release(t, 24);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ Attention */

const char *tko_contrib_check_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr_int(n, "num_heads", 0) < 1) return tko_nn_why(why, len, "num_heads must be >= 1");
    if (tko_attr_int(n, "do_rotary", 0)) return tko_nn_why(why, len, "do_rotary=1 is not supported");
    if (tko_attr_int(n, "past_present_share_buffer", 0)) return tko_nn_why(why, len, "past_present_share_buffer=1 is not supported");
    if (n->nin > 6 && n->inputs[6] != TKO_NO_VALUE) return tko_nn_why(why, len, "past_sequence_length (input 6) is not supported");
    int cnt = 0;
    const int64_t *sizes = tko_attr_ints(n, "qkv_hidden_sizes", &cnt);
    if (sizes && cnt != 3) return tko_nn_why(why, len, "qkv_hidden_sizes has %d values; it needs 3", cnt);
    if (sizes && sizes[0] != sizes[1]) return tko_nn_why(why, len, "qkv_hidden_sizes: Q and K sizes differ");
    return NULL;
}

tk_status tko_contrib_run_attention(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const TkoNode *n = oc->node;
    const tk_tensor *x = oc->in[0], *wts = given(oc, 1) ? oc->in[1] : NULL, *bias = given(oc, 2) ? oc->in[2] : NULL;
    const tk_tensor *mask = given(oc, 3) ? oc->in[3] : NULL, *past = given(oc, 4) ? oc->in[4] : NULL, *ab = given(oc, 5) ? oc->in[5] : NULL;
    int64_t heads = tko_attr_int(n, "num_heads", 0);
    tk_dtype d = tk_tensor_dtype(x), w = d == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "input is %s; it must be a float type", tk_dtype_name(d));
    if (!wts || tk_tensor_ndim(x) != 3 || tk_tensor_ndim(wts) != 2 || tk_tensor_shape(wts)[0] != tk_tensor_shape(x)[2])
        return tko_fail(oc, TK_ERR_SHAPE, "input must be [B, S, Din] and weights [Din, Dq + Dk + Dv]");
    int64_t total = tk_tensor_shape(wts)[1], dq, dv;
    int cnt = 0;
    const int64_t *sizes = tko_attr_ints(n, "qkv_hidden_sizes", &cnt);
    if (sizes) dq = sizes[0], dv = sizes[2];
    else dq = dv = total / 3;
    if (dq + dq + dv != total || dq % heads || dv % heads)
        return tko_fail(oc, TK_ERR_SHAPE, "weights' width %lld is not Dq + Dk + Dv = %lld + %lld + %lld, each a multiple of %lld heads",
                        (long long)total, (long long)dq, (long long)dq, (long long)dv, (long long)heads);
    tk_tensor *t[24] = { 0 };   /* 0-2 xw, x·w, +bias; 3-5 q k v 3-d; 6-8 heads; 9,10 k v with past; 11-13 work; 14 allowed; 15 bias; 16-19 present parts */
    tk_status s = TK_OK;
    if ((s = tko_nn_to(oc, wts, d, &t[0])) || (s = tk_matmul(ctx, x, t[0], &t[1]))) goto done;
    tk_tensor *proj = t[1];
    if (bias && !(s = tk_add(ctx, t[1], bias, &t[2]))) proj = t[2];
    if (s || (s = last_slice(oc, proj, 0, dq, &t[3])) || (s = last_slice(oc, proj, dq, dq, &t[4])) ||
        (s = last_slice(oc, proj, 2 * dq, dv, &t[5])) || (s = tko_contrib_heads_view(oc, t[3], heads, "Q", &t[6])) ||
        (s = tko_contrib_heads_view(oc, t[4], heads, "K", &t[7])) || (s = tko_contrib_heads_view(oc, t[5], heads, "V", &t[8])))
        goto done;
    if (past) {
        const int64_t *ps = tk_tensor_shape(past);
        if (tk_tensor_ndim(past) != 5 || ps[0] != 2 || dq != dv) {
            s = tko_fail(oc, TK_ERR_SHAPE, "past must be [2, B, N, P, H] (%d-d given), with equal Q and V sizes", tk_tensor_ndim(past));
            goto done;
        }
        tk_tensor *pk = NULL, *pv = NULL;
        if (!(s = tk_select(ctx, past, 0, 0, &pk)) && !(s = tk_select(ctx, past, 0, 1, &pv))) {
            const tk_tensor *kk[2] = { pk, t[7] }, *vv[2] = { pv, t[8] };
            if (!(s = tk_cat(ctx, kk, 2, 2, &t[9]))) s = tk_cat(ctx, vv, 2, 2, &t[10]);
        }
        tk_tensor_release(pk), tk_tensor_release(pv);
        if (s) goto done;
    } else t[9] = tk_tensor_retain(t[7]), t[10] = tk_tensor_retain(t[8]);
    const int64_t *qs = tk_tensor_shape(t[6]), *ks = tk_tensor_shape(t[9]);
    double scale = tko_attr_float(n, "scale", 0.0f);
    if (scale == 0.0) scale = 1.0 / sqrt((double)qs[3]);
    double filter = tko_attr_float(n, "mask_filter_value", -10000.0f);
    if ((s = allowed_keys(oc, mask, tko_attr_int(n, "unidirectional", 0) != 0, qs[0], qs[2], ks[2], &t[14], &t[17])))
        goto done;
    if ((s = tko_nn_to(oc, t[6], w, &t[11])) || (s = tko_nn_to(oc, t[9], w, &t[12])) || (s = tko_nn_to(oc, t[10], w, &t[13])) ||
        (s = attend(oc, t[11], t[12], t[13], t[14], t[17], ab, filter, scale, &oc->out[0])) || (s = tko_nn_as_dtype(oc, &oc->out[0], d)))
        goto done;
    if (tko_contrib_wanted(oc, 1)) {   /* present [2, B, N, T, H] */
        if (dq != dv) {
            s = tko_fail(oc, TK_ERR_SHAPE, "present needs equal K and V sizes (%lld, %lld)", (long long)dq, (long long)dv);
            goto done;
        }
        const tk_tensor *kv[2] = { t[9], t[10] };
        if (!(s = tk_stack(ctx, kv, 2, 0, &oc->out[1]))) s = tko_nn_as_dtype(oc, &oc->out[1], d);
    }
done:
    tko_nn_release(t, 24);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ RotaryEmbedding */

const char *tko_contrib_check_rotary(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (tko_attr_int(n, "is_packed_batching", 0)) return tko_nn_why(why, len, "is_packed_batching=1 is not supported");
    return NULL;
}

/* Inputs: input [B, S, D] or [B, N, S, H], position_ids [B, S] or [1]
 * (an offset), cos_cache and sin_cache [max_position, R/2]. */
tk_status tko_contrib_run_rotary(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0], *pos = oc->in[1], *cosc = oc->in[2];
    int rank = tk_tensor_ndim(x);
    if (rank != 3 && rank != 4) return tko_fail(oc, TK_ERR_SHAPE, "input is %d-d; it must be 3-d or 4-d", rank);
    if (tk_tensor_ndim(cosc) != 2) return tko_fail(oc, TK_ERR_SHAPE, "cos_cache is %d-d; it must be [max_position, R/2]", tk_tensor_ndim(cosc));
    const int64_t *xs = tk_tensor_shape(x);
    int64_t b = xs[0], sl = rank == 3 ? xs[1] : xs[2];
    int64_t heads = tko_attr_int(oc->node, "num_heads", 0), rdim = tko_attr_int(oc->node, "rotary_embedding_dim", 0);
    tk_tensor *t[8] = { 0 }, *y = NULL;
    tk_status s = TK_OK;
    if (rank == 3) {
        /* head size: the rotary dim when given without num_heads, else the caches' */
        if (heads < 1) {
            int64_t hs = rdim > 0 ? rdim : 2 * tk_tensor_shape(cosc)[1];
            heads = hs > 0 && xs[2] % hs == 0 ? xs[2] / hs : 0;
        }
        if ((s = tko_contrib_heads_view(oc, x, heads, "input", &t[0]))) goto done;
    } else t[0] = tk_tensor_retain((tk_tensor *)x);
    if (tk_tensor_numel(pos) == 1 && !(tk_tensor_ndim(pos) == 2 && b == 1 && sl == 1)) {   /* an offset */
        double off;
        if ((s = tko_input_scalar(oc, 1, &off)) || (s = tk_arange(ctx, TK_DTYPE_I64, off, off + (double)sl, 1, &t[1])) ||
            (s = tk_expand(ctx, t[1], 2, (int64_t[]){ b, sl }, &t[2])))
            goto done;
    } else if (tk_tensor_ndim(pos) != 2 || tk_tensor_shape(pos)[0] != b || tk_tensor_shape(pos)[1] != sl) {
        s = tko_fail(oc, TK_ERR_SHAPE, "position_ids must be [B=%lld, S=%lld] or one offset", (long long)b, (long long)sl);
        goto done;
    } else t[2] = tk_tensor_retain((tk_tensor *)pos);
    /* the ONNX op's rows read X, cos_cache, sin_cache, position_ids and the same attribute names */
    tk_tensor *in[4] = { t[0], oc->in[2], oc->in[3], t[2] };
    TkoOpCtx sub = *oc;
    sub.in = in, sub.nin = 4, sub.out = &y, sub.nout = 1;
    if ((s = tko_nn_run_rotary(&sub))) goto done;
    if (rank == 3) {
        if (!(s = tk_permute(ctx, y, (int[]){ 0, 2, 1, 3 }, &t[3]))) s = tk_reshape(ctx, t[3], 3, xs, &oc->out[0]);
    } else oc->out[0] = y, y = NULL;
done:
    tk_tensor_release(y);
    tko_nn_release(t, 8);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}
