/* arena.c — one block of memory that a planner (the ONNX graph executor)
 * places tensors into at offsets it chose by liveness: the tensors are views
 * of the arena's storage, of any dtype and shape, and keep it alive. */
#include <stdlib.h>

#include "internal.h"

struct tk_tensor_arena {
    tk_tensor *block;   /* u8 [bytes]: the storage every placed tensor shares */
    size_t bytes;
};

tk_status tk_tensor_arena_create(tk_context *ctx, size_t bytes, tk_tensor_arena **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (bytes > (size_t)INT64_MAX / 2) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_tensor_arena_create: %zu bytes is too many", bytes);
    tk_tensor_arena *a = calloc(1, sizeof *a);
    if (!a) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_tensor_arena_create: out of memory");
    int64_t n = (int64_t)bytes;
    tk_status s = tkr_new(ctx, TK_DTYPE_U8, 1, &n, &a->block);
    if (s) {
        free(a);
        return s;
    }
    a->bytes = bytes;
    *out = a;
    return tkr_ok(ctx);
}

void tk_tensor_arena_free(tk_tensor_arena *a)
{
    if (!a) return;
    tk_tensor_release(a->block);
    free(a);
}

size_t tk_tensor_arena_size(const tk_tensor_arena *a) { return a ? a->bytes : 0; }

tk_status tk_tensor_arena_place(tk_context *ctx, tk_tensor_arena *a, size_t offset, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!a) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_tensor_arena_place: arena is NULL");
    size_t es = tk_dtype_size(dtype);
    if (!es) return tkr_error(ctx, TK_ERR_DTYPE, "tk_tensor_arena_place: dtype %d is not a TileKit dtype", (int)dtype);
    if (ndim < 0 || ndim > TK_MAX_DIMS || (ndim && !shape))
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_tensor_arena_place: %d dims (0 .. %d, with a shape)", ndim, TK_MAX_DIMS);
    if (offset % es)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_tensor_arena_place: offset %zu is not a multiple of %s's %zu bytes", offset,
                         tk_dtype_name(dtype), es);
    int64_t count;
    if (!tkr_shape_fits(ndim, shape, &count))
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_tensor_arena_place: a negative size, or more elements than fit in memory");
    uint64_t n = (uint64_t)count;
    char sh[160];
    if (offset > a->bytes || n * es > a->bytes - offset)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_tensor_arena_place: %s %s at offset %zu needs %llu bytes, past the arena's %zu", tk_dtype_name(dtype),
                         tkr_shape_str(ndim, shape, sh, sizeof sh), offset, (unsigned long long)(n * es), a->bytes);
    int64_t strides[TK_MAX_DIMS];
    tkr_contiguous_strides(ndim, shape, strides);
    tk_status s = tkr_view(ctx, a->block, ndim, shape, strides, (int64_t)(offset / es), out);
    if (s) return s;
    (*out)->dtype = dtype;   /* a view in its own element type: the offset is in its elements */
    return tkr_ok(ctx);
}
