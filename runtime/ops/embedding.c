/* embedding.c — F.embedding: rows of weight [V, D] picked by an index tensor
 * of any shape. All indices are checked before anything is allocated for
 * the result, so an out-of-range one names its position and value and
 * leaves nothing behind; then each row is one memcpy (any dtype). */
#include <stdio.h>
#include <string.h>

#include "conv_common.h"

typedef struct {
    const char *w;       /* contiguous weight rows */
    const char *idx;     /* contiguous indices */
    bool i64;
    char *y;
    size_t row_bytes;
} Gather;

static inline int64_t index_at(const Gather *g, int64_t i)
{
    return g->i64 ? ((const int64_t *)g->idx)[i] : ((const int32_t *)g->idx)[i];
}

static void gather_rows(int64_t begin, int64_t end, void *arg)
{
    const Gather *g = arg;
    for (int64_t i = begin; i < end; i++) memcpy(g->y + i * (int64_t)g->row_bytes, g->w + index_at(g, i) * (int64_t)g->row_bytes, g->row_bytes);
}

/* "[1, 2]": the multi-index of flat position i in shape. */
static void position_str(int ndim, const int64_t *shape, int64_t i, char *buf, size_t len)
{
    int64_t idx[TK_MAX_DIMS];
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d] = shape[d] ? i % shape[d] : 0;
        i = shape[d] ? i / shape[d] : 0;
    }
    tkr_shape_str(ndim, idx, buf, len);
}

tk_status tk_embedding(tk_context *ctx, const tk_tensor *weight, const tk_tensor *indices, tk_tensor **out)
{
    const char *op = "tk_embedding";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = tkr_check_arg(ctx, op, "weight", weight);
    if (s || (s = tkr_check_arg(ctx, op, "indices", indices))) return s;
    char sw[160], si[160];
    if (weight->ndim != 2) return tkr_error(ctx, TK_ERR_SHAPE, "%s: weight %s must be [V, D]", op, TKR_SHAPE(weight, sw));
    if (indices->dtype != TK_DTYPE_I32 && indices->dtype != TK_DTYPE_I64)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: indices are %s, need i32 or i64", op, tk_dtype_name(indices->dtype));
    if (indices->ndim + 1 > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: indices %s have %d dims; the result would have more than %d", op, TKR_SHAPE(indices, si),
                         indices->ndim, TK_MAX_DIMS);
    tk_tensor *ic = NULL, *wc = NULL;
    if ((s = tkr_contiguous(ctx, indices, &ic))) return s;
    int64_t v = weight->shape[0], d = weight->shape[1], count = tk_tensor_numel(ic);
    Gather g = { NULL, tkr_ptr(ic), ic->dtype == TK_DTYPE_I64, NULL, (size_t)d * tk_dtype_size(weight->dtype) };
    for (int64_t i = 0; i < count; i++) {
        int64_t k = index_at(&g, i);
        if (k < 0 || k >= v) {
            char pos[160];
            position_str(ic->ndim, ic->shape, i, pos, sizeof pos);
            s = tkr_error(ctx, TK_ERR_INDEX, "%s: indices%s is %lld, out of range for weight %s (0 .. %lld)", op, pos, (long long)k,
                          TKR_SHAPE(weight, sw), (long long)(v - 1));
            tk_tensor_release(ic);
            return s;
        }
    }
    int64_t shape[TK_MAX_DIMS];
    memcpy(shape, ic->shape, (size_t)ic->ndim * sizeof *shape);
    shape[ic->ndim] = d;
    if (!(s = tkr_new(ctx, weight->dtype, ic->ndim + 1, shape, out)) && count * d > 0 && !(s = tkr_contiguous(ctx, weight, &wc))) {
        g.w = tkr_ptr(wc);
        g.y = tkr_ptr(*out);
        int64_t grain = d >= 4096 ? 1 : 4096 / d;
        tkr_parallel_for(ctx, count, grain, gather_rows, &g);
    }
    tk_tensor_release(ic);
    tk_tensor_release(wc);
    return tkr_conv_finish(ctx, op, t0, s, out);
}
