/* iter.c — broadcasting and the strided iterator every element-wise op and
 * copy runs on. Operands are aligned on their last dims (NumPy), broadcast
 * dims get stride 0, size-1 dims are dropped and dims that every operand
 * walks contiguously are merged, so the common cases become one flat run. */
#include <string.h>

#include "internal.h"

tk_status tkr_broadcast_shape(tk_context *ctx, const char *op, int an, const int64_t *as, int bn, const int64_t *bs, int *out_ndim,
                              int64_t *out)
{
    int n = an > bn ? an : bn;
    for (int i = 0; i < n; i++) {
        int ia = an - n + i, ib = bn - n + i;
        int64_t a = ia >= 0 ? as[ia] : 1, b = ib >= 0 ? bs[ib] : 1;
        if (a != b && a != 1 && b != 1) {
            char sa[160], sb[160];
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: shapes %s and %s do not broadcast (dim %d: %lld vs %lld)", op,
                             tkr_shape_str(an, as, sa, sizeof sa), tkr_shape_str(bn, bs, sb, sizeof sb), i - n, (long long)a,
                             (long long)b);
        }
        out[i] = a == 1 ? b : a;
    }
    *out_ndim = n;
    return TK_OK;
}

/* The order to walk the dims in: row-major (0, 1, ..) unless operand 0 (of
 * byte strides st over shape) is dense — its elements fill one block with no
 * gaps or overlaps — in another dim order, then by its strides, outermost
 * first. A broadcast or strided operand 0 keeps row-major order. */
static void walk_order(const tk_tensor *t, int ndim, const int64_t *shape, const int64_t *st, int *order)
{
    for (int d = 0; d < ndim; d++) order[d] = d;
    if (ndim < 2 || t->ndim != ndim) return;
    int perm[TK_MAX_DIMS], n = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 1) continue;
        if (st[d] <= 0) return;
        /* insertion sort by descending stride; equal strides cannot be dense */
        int i = n++;
        while (i > 0 && st[perm[i - 1]] < st[d]) perm[i] = perm[i - 1], i--;
        perm[i] = d;
    }
    int64_t expect = (int64_t)tk_dtype_size(t->dtype);
    bool sorted = true;
    for (int i = n - 1; i >= 0; i--) {
        if (st[perm[i]] != expect) return;   /* gaps or overlaps: not dense */
        expect *= shape[perm[i]];
        if (i > 0 && perm[i - 1] > perm[i]) sorted = false;
    }
    if (sorted) return;
    /* size-1 dims are dropped later; keep them first so the rest follow perm */
    int k = 0;
    for (int d = 0; d < ndim; d++)
        if (shape[d] == 1) order[k++] = d;
    for (int i = 0; i < n; i++) order[k++] = perm[i];
}

tk_status tkr_iter_init(tk_context *ctx, const char *op, TkrIter *it, int ndim, const int64_t *shape, int nops,
                        const tk_tensor *const *ops)
{
    memset(it, 0, sizeof *it);
    it->nops = nops;
    /* the CPU's loops over a GPU's memory: an op that forgot its device check stops here */
    for (int k = 0; k < nops; k++)
        if (!ops[k]->ctx->device->host_ops)
            return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s does not run on device %s yet: copy the tensors to a CPU context with tk_tensor_to",
                             op, ops[k]->ctx->device->name);
    int64_t st[TKR_MAX_OPS][TK_MAX_DIMS];
    for (int k = 0; k < nops; k++) {
        const tk_tensor *t = ops[k];
        if (t->ndim > ndim) {
            char a[160], b[160];
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: operand %d of shape %s has more dims than the result %s", op, k, TKR_SHAPE(t, a),
                             tkr_shape_str(ndim, shape, b, sizeof b));
        }
        int64_t es = (int64_t)tk_dtype_size(t->dtype);
        for (int d = 0; d < ndim; d++) {
            int td = t->ndim - ndim + d;
            int64_t size = td >= 0 ? t->shape[td] : 1;
            if (size != shape[d] && size != 1) {
                char a[160], b[160];
                return tkr_error(ctx, TK_ERR_SHAPE, "%s: operand %d of shape %s does not broadcast to %s", op, k, TKR_SHAPE(t, a),
                                 tkr_shape_str(ndim, shape, b, sizeof b));
            }
            st[k][d] = size == 1 ? 0 : t->strides[td] * es;
        }
        it->data[k] = tkr_ptr(t);
    }
    it->numel = tkr_numel(ndim, shape);
    /* walk in operand 0's memory order when it is a dense permutation (a channels-last
     * output): element-wise results do not depend on the order, and the runs merge */
    int order[TK_MAX_DIMS];
    walk_order(ops[0], ndim, shape, st[0], order);
    int64_t shp[TK_MAX_DIMS], stp[TKR_MAX_OPS][TK_MAX_DIMS];
    for (int d = 0; d < ndim; d++) {
        shp[d] = shape[order[d]];
        for (int k = 0; k < nops; k++) stp[k][d] = st[k][order[d]];
    }
    shape = shp;
    /* drop size-1 dims, then merge dim d into the next inner one where every operand allows */
    int n = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 1) continue;
        if (n > 0) {
            /* the outer dim (n - 1) folds into d when its stride is d's stride times d's size */
            bool merge = true;
            for (int k = 0; k < nops; k++)
                if (it->strides[k][n - 1] != stp[k][d] * shape[d]) merge = false;
            if (merge) {
                it->shape[n - 1] *= shape[d];
                for (int k = 0; k < nops; k++) it->strides[k][n - 1] = stp[k][d];
                continue;
            }
        }
        it->shape[n] = shape[d];
        for (int k = 0; k < nops; k++) it->strides[k][n] = stp[k][d];
        n++;
    }
    if (n == 0) {   /* a single element (or a 0-d tensor) */
        it->shape[0] = 1;
        for (int k = 0; k < nops; k++) it->strides[k][0] = 0;
        n = 1;
    }
    it->ndim = n;
    return TK_OK;
}

typedef struct {
    const TkrIter *it;
    TkrLoopFn fn;
    void *arg;
} Run;

/* Visits elements [begin, end) of the flat (row-major) index space in runs
 * along the innermost dim. */
static void run_range(int64_t begin, int64_t end, void *p)
{
    const Run *r = p;
    const TkrIter *it = r->it;
    int nd = it->ndim, inner = nd - 1;
    int64_t idx[TK_MAX_DIMS];
    int64_t rem = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % it->shape[d];
        rem /= it->shape[d];
    }
    char *ptrs[TKR_MAX_OPS];
    int64_t inner_strides[TKR_MAX_OPS];
    for (int k = 0; k < it->nops; k++) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += idx[d] * it->strides[k][d];
        ptrs[k] = it->data[k] + off;
        inner_strides[k] = it->strides[k][inner];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t len = it->shape[inner] - idx[inner];
        if (len > end - pos) len = end - pos;
        r->fn(ptrs, inner_strides, len, r->arg);
        pos += len;
        if (pos >= end) break;
        /* step to the next run: carry through the outer dims */
        idx[inner] += len;
        for (int k = 0; k < it->nops; k++) ptrs[k] += len * it->strides[k][inner];
        for (int d = inner; d > 0 && idx[d] == it->shape[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
            for (int k = 0; k < it->nops; k++) ptrs[k] += it->strides[k][d - 1] - it->shape[d] * it->strides[k][d];
        }
    }
}

#define TKR_ITER_GRAIN 32768   /* elements per piece: ~100 µs of a streaming op per piece at most */

void tkr_iter_run(tk_context *ctx, const TkrIter *it, TkrLoopFn fn, void *arg)
{
    if (it->numel == 0) return;
    Run r = { it, fn, arg };
    tkr_parallel_for(ctx, it->numel, TKR_ITER_GRAIN, run_range, &r);
}
