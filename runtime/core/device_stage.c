/* device_stage.c — moving tensors between devices, and the copies a GPU
 * context does through host memory. tk_tensor_to copies contiguous bytes
 * with the devices' own calls. A strided or converting copy on a GPU (a
 * permuted tensor made contiguous, a dtype change, tk_fill_) fetches the
 * span of storage each tensor covers into a host mirror viewed with the same
 * strides, runs the CPU copy there, and writes the destination's span back:
 * correct for any geometry, at the price of two transfers; the runtime has no
 * GPU copy kernels yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Element offsets [lo, hi) of the storage that t reaches. */
static void span_of(const tk_tensor *t, int64_t *lo, int64_t *hi)
{
    *lo = t->offset;
    *hi = t->offset;
    if (tk_tensor_numel(t) == 0) return;
    int64_t far = 0;
    for (int d = 0; d < t->ndim; d++) far += (t->shape[d] - 1) * t->strides[d];
    *hi = t->offset + far + 1;
}

tk_status tkr_mirror_open(tk_context *ctx, const tk_tensor *t, bool fetch, TkrMirror *m)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    int64_t lo, hi;
    span_of(t, &lo, &hi);
    size_t es = tk_dtype_size(t->dtype);
    m->at = (char *)t->storage->data + lo * (int64_t)es;
    m->bytes = (size_t)(hi - lo) * es;
    m->buf = malloc(m->bytes ? m->bytes : 1);
    if (!m->buf) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "staging %zu bytes through the host: out of memory", m->bytes);
    char err[512];
    if (fetch && m->bytes && ctx->device->to_host(ctx->device, m->buf, m->at, m->bytes, err, sizeof err) != 0) {
        tkr_mirror_close(m);
        return tkr_error(ctx, TK_ERR_INTERNAL, "copying from %s: %s", ctx->device->name, err);
    }
    /* t's geometry over the host copy: its offset becomes 0 */
    tk_status s = tk_from_blob(ctx->host, m->buf, t->dtype, t->ndim, t->shape, t->strides, 0, NULL, NULL, &m->host);
    if (s) {
        tkr_mirror_close(m);
        return tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    }
    return TK_OK;
}

tk_status tkr_mirror_store(tk_context *ctx, TkrMirror *m)
{
    char err[512];
    if (m->bytes && ctx->device->from_host(ctx->device, m->at, m->buf, m->bytes, err, sizeof err) != 0)
        return tkr_error(ctx, TK_ERR_INTERNAL, "copying to %s: %s", ctx->device->name, err);
    return TK_OK;
}

void tkr_mirror_close(TkrMirror *m)
{
    tk_tensor_release(m->host);
    free(m->buf);
    memset(m, 0, sizeof *m);
}

tk_status tkr_device_copy_into(tk_context *ctx, const char *op, tk_tensor *dst, const tk_tensor *src)
{
    char err[512];
    bool same_shape = dst->ndim == src->ndim && memcmp(dst->shape, src->shape, (size_t)dst->ndim * sizeof *dst->shape) == 0;
    if (same_shape && dst->dtype == src->dtype && tk_tensor_is_contiguous(dst) && tk_tensor_is_contiguous(src)) {
        size_t bytes = (size_t)tk_tensor_numel(dst) * tk_dtype_size(dst->dtype);
        if (bytes && ctx->device->copy(ctx->device, tkr_ptr(dst), tkr_ptr(src), bytes, err, sizeof err) != 0)
            return tkr_error(ctx, TK_ERR_INTERNAL, "%s: copying on %s: %s", op, ctx->device->name, err);
        return TK_OK;
    }
    TkrMirror ms, md;
    tk_status s = tkr_mirror_open(ctx, src, true, &ms);
    if (s) return s;
    if ((s = tkr_mirror_open(ctx, dst, true, &md))) {
        tkr_mirror_close(&ms);
        return s;
    }
    s = tkr_copy_into(ctx->host, op, md.host, ms.host);
    if (s) s = tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    else s = tkr_mirror_store(ctx, &md);
    tkr_mirror_close(&ms);
    tkr_mirror_close(&md);
    return s;
}

tk_status tkr_moved_from_host(tk_context *ctx, tk_status s, tk_tensor **h, tk_tensor **out)
{
    if (s) {
        *out = NULL;
        return tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    }
    s = tk_tensor_to(ctx, *h, out);
    tk_tensor_release(*h);
    *h = NULL;
    return s;
}

tk_status tk_tensor_to(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!t) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_tensor_to: t is NULL");
    double t0 = tkr_op_start(ctx);
    tk_context *from = t->ctx;
    tk_tensor *c;   /* t made contiguous where it lives */
    tk_status s = tkr_contiguous(from, t, &c);
    if (s) return tkr_error(ctx, s, "tk_tensor_to: %s", tk_last_error(from));
    if ((s = tkr_new(ctx, t->dtype, t->ndim, t->shape, out))) {
        tk_tensor_release(c);
        return s;
    }
    size_t bytes = (size_t)tk_tensor_numel(c) * tk_dtype_size(c->dtype);
    const TkrDevice *src = from->device, *dst = ctx->device;
    char err[512] = "";
    int rc = 0;
    if (!bytes) {
    } else if (src == dst) {
        rc = dst->copy(dst, tkr_ptr(*out), tkr_ptr(c), bytes, err, sizeof err);
    } else if (src == &tkr_cpu_device) {
        rc = dst->from_host(dst, tkr_ptr(*out), tkr_ptr(c), bytes, err, sizeof err);
    } else if (dst == &tkr_cpu_device) {
        rc = src->to_host(src, tkr_ptr(*out), tkr_ptr(c), bytes, err, sizeof err);
    } else {   /* two GPU devices: through the host */
        void *buf = malloc(bytes);
        if (!buf) snprintf(err, sizeof err, "out of memory");
        rc = !buf || src->to_host(src, buf, tkr_ptr(c), bytes, err, sizeof err) != 0 ||
             dst->from_host(dst, tkr_ptr(*out), buf, bytes, err, sizeof err) != 0;
        free(buf);
    }
    tk_tensor_release(c);
    if (rc) {
        tk_tensor_release(*out);
        *out = NULL;
        return tkr_error(ctx, TK_ERR_INTERNAL, "tk_tensor_to: copying from %s to %s: %s", src->name, dst->name, err);
    }
    tkr_op_done(ctx, "tk_tensor_to", t0);
    return tkr_ok(ctx);
}
