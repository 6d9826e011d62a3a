/* op_contrib_norm.c — the contrib layer norms: SkipLayerNormalization and
 * SkipSimplifiedLayerNormalization (input + skip + bias, normalised over
 * the last dim), SimplifiedLayerNormalization (RMS norm; ONNX Runtime
 * registers it in the ONNX domain) and EmbedLayerNormalization (word +
 * position + segment embeddings, then layer norm) on tk_layer_norm and
 * tk_rms_norm. 16-bit inputs compute in f32 and round once; epsilon
 * defaults to ONNX Runtime's 1e-12 (1e-5 for SimplifiedLayerNormalization). */
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

static tk_dtype work_dtype(tk_dtype d)
{
    return d == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
}

/* Statistics over the last ndims dims of x (keepdim): the mean (NULL: not
 * wanted) and 1/sqrt(var + eps), var the population variance, or the mean
 * square when rms. */
static tk_status norm_stats(TkoOpCtx *oc, const tk_tensor *x, int ndims, bool rms, double eps, tk_tensor **mean, tk_tensor **inv)
{
    int nd = tk_tensor_ndim(x), dims[TK_MAX_DIMS];
    for (int i = 0; i < ndims; i++) dims[i] = nd - ndims + i;
    tk_reduce_opts ro = { .dims = dims, .ndims = ndims, .keepdim = true, .population = true };
    tk_tensor *t[3] = { 0 };
    tk_status s = TK_OK;
    if (mean) s = tk_reduce(oc->ctx, TK_MEAN, x, &ro, mean);
    if (!s && inv) {
        if (rms && !(s = tk_mul(oc->ctx, x, x, &t[0]))) s = tk_reduce(oc->ctx, TK_MEAN, t[0], &ro, &t[1]);
        else if (!rms) s = tk_reduce(oc->ctx, TK_VAR, x, &ro, &t[1]);
        if (!s && !(s = tk_binary_scalar(oc->ctx, TK_ADD, t[1], eps, &t[2]))) s = tk_unary(oc->ctx, TK_RSQRT, t[2], inv);
    }
    tko_nn_release(t, 3);
    return s;
}

/* SkipLayerNormalization (arg 0): input, skip, gamma, beta?, bias?;
 * SkipSimplifiedLayerNormalization (arg 1): input, skip, gamma, bias?.
 * Outputs: y, mean (simplified: zeros), inv_std_var, input_skip_bias_sum. */
tk_status tko_contrib_run_skip_layer_norm(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    bool rms = oc->node->def->arg == 1;
    const tk_tensor *x = oc->in[0], *beta = !rms && oc->nin > 3 ? oc->in[3] : NULL;
    const tk_tensor *bias = rms ? (oc->nin > 3 ? oc->in[3] : NULL) : (oc->nin > 4 ? oc->in[4] : NULL);
    tk_dtype d = tk_tensor_dtype(x), w = work_dtype(d);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "input is %s; it must be a float type", tk_dtype_name(d));
    if (tk_tensor_ndim(x) < 1) return tko_fail(oc, TK_ERR_SHAPE, "input is 0-d; it needs a hidden dim");
    double eps = tko_attr_float(oc->node, "epsilon", 1e-12f);
    tk_tensor *t[12] = { 0 };   /* x, skip, gamma, beta, bias in w; sums; mean; inv */
    tk_status s = TK_OK;
    const tk_tensor *src[5] = { x, oc->in[1], oc->in[2], beta, bias };
    for (int i = 0; i < 5 && !s; i++)
        if (src[i]) s = tko_nn_to(oc, src[i], w, &t[i]);
    if (s) goto done;
    if ((s = tk_add(ctx, t[0], t[1], &t[5]))) goto done;
    tk_tensor *sum = t[5];
    if (bias && !(s = tk_add(ctx, t[5], t[4], &t[6]))) sum = t[6];
    if (s) goto done;
    if (tk_tensor_ndim(sum) != tk_tensor_ndim(x) || memcmp(tk_tensor_shape(sum), tk_tensor_shape(x), sizeof(int64_t) * tk_tensor_ndim(x))) {
        s = tko_fail(oc, TK_ERR_SHAPE, "skip or bias does not broadcast to the input's shape");
        goto done;
    }
    if (rms) s = tk_rms_norm(ctx, sum, 1, t[2], eps, &oc->out[0]);
    else s = tk_layer_norm(ctx, sum, 1, t[2], t[3], eps, &oc->out[0]);
    if (s || (s = tko_nn_as_dtype(oc, &oc->out[0], d))) goto done;
    bool want_mean = tko_contrib_wanted(oc, 1), want_inv = tko_contrib_wanted(oc, 2);
    if (want_mean || want_inv) {
        if ((s = norm_stats(oc, sum, 1, rms, eps, want_mean && !rms ? &t[7] : NULL, want_inv ? &t[8] : NULL))) goto done;
        if (want_mean && rms) s = tk_zeros(ctx, w, tk_tensor_ndim(t[8]), tk_tensor_shape(t[8]), &t[7]);
        if (want_mean && !s) oc->out[1] = t[7], t[7] = NULL, s = tko_nn_as_dtype(oc, &oc->out[1], d);
        if (want_inv && !s) oc->out[2] = t[8], t[8] = NULL, s = tko_nn_as_dtype(oc, &oc->out[2], d);
        if (s) goto done;
    }
    if (tko_contrib_wanted(oc, 3)) {
        oc->out[3] = tk_tensor_retain(sum);
        s = tko_nn_as_dtype(oc, &oc->out[3], d);
    }
done:
    tko_nn_release(t, 12);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}

/* SimplifiedLayerNormalization: RMS norm over dims axis.. (X, scale); the
 * optional inv_std_var output is f32 (stash_type 1). */
tk_status tko_contrib_run_simplified_layer_norm(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    tk_dtype d = tk_tensor_dtype(x), w = work_dtype(d);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "X is %s; it must be a float type", tk_dtype_name(d));
    int nd = tk_tensor_ndim(x), axis;
    tk_status s = tko_axis(oc, tko_attr_int(oc->node, "axis", -1), nd, &axis);
    if (s) return s;
    double eps = tko_attr_float(oc->node, "epsilon", 1e-5f);
    tk_tensor *t[3] = { 0 };
    if (!(s = tko_nn_to(oc, x, w, &t[0])) && !(s = tko_nn_to(oc, oc->in[1], w, &t[1])))
        s = tk_rms_norm(oc->ctx, t[0], nd - axis, t[1], eps, &oc->out[0]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
    if (!s && tko_contrib_wanted(oc, 1) && !(s = norm_stats(oc, t[0], nd - axis, true, eps, NULL, &oc->out[1])))
        s = tko_nn_as_dtype(oc, &oc->out[1], w);
    tko_nn_release(t, 3);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ EmbedLayerNormalization */

const char *tko_contrib_check_embed_layer_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t t = tko_attr_int(n, "mask_index_type", 1);
    if (t != 0 && t != 1) return tko_nn_why(why, len, "mask_index_type=%lld is not supported (0 or 1)", (long long)t);
    return NULL;
}

/* The table's rows for ids (any int type) as [.., H] in dtype w. */
static tk_status lookup(TkoOpCtx *oc, const tk_tensor *table, const tk_tensor *ids, tk_dtype w, tk_tensor **out)
{
    tk_tensor *e = NULL;
    tk_status s = tk_embedding(oc->ctx, table, ids, &e);
    if (!s) s = tko_nn_to(oc, e, w, out);
    tk_tensor_release(e);
    return s;
}

/* Inputs: input_ids [B, S], segment_ids?, word_embedding [V, H],
 * position_embedding [P, H], segment_embedding?, gamma, beta, mask? [B, S],
 * position_ids? ([B, S] or [1, S]; default 0..S-1). Outputs: the normalised
 * sum [B, S, H], mask_index [B] i32 (the mask's row sums; zeros without a
 * mask) and the sum itself. */
tk_status tko_contrib_run_embed_layer_norm(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *ids = oc->in[0], *seg = oc->in[1], *word = oc->in[2], *posemb = oc->in[3], *segemb = oc->in[4];
    const tk_tensor *mask = oc->nin > 7 ? oc->in[7] : NULL, *pos = oc->nin > 8 ? oc->in[8] : NULL;
    if (tk_tensor_ndim(ids) != 2) return tko_fail(oc, TK_ERR_SHAPE, "input_ids is %d-d; it must be [batch, sequence]", tk_tensor_ndim(ids));
    if (!seg != !segemb) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "segment_ids and segment_embedding must be given together");
    tk_dtype d = tk_tensor_dtype(word), w = work_dtype(d);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "word_embedding is %s; it must be a float type", tk_dtype_name(d));
    int64_t b = tk_tensor_shape(ids)[0], sl = tk_tensor_shape(ids)[1];
    tk_tensor *t[16] = { 0 };
    tk_status s = TK_OK;
    if (!pos) s = tk_arange(ctx, TK_DTYPE_I64, 0, (double)sl, 1, &t[0]);
    else t[0] = tk_tensor_retain((tk_tensor *)pos);
    if (s || (s = lookup(oc, word, ids, w, &t[1])) || (s = lookup(oc, posemb, t[0], w, &t[2])) || (s = tk_add(ctx, t[1], t[2], &t[3])))
        goto done;
    tk_tensor *sum = t[3];
    if (seg) {
        if ((s = lookup(oc, segemb, seg, w, &t[4])) || (s = tk_add(ctx, t[3], t[4], &t[5]))) goto done;
        sum = t[5];
    }
    const int64_t *ss = tk_tensor_shape(sum);
    if (tk_tensor_ndim(sum) != 3 || ss[0] != b || ss[1] != sl) {
        s = tko_fail(oc, TK_ERR_SHAPE, "position_ids or segment_ids do not match input_ids [%lld, %lld]", (long long)b, (long long)sl);
        goto done;
    }
    if ((s = tko_nn_to(oc, oc->in[5], w, &t[6])) || (s = tko_nn_to(oc, oc->in[6], w, &t[7]))) goto done;
    double eps = tko_attr_float(oc->node, "epsilon", 1e-12f);
    if ((s = tk_layer_norm(ctx, sum, 1, t[6], t[7], eps, &oc->out[0])) || (s = tko_nn_as_dtype(oc, &oc->out[0], d))) goto done;
    if (tko_contrib_wanted(oc, 1)) {
        if (mask) {
            tk_reduce_opts ro = { .dims = (int[]){ 1 }, .ndims = 1 };
            if (tk_tensor_ndim(mask) != 2 || tk_tensor_shape(mask)[0] != b) {
                s = tko_fail(oc, TK_ERR_SHAPE, "mask is %d-d; it must be [%lld, sequence]", tk_tensor_ndim(mask), (long long)b);
                goto done;
            }
            s = tk_sum(ctx, mask, &ro, &oc->out[1]);
        } else s = tk_zeros(ctx, TK_DTYPE_I32, 1, &b, &oc->out[1]);
        if (s || (s = tko_nn_as_dtype(oc, &oc->out[1], TK_DTYPE_I32))) goto done;
    }
    if (tko_contrib_wanted(oc, 2)) {
        oc->out[2] = tk_tensor_retain(sum);
        s = tko_nn_as_dtype(oc, &oc->out[2], d);
    }
done:
    tko_nn_release(t, 16);
    if (s) tko_nn_release(oc->out, oc->nout);
    return tko_nn_wrap(oc, s);
}
