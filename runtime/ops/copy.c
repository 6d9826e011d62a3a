/* copy.c — copies between tensors of any geometry and dtype (the strided
 * iterator with a typed fast path), and the calls built on them: to_dtype,
 * clone, copy_, fill_, contiguous, item. */
#include <string.h>

#include "internal.h"
#include "shape_util.h"
#include "tk/dtype.h"

void tkr_copy_run(char **p, const int64_t *s, int64_t n, void *arg)
{
    const TkrCopyArg *a = arg;
    char *d = p[0];
    const char *x = p[1];
    size_t des = tk_dtype_size(a->dst), ses = tk_dtype_size(a->src);
    if (a->dst == a->src) {
        if (s[0] == (int64_t)des && s[1] == (int64_t)des) {
            memmove(d, x, (size_t)n * des);
            return;
        }
        switch (des) {
        case 1: for (int64_t i = 0; i < n; i++) d[i * s[0]] = x[i * s[1]]; return;
        case 2: for (int64_t i = 0; i < n; i++) *(uint16_t *)(d + i * s[0]) = *(const uint16_t *)(x + i * s[1]); return;
        case 4: for (int64_t i = 0; i < n; i++) *(uint32_t *)(d + i * s[0]) = *(const uint32_t *)(x + i * s[1]); return;
        default: for (int64_t i = 0; i < n; i++) *(uint64_t *)(d + i * s[0]) = *(const uint64_t *)(x + i * s[1]); return;
        }
    }
    /* the conversions models use most, as tight loops; contiguous runs branch-free,
     * so they vectorise (tkrun --bf16 rounds every dense conv's input and widens
     * its result: per element with the NaN branch they were ~0.15 ms a conv of
     * ResNet-18's first stage) */
    if (a->src == TK_DTYPE_F32 && a->dst == TK_DTYPE_BF16 && s[0] == 2 && s[1] == 4) {
        uint16_t *dh = (uint16_t *)d;
        const char *xs = x;
        for (int64_t i = 0; i < n; i++) {
            uint32_t u;
            memcpy(&u, xs + 4 * i, 4);
            uint32_t rne = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16, quiet = (u >> 16) | 0x40u;
            dh[i] = (uint16_t)((u & 0x7fffffffu) > 0x7f800000u ? quiet : rne);   /* the same bits as tk_bf16_from_f32 */
        }
        return;
    }
    if (a->src == TK_DTYPE_BF16 && a->dst == TK_DTYPE_F32 && s[0] == 4 && s[1] == 2) {
        const uint16_t *xh = (const uint16_t *)x;
        for (int64_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)xh[i] << 16;
            memcpy(d + 4 * i, &u, 4);
        }
        return;
    }
    if (a->src == TK_DTYPE_F32 && a->dst == TK_DTYPE_BF16) {
        for (int64_t i = 0; i < n; i++) *(uint16_t *)(d + i * s[0]) = tk_bf16_from_f32(*(const float *)(x + i * s[1]));
        return;
    }
    if (a->src == TK_DTYPE_BF16 && a->dst == TK_DTYPE_F32) {
        for (int64_t i = 0; i < n; i++) *(float *)(d + i * s[0]) = tk_bf16_to_f32(*(const uint16_t *)(x + i * s[1]));
        return;
    }
    if (a->src == TK_DTYPE_F16 && a->dst == TK_DTYPE_F32) {
        for (int64_t i = 0; i < n; i++) *(float *)(d + i * s[0]) = tk_f16_to_f32(*(const uint16_t *)(x + i * s[1]));
        return;
    }
    (void)ses;
    if (tkr_dtype_is_lowp_float(a->src)) {   /* the small floats: their value, exactly, as a double */
        for (int64_t i = 0; i < n; i++) tkr_store_f(d + i * s[0], a->dst, tkr_lowp_decode(a->src, *(const uint8_t *)(x + i * s[1])));
    } else if (tk_dtype_is_float(a->src) && a->dst != TK_DTYPE_BF16 && a->dst != TK_DTYPE_F16) {
        for (int64_t i = 0; i < n; i++) tkr_store_f(d + i * s[0], a->dst, tkr_load_f(x + i * s[1], a->src));
    } else if (tk_dtype_is_float(a->src)) {
        /* to 16-bit floats: one rounding from the source's own precision (f64 → bf16 goes through f32 as PyTorch does) */
        for (int64_t i = 0; i < n; i++) tkr_store_f(d + i * s[0], a->dst, tkr_load_f(x + i * s[1], a->src));
    } else if (a->src == TK_DTYPE_U64) {   /* its values >= 2^63 are no int64: into floats as unsigned */
        for (int64_t i = 0; i < n; i++) tkr_store_u64(d + i * s[0], a->dst, *(const uint64_t *)(x + i * s[1]));
    } else {
        for (int64_t i = 0; i < n; i++) tkr_store_i(d + i * s[0], a->dst, tkr_load_i(x + i * s[1], a->src));
    }
}

/* A copy's innermost dim should be one both sides step through contiguously,
 * and long. The iterator walks the destination's order, which misses it twice:
 * a layout change whose destination walks a short dim innermost (NCHW -> NHWC
 * of an RGB image: runs of 3 channels, one call each; 224×224×3 ~0.33 ms, now
 * ~0.02), and a destination that is a slice of a channels-last tensor (a
 * channels-last cat: the piece is not dense, so its walk is logical, W
 * innermost, every element a strided single copy). Each dim is scored by its
 * unit strides (2 each) and a length of at least 16 (1); the best one, if
 * better than the innermost, becomes it. Each element is copied once whatever
 * the order. */
static void long_runs_inside(TkrIter *it, int64_t dst_elem, int64_t src_elem)
{
    int inner = it->ndim - 1, best = inner;
    if (it->ndim < 2) return;
    int score[TK_MAX_DIMS];
    for (int d = 0; d <= inner; d++)
        score[d] = 2 * (it->strides[0][d] == dst_elem) + 2 * (it->strides[1][d] == src_elem) + (it->shape[d] >= 16);
    for (int d = 0; d < inner; d++)
        if (score[d] > score[best]) best = d;
    if (best == inner) return;
    int64_t t = it->shape[best];
    it->shape[best] = it->shape[inner];
    it->shape[inner] = t;
    for (int k = 0; k < it->nops; k++) {
        t = it->strides[k][best];
        it->strides[k][best] = it->strides[k][inner];
        it->strides[k][inner] = t;
    }
}

tk_status tkr_copy_into(tk_context *ctx, const char *op, tk_tensor *dst, const tk_tensor *src)
{
    if (!ctx->device->host_ops) return tkr_device_copy_into(ctx, op, dst, src);
    TkrIter it;
    const tk_tensor *ops[2] = { dst, src };
    tk_status s = tkr_iter_init(ctx, op, &it, dst->ndim, dst->shape, 2, ops);
    if (s) return s;
    long_runs_inside(&it, (int64_t)tk_dtype_size(dst->dtype), (int64_t)tk_dtype_size(src->dtype));
    TkrCopyArg a = { dst->dtype, src->dtype };
    tkr_iter_run(ctx, &it, tkr_copy_run, &a);
    return TK_OK;
}

tk_status tkr_contiguous(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    if (tk_tensor_is_contiguous(t)) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return TK_OK;
    }
    tk_status s = tkr_new(ctx, t->dtype, t->ndim, t->shape, out);
    if (s) return s;
    return tkr_copy_into(ctx, "tk_contiguous", *out, t);
}

static tk_status convert(tk_context *ctx, const char *op, const tk_tensor *t, tk_dtype dtype, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_status s = tkr_check_device_arg(ctx, op, "t", t);
    if (s) return s;
    if (tk_dtype_size(dtype) == 0) return tkr_error(ctx, TK_ERR_DTYPE, "%s: dtype %d is not a TileKit dtype", op, (int)dtype);
    if ((s = tkr_new(ctx, dtype, t->ndim, t->shape, out))) return s;
    if ((s = tkr_copy_into(ctx, op, *out, t))) {   /* fails only on a GPU (a transfer) */
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    return tkr_ok(ctx);
}

tk_status tk_to_dtype(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out)
{
    return convert(ctx, "tk_to_dtype", t, dtype, out);
}

tk_status tk_clone(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    return convert(ctx, "tk_clone", t, t ? t->dtype : TK_DTYPE_F32, out);
}

tk_status tk_copy_(tk_context *ctx, tk_tensor *dst, const tk_tensor *src)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s;
    if ((s = tkr_check_device_arg(ctx, "tk_copy_", "dst", dst)) || (s = tkr_check_device_arg(ctx, "tk_copy_", "src", src))) return s;
    if (dst->storage->readonly) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_copy_: dst is read-only caller memory");
    /* an overlapping source is copied first, so every element reads the old values */
    tk_tensor *tmp = NULL;
    if (dst->storage == src->storage && (s = tk_clone(ctx, src, &tmp))) return s;
    s = tkr_copy_into(ctx, "tk_copy_", dst, tmp ? tmp : src);
    tk_tensor_release(tmp);
    return s ? s : tkr_ok(ctx);
}

typedef struct {
    tk_dtype dtype;
    _Alignas(8) unsigned char value[8];   /* tkr_store_f writes an int64 or double here */
} FillArg;

static void fill_run(char **p, const int64_t *s, int64_t n, void *arg)
{
    const FillArg *a = arg;
    size_t es = tk_dtype_size(a->dtype);
    for (int64_t i = 0; i < n; i++) memcpy(p[0] + i * s[0], a->value, es);
}

/* tk_fill_ (out NULL) or tk_item of a GPU tensor, on its host mirror */
static tk_status on_host_mirror(tk_context *ctx, const tk_tensor *t, double value, const int64_t *index, double *out)
{
    TkrMirror m;
    tk_status s = tkr_mirror_open(ctx, t, true, &m);
    if (s) return s;
    s = out ? tk_item(ctx->host, m.host, index, out) : tk_fill_(ctx->host, m.host, value);
    if (s) s = tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    else if (!out) s = tkr_mirror_store(ctx, &m);
    tkr_mirror_close(&m);
    return s ? s : tkr_ok(ctx);
}

tk_status tk_fill_(tk_context *ctx, tk_tensor *t, double value)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_device_arg(ctx, "tk_fill_", "t", t);
    if (s) return s;
    if (t->storage->readonly) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_fill_: t is read-only caller memory");
    if (!ctx->device->host_ops) return on_host_mirror(ctx, t, value, NULL, NULL);
    FillArg a = { t->dtype, { 0 } };
    tkr_store_f(a.value, t->dtype, value);
    TkrIter it;
    const tk_tensor *ops[1] = { t };
    if ((s = tkr_iter_init(ctx, "tk_fill_", &it, t->ndim, t->shape, 1, ops))) return s;
    tkr_iter_run(ctx, &it, fill_run, &a);
    return tkr_ok(ctx);
}

tk_status tk_item(tk_context *ctx, const tk_tensor *t, const int64_t *index, double *out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_device_arg(ctx, "tk_item", "t", t);
    if (s) return s;
    if (!ctx->device->host_ops) return on_host_mirror(ctx, t, 0, index, out);
    if (t->ndim > 0 && !index) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_item: index is NULL for a %d-dim tensor", t->ndim);
    int64_t off = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        if (index[d] < 0 || index[d] >= t->shape[d]) {
            char sh[160];
            return tkr_error(ctx, TK_ERR_INDEX, "tk_item: index %lld of dim %d is out of range for shape %s", (long long)index[d], d,
                             TKR_SHAPE(t, sh));
        }
        off += index[d] * t->strides[d];
    }
    if (tkr_numel(t->ndim, t->shape) == 0) return tkr_error(ctx, TK_ERR_INDEX, "tk_item: the tensor is empty");
    *out = tkr_load_f((const char *)t->storage->data + off * (int64_t)tk_dtype_size(t->dtype), t->dtype);
    return tkr_ok(ctx);
}
