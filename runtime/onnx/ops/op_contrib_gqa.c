/* op_contrib_gqa.c — GroupQueryAttention (com.microsoft), the attention of
 * the decoder models ONNX Runtime's generate() builder writes, on tk_sdpa.
 *
 * query [B, S, N·H] (or packed QKV [B, S, (N + 2·KV)·H] without key and
 * value), key / value [B, S, KV·H], past_key / past_value [B, KV, P, H]
 * (a buffer: batch b's valid past is its first seqlens_k[b] + 1 - S rows),
 * seqlens_k [B] (each batch's total length - 1), total_sequence_length.
 * Each batch attends causally over its valid past and the S new keys (the
 * kernel's bottom-right causal frontier is exactly that); present_* hold
 * the same keys followed by zeros up to max(P, total_sequence_length), as
 * ONNX Runtime writes them. do_rotary rotates q and k first (the ONNX
 * RotaryEmbedding implementation, positions past + 0 .. S-1). The batches
 * run one after another (their past lengths differ). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

#define GQA_MAX_BATCH 1024

const char *tko_contrib_check_gqa(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t heads = tko_attr_int(n, "num_heads", 0), kv = tko_attr_int(n, "kv_num_heads", 0);
    if (heads < 1 || kv < 1 || heads % kv) return tko_nn_why(why, len, "num_heads %lld must be a multiple of kv_num_heads %lld (both >= 1)",
                                                             (long long)heads, (long long)kv);
    if (tko_attr_int(n, "local_window_size", -1) != -1) return tko_nn_why(why, len, "local_window_size is not supported");
    if (tko_attr_float(n, "softcap", 0.0f) != 0.0f) return tko_nn_why(why, len, "softcap is not supported");
    if (tko_attr_int(n, "smooth_softmax", 0)) return tko_nn_why(why, len, "smooth_softmax is not supported");
    if (tko_attr_int(n, "rotary_interleaved", 0)) return tko_nn_why(why, len, "rotary_interleaved=1 is not supported");
    if (tko_attr_int(n, "qk_output", 0)) return tko_nn_why(why, len, "qk_output is not supported");
    if (tko_attr_int(n, "do_rotary", 0) && (n->nin < 9 || n->inputs[7] == TKO_NO_VALUE || n->inputs[8] == TKO_NO_VALUE))
        return tko_nn_why(why, len, "do_rotary needs cos_cache and sin_cache (inputs 7, 8)");
    if (n->nout > 3) return tko_nn_why(why, len, "output 3 (the attention scores) is not supported");
    return NULL;
}

/* q and k rotated in place of *q and *k ([B, heads, S, H]) at positions pos [B, S]. */
static tk_status rotate(TkoOpCtx *oc, tk_tensor **t, const tk_tensor *pos)
{
    tk_tensor *in[4] = { *t, oc->in[7], oc->in[8], (tk_tensor *)pos }, *y = NULL;
    TkoOpCtx sub = *oc;
    sub.in = in, sub.nin = 4, sub.out = &y, sub.nout = 1;
    tk_status s = tko_nn_run_rotary(&sub);
    if (s) return s;
    tk_tensor_release(*t);
    *t = y;
    return TK_OK;
}

tk_status tko_contrib_run_gqa(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const TkoNode *n = oc->node;
    const tk_tensor *query = oc->in[0], *key = oc->nin > 1 ? oc->in[1] : NULL, *value = oc->nin > 2 ? oc->in[2] : NULL;
    const tk_tensor *pk = oc->nin > 3 ? oc->in[3] : NULL, *pv = oc->nin > 4 ? oc->in[4] : NULL;
    int64_t heads = tko_attr_int(n, "num_heads", 0), kvh = tko_attr_int(n, "kv_num_heads", 0);
    tk_dtype d = tk_tensor_dtype(query), w = d == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "query is %s; it must be a float type", tk_dtype_name(d));
    if (tk_tensor_ndim(query) != 3) return tko_fail(oc, TK_ERR_SHAPE, "query is %d-d; it must be [B, S, hidden]", tk_tensor_ndim(query));
    if (!key != !value || !pk != !pv)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "key and value, and past_key and past_value, must be given together");
    int64_t seqlens[GQA_MAX_BATCH];
    int nb = 0;
    double total_d = 0;
    tk_status s = tko_input_ints(oc, 5, seqlens, GQA_MAX_BATCH, &nb);
    if (!s) s = tko_input_scalar(oc, 6, &total_d);
    if (s) return s;
    int64_t b = tk_tensor_shape(query)[0], sl = tk_tensor_shape(query)[1], total = (int64_t)total_d;
    if (nb != b) return tko_fail(oc, TK_ERR_SHAPE, "seqlens_k has %d entries for batch %lld", nb, (long long)b);
    tk_tensor *t[16] = { 0 };   /* 0-2 q k v 3-d; 3-5 q k v heads (work dtype); 6, 7 past (work); 8 pos; 9, 10 y; 11 present k, 12 v */
    tk_tensor **per = calloc((size_t)(b ? b : 1) * 3, sizeof *per);   /* y, present k, present v per batch */
    tk_tensor *tmp[8] = { 0 };
    if (!per) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld batches", (long long)b);
    if (!key) {   /* packed QKV */
        int64_t width = tk_tensor_shape(query)[2], hs = width / (heads + 2 * kvh);
        if (hs * (heads + 2 * kvh) != width) {
            s = tko_fail(oc, TK_ERR_SHAPE, "packed QKV width %lld is not (num_heads + 2 kv_num_heads) · head size", (long long)width);
            goto done;
        }
        if ((s = tk_slice(ctx, query, 2, 0, heads * hs, 1, &t[0])) || (s = tk_slice(ctx, query, 2, heads * hs, (heads + kvh) * hs, 1, &t[1])) ||
            (s = tk_slice(ctx, query, 2, (heads + kvh) * hs, width, 1, &t[2])))
            goto done;
    } else t[0] = tk_tensor_retain((tk_tensor *)query), t[1] = tk_tensor_retain((tk_tensor *)key), t[2] = tk_tensor_retain((tk_tensor *)value);
    if ((s = tko_contrib_heads_view(oc, t[0], heads, "query", &tmp[0])) || (s = tko_contrib_heads_view(oc, t[1], kvh, "key", &tmp[1])) ||
        (s = tko_contrib_heads_view(oc, t[2], kvh, "value", &tmp[2])) || (s = tko_nn_to(oc, tmp[0], w, &t[3])) ||
        (s = tko_nn_to(oc, tmp[1], w, &t[4])) || (s = tko_nn_to(oc, tmp[2], w, &t[5])))
        goto done;
    int64_t hs = tk_tensor_shape(t[3])[3], past = pk ? tk_tensor_shape(pk)[2] : 0;
    const int64_t *ks = tk_tensor_shape(t[4]);
    if (ks[0] != b || ks[2] != sl || ks[3] != hs || tk_tensor_shape(t[5])[3] != hs) {
        s = tko_fail(oc, TK_ERR_SHAPE, "key and value must be [B=%lld, S=%lld, %lld heads of %lld]", (long long)b, (long long)sl,
                     (long long)kvh, (long long)hs);
        goto done;
    }
    if (pk) {
        const int64_t *ps = tk_tensor_shape(pk);
        if (tk_tensor_ndim(pk) != 4 || ps[0] != b || ps[1] != kvh || ps[3] != hs || tk_tensor_ndim(pv) != 4 ||
            memcmp(ps, tk_tensor_shape(pv), 4 * sizeof *ps)) {
            s = tko_fail(oc, TK_ERR_SHAPE, "past_key and past_value must both be [B=%lld, %lld, P, %lld]", (long long)b, (long long)kvh,
                         (long long)hs);
            goto done;
        }
        if ((s = tko_nn_to(oc, pk, w, &t[6])) || (s = tko_nn_to(oc, pv, w, &t[7]))) goto done;
    }
    int64_t present_len = past > total ? past : total, pos[GQA_MAX_BATCH] = { 0 };
    for (int64_t i = 0; i < b; i++) {
        pos[i] = seqlens[i] + 1 - sl;   /* batch i's valid past length */
        if (pos[i] < 0 || pos[i] > past || pos[i] + sl > present_len) {
            s = tko_fail(oc, TK_ERR_SHAPE, "seqlens_k[%lld] = %lld does not fit %lld new tokens after a past of %lld (padded prompts are not supported)",
                         (long long)i, (long long)seqlens[i], (long long)sl, (long long)past);
            goto done;
        }
    }
    if (tko_attr_int(n, "do_rotary", 0)) {   /* positions past_b + 0 .. S-1 */
        int64_t *p = malloc((size_t)(b * sl > 0 ? b * sl : 1) * sizeof *p);
        if (!p) {
            s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for position ids");
            goto done;
        }
        for (int64_t i = 0; i < b; i++)
            for (int64_t j = 0; j < sl; j++) p[i * sl + j] = pos[i] + j;
        s = tk_from_data(ctx, p, TK_DTYPE_I64, 2, (int64_t[]){ b, sl }, &t[8]);
        free(p);
        if (s || (s = rotate(oc, &t[3], t[8])) || (s = rotate(oc, &t[4], t[8]))) goto done;
    }
    double scale = tko_attr_float(n, "scale", 0.0f);
    if (scale == 0.0) scale = 1.0 / sqrt((double)hs);
    for (int64_t i = 0; i < b && !s; i++) {
        tk_tensor *u[10] = { 0 };   /* q, k new, v new, past k, past v, k, v */
        if (!(s = tk_slice(ctx, t[3], 0, i, i + 1, 1, &u[0])) && !(s = tk_slice(ctx, t[4], 0, i, i + 1, 1, &u[1])) &&
            !(s = tk_slice(ctx, t[5], 0, i, i + 1, 1, &u[2]))) {
            if (pos[i] > 0) {
                tk_tensor *pb[2] = { 0 };
                if (!(s = tk_slice(ctx, t[6], 0, i, i + 1, 1, &pb[0])) && !(s = tk_slice(ctx, pb[0], 2, 0, pos[i], 1, &u[3])) &&
                    !(s = tk_slice(ctx, t[7], 0, i, i + 1, 1, &pb[1])) && !(s = tk_slice(ctx, pb[1], 2, 0, pos[i], 1, &u[4]))) {
                    const tk_tensor *kk[2] = { u[3], u[1] }, *vv[2] = { u[4], u[2] };
                    if (!(s = tk_cat(ctx, kk, 2, 2, &u[5]))) s = tk_cat(ctx, vv, 2, 2, &u[6]);
                }
                tko_nn_release(pb, 2);
            } else u[5] = tk_tensor_retain(u[1]), u[6] = tk_tensor_retain(u[2]);
        }
        if (!s) {
            tk_sdpa_opts o = { .causal = true, .has_scale = true, .scale = scale };
            s = tk_sdpa(ctx, u[0], u[5], u[6], &o, &per[i * 3]);
        }
        int64_t extra = present_len - pos[i] - sl;
        if (!s) s = tk_pad(ctx, u[5], (int64_t[]){ 0, 0, 0, extra }, 4, TK_PAD_CONSTANT, 0.0, &per[i * 3 + 1]);
        if (!s) s = tk_pad(ctx, u[6], (int64_t[]){ 0, 0, 0, extra }, 4, TK_PAD_CONSTANT, 0.0, &per[i * 3 + 2]);
        tko_nn_release(u, 10);
    }
    if (s) goto done;
    for (int o = 0; o < 3; o++) {
        if (o > 0 && !tko_contrib_wanted(oc, o)) continue;
        const tk_tensor **parts = malloc((size_t)b * sizeof *parts);
        if (!parts) {
            s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld batches", (long long)b);
            goto done;
        }
        for (int64_t i = 0; i < b; i++) parts[i] = per[i * 3 + o];
        tk_tensor *joined = NULL;
        s = tk_cat(ctx, parts, (int)b, 0, &joined);
        free(parts);
        if (!s) s = o == 0 ? tko_contrib_merge_heads(oc, joined, &oc->out[0]) : tk_contiguous(ctx, joined, &oc->out[o]);
        tk_tensor_release(joined);
        if (s || (s = tko_nn_as_dtype(oc, &oc->out[o], d))) goto done;
    }
done:
    tko_nn_release(t, 16);
    tko_nn_release(tmp, 8);
    if (per) tko_nn_release(per, (int)(b ? b : 1) * 3);
    free(per);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}
