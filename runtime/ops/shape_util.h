/* shape_util.h — what the shape ops (view.c, join.c, index.c, pad.c) share:
 * the copy loop of copy.c, borrowed geometries over a tensor's storage for
 * the iterator, and shape arithmetic. */
#ifndef TK_RUNTIME_OPS_SHAPE_UTIL_H
#define TK_RUNTIME_OPS_SHAPE_UTIL_H

#include <string.h>

#include "internal.h"
#include "tk/shape.h"

/* copy.c's copy loop (a TkrLoopFn over operands dst, src) and its argument. */
typedef struct {
    tk_dtype dst, src;
} TkrCopyArg;
void tkr_copy_run(char **p, const int64_t *s, int64_t n, void *arg);
/* tkr_copy_into: internal.h */

/* Fills *g with another geometry over base's storage without a new
 * reference: g is only read by the iterator during a call while base is
 * alive, and is never retained or released. Saves an allocation per piece. */
static inline void tkr_alias(tk_tensor *g, const tk_tensor *base, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
    memset(g, 0, sizeof *g);
    g->storage = base->storage;
    g->ctx = base->ctx;
    g->dtype = base->dtype;
    g->ndim = ndim;
    if (ndim) {
        memcpy(g->shape, shape, (size_t)ndim * sizeof *shape);
        memcpy(g->strides, strides, (size_t)ndim * sizeof *strides);
    }
    g->offset = offset;
}

/* The start of every op that makes one tensor: ctx and out must be given. */
#define TKR_BEGIN(ctx, out)                                   \
    do {                                                      \
        if (!(ctx) || !(out)) return TK_ERR_INVALID_ARGUMENT; \
        *(out) = NULL;                                        \
    } while (0)

/* Index tensors are i32 or i64: entry i of a contiguous index as int64. */
static inline int64_t tkr_index_at(const tk_tensor *index, int64_t i)
{
    const char *p = tkr_ptr(index);
    return index->dtype == TK_DTYPE_I32 ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

#endif
