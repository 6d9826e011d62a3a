/* tensor.c — tensors and storages: making, viewing, retaining, releasing,
 * the queries of tk/tensor.h, and caller memory (from_blob, from_data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int64_t tkr_numel(int ndim, const int64_t *shape)
{
    /* saturates instead of overflowing: a caller-made shape whose product
     * does not fit (a reshape target, say) then matches no real tensor */
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(n, shape[i], &n)) return INT64_MAX;
    return n;
}

void tkr_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t st = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = st;
        /* only an empty tensor's strides can overflow (check_shape bounds the
         * others); any stride serves an empty tensor, so saturate */
        if (__builtin_mul_overflow(st, shape[i] > 0 ? shape[i] : 1, &st)) st = INT64_MAX;
    }
}

/* Checks ndim and sizes, and that the element count and bytes fit in int64. */
static tk_status check_shape(tk_context *ctx, const char *op, tk_dtype dtype, int ndim, const int64_t *shape, int64_t *numel)
{
    if (tk_dtype_size(dtype) == 0) return tkr_error(ctx, TK_ERR_DTYPE, "%s: dtype %d is not a TileKit dtype", op, (int)dtype);
    if (ndim < 0 || ndim > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %d dims (a tensor has 0 .. %d)", op, ndim, TK_MAX_DIMS);
    if (ndim > 0 && !shape) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shape is NULL for %d dims", op, ndim);
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0) return tkr_error(ctx, TK_ERR_SHAPE, "%s: size %lld of dim %d is negative", op, (long long)shape[i], i);
    if (!tkr_shape_fits(ndim, shape, numel))
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %d-dim shape has more elements than fit in memory", op, ndim);
    return TK_OK;
}

bool tkr_shape_fits(int ndim, const int64_t *shape, int64_t *numel)
{
    /* the strides multiply the non-zero sizes even when another size is 0
     * (an empty [0, 2^40, 2^40] tensor still has a stride of 2^40), so that
     * product must fit as well as the element count */
    int64_t n = 1, span = 1;
    for (int i = 0; i < ndim; i++) {
        int64_t d = shape[i];
        if (d < 0) return false;
        if (d > 1 && span > INT64_MAX / 16 / d) return false;
        if (d > 1) span *= d;
        n *= d;   /* n <= span: cannot overflow */
    }
    *numel = n;
    return true;
}

static tk_tensor *tensor_alloc(tk_context *ctx)
{
    tk_tensor *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    atomic_init(&t->refs, 1);
    t->ctx = ctx;
    atomic_fetch_add(&ctx->live_tensors, 1);
    return t;
}

tk_status tkr_new(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    *out = NULL;
    int64_t numel;
    tk_status s = check_shape(ctx, "tk_empty", dtype, ndim, shape, &numel);
    if (s) return s;
    TkrStorage *st = calloc(1, sizeof *st);
    tk_tensor *t = st ? tensor_alloc(ctx) : NULL;
    size_t bytes = (size_t)numel * tk_dtype_size(dtype);
    void *data = t ? tkr_alloc(ctx->alloc, bytes, &st->bytes) : NULL;
    if (!data) {
        if (t) {
            atomic_fetch_sub(&ctx->live_tensors, 1);
            free(t);
        }
        free(st);
        char buf[160];
        size_t max = tkr_alloc_max(ctx->alloc);
        if (max && t && st)
            return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "no memory for a %s tensor of shape %s (%zu bytes) within the context's limit of %zu bytes",
                             tk_dtype_name(dtype), tkr_shape_str(ndim, shape, buf, sizeof buf), bytes, max);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "out of memory for a %s tensor of shape %s (%zu bytes)", tk_dtype_name(dtype),
                         tkr_shape_str(ndim, shape, buf, sizeof buf), bytes);
    }
    atomic_init(&st->refs, 1);
    st->kind = TKR_STORAGE_POOL;
    st->data = data;
    st->ctx = ctx;
    t->storage = st;
    t->dtype = dtype;
    t->ndim = ndim;
    if (ndim) memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    tkr_contiguous_strides(ndim, shape, t->strides);
    *out = t;
    return TK_OK;
}

tk_status tkr_new_channels_last(tk_context *ctx, tk_dtype dtype, const int64_t *shape4, tk_tensor **out)
{
    int64_t n = shape4[0], c = shape4[1], h = shape4[2], w = shape4[3];
    tk_status s = tkr_new(ctx, dtype, 4, (int64_t[]){ n, h, w, c }, out);
    if (s) return s;
    tk_tensor *t = *out;   /* new and ours: its geometry is rewritten in place */
    memcpy(t->shape, shape4, 4 * sizeof *shape4);
    int64_t st[4] = { h * w * c, 1, w * c, c };
    memcpy(t->strides, st, sizeof st);
    return TK_OK;
}

tk_status tkr_new_like(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, const tk_tensor *like, tk_tensor **out)
{
    if (like && ndim == 4 && like->ndim == 4 && memcmp(like->shape, shape, 4 * sizeof *shape) == 0 && tk_tensor_is_channels_last(like) &&
        !tk_tensor_is_contiguous(like))
        return tkr_new_channels_last(ctx, dtype, shape, out);
    return tkr_new(ctx, dtype, ndim, shape, out);
}

tk_status tkr_view(tk_context *ctx, const tk_tensor *base, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                   tk_tensor **out)
{
    *out = NULL;
    tk_tensor *t = tensor_alloc(ctx);
    if (!t) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "out of memory for a view");
    atomic_fetch_add(&base->storage->refs, 1);
    t->storage = base->storage;
    t->dtype = base->dtype;
    t->ndim = ndim;
    if (ndim) {
        memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
        memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    }
    t->offset = offset;
    *out = t;
    return TK_OK;
}

static void storage_release(TkrStorage *st)
{
    if (atomic_fetch_sub(&st->refs, 1) != 1) return;
    if (st->kind == TKR_STORAGE_POOL) tkr_free(st->ctx->alloc, st->data, st->bytes);
    else if (st->deleter) st->deleter(st->data, st->deleter_arg);
    free(st);
}

tk_tensor *tk_tensor_retain(tk_tensor *t)
{
    if (t) atomic_fetch_add(&t->refs, 1);
    return t;
}

void tk_tensor_release(tk_tensor *t)
{
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1) return;
    atomic_fetch_sub(&t->ctx->live_tensors, 1);
    tkr_weight_forms_clear(t);
    storage_release(t->storage);
    free(t);
}

tk_dtype tk_tensor_dtype(const tk_tensor *t) { return t ? t->dtype : TK_DTYPE_F32; }
tk_device_type tk_tensor_device(const tk_tensor *t) { return t ? t->ctx->device->type : TK_DEVICE_CPU; }
int tk_tensor_ndim(const tk_tensor *t) { return t ? t->ndim : 0; }
const int64_t *tk_tensor_shape(const tk_tensor *t) { return t ? t->shape : NULL; }
const int64_t *tk_tensor_strides(const tk_tensor *t) { return t ? t->strides : NULL; }
int64_t tk_tensor_offset(const tk_tensor *t) { return t ? t->offset : 0; }
int64_t tk_tensor_numel(const tk_tensor *t) { return t ? tkr_numel(t->ndim, t->shape) : 0; }
void *tk_tensor_data(const tk_tensor *t) { return t ? tkr_ptr(t) : NULL; }
bool tk_tensor_shares_storage(const tk_tensor *a, const tk_tensor *b) { return a && b && a->storage == b->storage; }

int64_t tk_tensor_size(const tk_tensor *t, int dim)
{
    if (!t) return -1;
    if (dim < 0) dim += t->ndim;
    return dim >= 0 && dim < t->ndim ? t->shape[dim] : -1;
}

bool tk_tensor_is_contiguous(const tk_tensor *t)
{
    if (!t) return false;
    int64_t s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 0) return true;
        if (t->shape[i] != 1 && t->strides[i] != s) return false;
        s *= t->shape[i];
    }
    return true;
}

bool tk_tensor_is_channels_last(const tk_tensor *t)
{
    if (!t || t->ndim != 4) return false;
    const int64_t *sh = t->shape;
    int64_t want[4] = { sh[2] * sh[3] * sh[1], 1, sh[3] * sh[1], sh[1] };
    for (int d = 0; d < 4; d++) {
        if (sh[d] == 0) return true;
        if (sh[d] != 1 && t->strides[d] != want[d]) return false;
    }
    return true;
}

tk_status tk_from_blob(tk_context *ctx, void *data, tk_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides,
                       unsigned flags, void (*deleter)(void *, void *), void *deleter_arg, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    int64_t numel;
    tk_status s = check_shape(ctx, "tk_from_blob", dtype, ndim, shape, &numel);
    if (s) return s;
    if (!data && numel) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_from_blob: data is NULL for %lld elements", (long long)numel);
    for (int i = 0; strides && i < ndim; i++)
        if (strides[i] < 0)
            return tkr_error(ctx, TK_ERR_SHAPE, "tk_from_blob: stride %lld of dim %d is negative (TileKit strides are >= 0)",
                             (long long)strides[i], i);
    TkrStorage *st = calloc(1, sizeof *st);
    tk_tensor *t = st ? tensor_alloc(ctx) : NULL;
    if (!t) {
        free(st);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_from_blob: out of memory");
    }
    atomic_init(&st->refs, 1);
    st->kind = TKR_STORAGE_BLOB;
    st->data = data;
    st->readonly = flags & TK_BLOB_READONLY;
    st->deleter = deleter;
    st->deleter_arg = deleter_arg;
    st->ctx = ctx;
    t->storage = st;
    t->dtype = dtype;
    t->ndim = ndim;
    if (ndim) memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    if (strides) memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    else tkr_contiguous_strides(ndim, shape, t->strides);
    *out = t;
    return tkr_ok(ctx);
}

tk_status tk_from_data(tk_context *ctx, const void *data, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_new(ctx, dtype, ndim, shape, out);
    if (s) return s;
    size_t bytes = (size_t)tk_tensor_numel(*out) * tk_dtype_size(dtype);
    if (bytes && !data) {
        tk_tensor_release(*out);
        *out = NULL;
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_from_data: data is NULL");
    }
    char err[512];
    if (bytes && ctx->device->from_host(ctx->device, tkr_ptr(*out), data, bytes, err, sizeof err) != 0) {
        tk_tensor_release(*out);
        *out = NULL;
        return tkr_error(ctx, TK_ERR_INTERNAL, "tk_from_data: copying to %s: %s", ctx->device->name, err);
    }
    return tkr_ok(ctx);
}

tk_status tk_to_data(tk_context *ctx, const tk_tensor *t, void *dst, size_t bytes)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_device_arg(ctx, "tk_to_data", "t", t);
    if (s) return s;
    size_t need = (size_t)tk_tensor_numel(t) * tk_dtype_size(t->dtype);
    if (bytes != need)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_to_data: the tensor holds %zu bytes, the buffer %zu", need, bytes);
    if (need && !dst) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_to_data: dst is NULL");
    tk_tensor *c;
    if ((s = tkr_contiguous(ctx, t, &c))) return s;
    char err[512];
    int rc = need ? ctx->device->to_host(ctx->device, dst, tkr_ptr(c), need, err, sizeof err) : 0;
    tk_tensor_release(c);
    if (rc != 0) return tkr_error(ctx, TK_ERR_INTERNAL, "tk_to_data: copying from %s: %s", ctx->device->name, err);
    return tkr_ok(ctx);
}

char *tk_tensor_describe(const tk_tensor *t, int max_elems)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    if (!t) {
        fputs("(null tensor)", f);
    } else {
        char sh[256], st[256];
        fprintf(f, "tensor(%s, shape %s, strides %s, offset %lld", tk_dtype_name(t->dtype), TKR_SHAPE(t, sh),
                tkr_shape_str(t->ndim, t->strides, st, sizeof st), (long long)t->offset);
        int64_t n = tk_tensor_numel(t);
        if (max_elems > 0 && n > 0) {
            fputs(", [", f);
            int64_t idx[TK_MAX_DIMS] = { 0 };
            for (int64_t i = 0; i < n && i < max_elems; i++) {
                int64_t off = t->offset;
                for (int d = 0; d < t->ndim; d++) off += idx[d] * t->strides[d];
                const char *p = (const char *)t->storage->data + off * (int64_t)tk_dtype_size(t->dtype);
                if (tk_dtype_is_float(t->dtype) || tkr_dtype_is_lowp_float(t->dtype)) fprintf(f, i ? ", %.6g" : "%.6g", tkr_load_f(p, t->dtype));
                else if (t->dtype == TK_DTYPE_U64) fprintf(f, i ? ", %llu" : "%llu", (unsigned long long)*(const uint64_t *)p);
                else fprintf(f, i ? ", %lld" : "%lld", (long long)tkr_load_i(p, t->dtype));
                for (int d = t->ndim - 1; d >= 0; d--) {
                    if (++idx[d] < t->shape[d]) break;
                    idx[d] = 0;
                }
            }
            fputs(n > max_elems ? ", ...]" : "]", f);
        }
        fputs(")", f);
    }
    fclose(f);
    return buf;
}

void tkr_weight_forms_clear(tk_tensor *w)
{
    for (int f = 0; f < TKR_NUM_FORMS; f++) {
        tk_tensor_release(w->forms[f]);
        w->forms[f] = NULL;
    }
}

tk_status tkr_weight_form(tk_context *ctx, const tk_tensor *w, TkrWeightForm form, TkrFormFn make, tk_tensor **out)
{
    *out = NULL;
    if (!w->weight) return make(ctx, w, out);
    tk_tensor *kept = w->forms[form];
    if (!kept) {
        TkrArena *armed = tkr_arena_suspend();   /* kept past this op: never a planned place (alloc.c) */
        tk_status s = make(ctx, w, &kept);
        tkr_arena_resume(armed);
        if (s) return s;
        ((tk_tensor *)w)->forms[form] = kept;   /* a cache on the handle: w's values are unchanged */
    }
    *out = tk_tensor_retain(kept);
    return TK_OK;
}
