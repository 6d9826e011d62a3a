/* context.c — contexts: device, threads, allocator, profiler, error state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "launch.h"
#include "stdlib_kernels.h"

/* tk_context_create's message when it fails: there is no context to hold it */
static _Thread_local char create_error[512];

tk_status tk_context_create(const tk_context_opts *opts, tk_context **out)
{
    create_error[0] = '\0';
    if (!out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_context_opts o = opts ? *opts : (tk_context_opts){ 0 };
    const TkrDevice *dev;
    tk_status s = tkr_device_open(o.device, &dev, create_error, sizeof create_error);
    if (s) return s;
    tk_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        tkr_device_close(dev);
        snprintf(create_error, sizeof create_error, "tk_context_create: out of memory");
        return TK_ERR_OUT_OF_MEMORY;
    }
    ctx->device = dev;
    ctx->threads = tk_cpu_threads(o.threads);
    ctx->alloc = tkr_alloc_create(ctx->device, o.cache_bytes ? o.cache_bytes : ((size_t)1 << 30), o.max_bytes);
    /* a GPU context stages what only the host can do (random numbers, strided copies) through a CPU context of its own */
    tk_context_opts host = { .device = TK_DEVICE_CPU, .threads = o.threads };
    if (!ctx->alloc || (!dev->host_ops && tk_context_create(&host, &ctx->host) != TK_OK)) {
        if (ctx->alloc) tkr_alloc_destroy(ctx->alloc);
        tkr_device_close(dev);
        free(ctx);
        snprintf(create_error, sizeof create_error, "tk_context_create: out of memory");
        return TK_ERR_OUT_OF_MEMORY;
    }
    const char *env = getenv("TK_PROFILE");
    if (o.profile || (env && *env && strcmp(env, "0") != 0)) tk_profile_enable(ctx, true);
    *out = ctx;
    return TK_OK;
}

void tk_context_free(tk_context *ctx)
{
    if (!ctx) return;
    if (ctx->profile) tkr_profile_print(ctx);
    tkr_profile_free(ctx);
    tkr_stdlib_free(ctx);
    long live = atomic_load(&ctx->live_tensors);
    if (live > 0) {
        fprintf(stderr, "tk_context_free: %ld tensor%s still alive (released after the context: their memory is not freed)\n",
                live, live == 1 ? " is" : "s are");
    } else {
        tkr_alloc_destroy(ctx->alloc);
        tkr_device_close(ctx->device);   /* after its memory went back */
    }
    tk_context_free(ctx->host);
    free(ctx);
}

tk_device_type tk_context_device(const tk_context *ctx) { return ctx ? ctx->device->type : TK_DEVICE_CPU; }
const char *tk_context_device_name(const tk_context *ctx) { return ctx ? ctx->device->name : ""; }

const char *tk_last_error(const tk_context *ctx) { return ctx ? ctx->error : create_error[0] ? create_error : "no context"; }
int tk_context_threads(const tk_context *ctx) { return ctx ? ctx->threads : 0; }

tk_status tk_context_set_threads(tk_context *ctx, int threads)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (threads < 0) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_context_set_threads: threads is %d, must be >= 0", threads);
    ctx->threads = tk_cpu_threads(threads);
    return tkr_ok(ctx);
}

void tk_memory_stats_get(const tk_context *ctx, tk_memory_stats *out)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!ctx) return;
    tkr_alloc_stats(ctx->alloc, out);
    out->live_tensors = atomic_load(&ctx->live_tensors);
}

void tk_memory_empty_cache(tk_context *ctx)
{
    if (ctx) tkr_alloc_empty(ctx->alloc);
}

tk_status tkr_error(tk_context *ctx, tk_status s, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
        va_end(ap);
    }
    return s;
}

tk_status tkr_ok(tk_context *ctx)
{
    if (ctx) ctx->error[0] = '\0';
    return TK_OK;
}

const char *tkr_shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "[");
    for (int i = 0; i < ndim; i++) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (n < len) snprintf(buf + n, len - n, "]");
    return buf;
}

tk_status tkr_check_device_arg(tk_context *ctx, const char *op, const char *arg, const tk_tensor *t)
{
    if (!t) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, arg);
    if (t->ctx != ctx && t->ctx->device != ctx->device)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %s lives on device %s, the context on %s (move it with tk_tensor_to)", op,
                         arg, t->ctx->device->name, ctx->device->name);
    return TK_OK;
}

tk_status tkr_check_arg(tk_context *ctx, const char *op, const char *arg, const tk_tensor *t)
{
    tk_status s = tkr_check_device_arg(ctx, op, arg, t);
    if (s == TK_OK && !ctx->device->host_ops) s = tkr_host_only(ctx, op);
    return s;
}

tk_status tkr_host_only(tk_context *ctx, const char *op)
{
    if (ctx->device->host_ops) return TK_OK;
    return tkr_error(ctx, TK_ERR_UNSUPPORTED,
                     "%s does not run on device %s yet: copy the tensors to a CPU context with tk_tensor_to (on a GPU: views, "
                     "copies, matmul, linear, softmax, layer_norm, rms_norm and tk_call)",
                     op, ctx->device->name);
}

tk_status tkr_axis(tk_context *ctx, const char *op, int axis, int ndim, int *out)
{
    int n = ndim > 0 ? ndim : 1;   /* a 0-d tensor takes axis 0 and -1, as PyTorch */
    if (axis < -n || axis >= n)
        return tkr_error(ctx, TK_ERR_INDEX, "%s: axis %d is out of range for a tensor of %d dim%s (expected %d .. %d)", op, axis, ndim,
                         ndim == 1 ? "" : "s", -n, n - 1);
    *out = axis < 0 ? axis + n : axis;
    return TK_OK;
}
