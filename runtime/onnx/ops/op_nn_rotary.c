/* op_nn_rotary.c — ONNX RotaryEmbedding (opset 23) from views and
 * element-wise ops: the first rotary_embedding_dim features of each head
 * are rotated as pairs (x1, x2) — halves, or even/odd features when
 * interleaved — by the cos/sin caches (indexed by position_ids with
 * tk_embedding when given): (cos·x1 - sin·x2, sin·x1 + cos·x2). */
#include <string.h>

#include "op_nn_common.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* The cache as [B, S, 1, R/2]: gathered by position_ids [B, S] when given. */
static tk_status cache_rows(TkoOpCtx *oc, const tk_tensor *cache, const tk_tensor *pos, tk_tensor **out)
{
    tk_tensor *g = NULL;
    tk_status s = TK_OK;
    if (pos) s = tk_embedding(oc->ctx, cache, pos, &g);
    else g = tk_tensor_retain((tk_tensor *)cache);
    if (!s) s = tk_unsqueeze(oc->ctx, g, -2, out);
    tk_tensor_release(g);
    return s;
}

tk_status tko_nn_run_rotary(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *x = oc->in[0], *pos = oc->nin > 3 ? oc->in[3] : NULL;
    int rank = tk_tensor_ndim(x);
    const int64_t *xs = tk_tensor_shape(x);
    if (rank != 3 && rank != 4) return tko_fail(oc, TK_ERR_SHAPE, "input is %d-d; it must be 3-d or 4-d", rank);
    bool interleaved = tko_attr_int(oc->node, "interleaved", 0) != 0;
    int64_t heads = tko_attr_int(oc->node, "num_heads", 0), rdim = tko_attr_int(oc->node, "rotary_embedding_dim", 0);
    tk_tensor *t[20] = { 0 };
    tk_status s;
    if (rank == 4) s = tk_permute(ctx, x, (int[]){ 0, 2, 1, 3 }, &t[0]);   /* [B, S, H, D] */
    else if (heads < 1 || xs[2] % heads)
        return tko_fail(oc, TK_ERR_SHAPE, "hidden size %lld is not a multiple of num_heads %lld", (long long)xs[2], (long long)heads);
    else s = tk_reshape(ctx, x, 4, (int64_t[]){ xs[0], xs[1], heads, xs[2] / heads }, &t[0]);
    if (s) return tko_nn_wrap(oc, s);
    int64_t d = tk_tensor_shape(t[0])[3];
    if (rdim == 0) rdim = d;
    if (rdim > d || rdim % 2) {
        tk_tensor_release(t[0]);
        return tko_fail(oc, TK_ERR_SHAPE, "rotary_embedding_dim %lld must be even and at most the head size %lld", (long long)rdim,
                        (long long)d);
    }
    int64_t half = rdim / 2;
    if ((s = cache_rows(oc, oc->in[1], pos, &t[1])) || (s = cache_rows(oc, oc->in[2], pos, &t[2]))) goto done;
    if (tk_tensor_shape(t[1])[3] != half || tk_tensor_shape(t[2])[3] != half) {
        s = tko_fail(oc, TK_ERR_SHAPE, "the caches' last dim must be rotary_embedding_dim / 2 = %lld", (long long)half);
        goto done;
    }
    if ((s = tk_slice(ctx, t[0], 3, 0, rdim, 1, &t[3])) || (s = tk_slice(ctx, t[0], 3, rdim, d, 1, &t[4]))) goto done;
    if (interleaved) s = tk_slice(ctx, t[3], 3, 0, rdim, 2, &t[5]), s = s ? s : tk_slice(ctx, t[3], 3, 1, rdim, 2, &t[6]);
    else s = tk_slice(ctx, t[3], 3, 0, half, 1, &t[5]), s = s ? s : tk_slice(ctx, t[3], 3, half, rdim, 1, &t[6]);
    if (s) goto done;
    /* real = cos·x1 - sin·x2, imag = sin·x1 + cos·x2 */
    if ((s = tk_mul(ctx, t[1], t[5], &t[7])) || (s = tk_mul(ctx, t[2], t[6], &t[8])) || (s = tk_sub(ctx, t[7], t[8], &t[9])) ||
        (s = tk_mul(ctx, t[2], t[5], &t[10])) || (s = tk_mul(ctx, t[1], t[6], &t[11])) || (s = tk_add(ctx, t[10], t[11], &t[12])))
        goto done;
    const tk_tensor *parts[2] = { t[9], t[12] };
    if (interleaved) {   /* (real, imag) pairs side by side: stack on a new last dim, then merge */
        if ((s = tk_stack(ctx, parts, 2, 4, &t[13]))) goto done;
        const int64_t *rs = tk_tensor_shape(t[9]);
        if ((s = tk_reshape(ctx, t[13], 4, (int64_t[]){ rs[0], rs[1], rs[2], rdim }, &t[14]))) goto done;
    } else if ((s = tk_cat(ctx, parts, 2, 3, &t[14]))) goto done;
    const tk_tensor *whole[2] = { t[14], t[4] };
    if ((s = tk_cat(ctx, whole, rdim < d ? 2 : 1, 3, &t[15]))) goto done;
    if (rank == 4) {
        if ((s = tk_permute(ctx, t[15], (int[]){ 0, 2, 1, 3 }, &t[16]))) goto done;
        s = tk_contiguous(ctx, t[16], &oc->out[0]);
    } else s = tk_reshape(ctx, t[15], 3, xs, &oc->out[0]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], tk_tensor_dtype(x));
done:
    tko_nn_release(t, 20);
    if (s) {
        tko_nn_release(oc->out, 1);
        return tko_nn_wrap(oc, s);
    }
    return TK_OK;
}
