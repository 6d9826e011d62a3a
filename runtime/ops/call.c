/* call.c — tk_call: a user's compiled .tk kernel run on tensors. Tensors bind
 * by position to gl parameters (rank and dtype checked here, sizes bound by
 * the launcher from the shapes); scalars to scalar parameters. A
 * non-contiguous tensor goes through a contiguous stand-in, copied back
 * after the launch when the tensor is writable and has no broadcast (stride
 * 0) dims, since the kernel may have written to it. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tk/call.h"

#define TKR_CALL_MAX_ARGS 64

static const char *kind_name(tk_call_arg_kind k)
{
    switch (k) {
    case TK_CALL_ARG_TENSOR: return "a tensor";
    case TK_CALL_ARG_F32: return "an f32 scalar";
    case TK_CALL_ARG_I32: return "an i32 scalar";
    case TK_CALL_ARG_I64: return "an i64 scalar";
    case TK_CALL_ARG_BOOL: return "a bool scalar";
    }
    return "an unknown argument kind";
}

static bool has_broadcast_dim(const tk_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->shape[d] > 1) return true;
    return false;
}

tk_status tk_call(tk_context *ctx, tk_kernel *kernel, const tk_call_arg *args, unsigned nargs)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!kernel) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: kernel is NULL");
    if (nargs && !args) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: args is NULL for %u arguments", nargs);
    unsigned np = tk_kernel_num_params(kernel);
    if (nargs != np) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: the kernel takes %u arguments, got %u", np, nargs);
    if (np > TKR_CALL_MAX_ARGS) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: more than %d arguments", TKR_CALL_MAX_ARGS);

    tk_arg launch[TKR_CALL_MAX_ARGS];
    tk_tensor *standin[TKR_CALL_MAX_ARGS] = { 0 };
    union {
        float f;
        int32_t i32;
        int64_t i64;
        uint8_t b;
    } scalars[TKR_CALL_MAX_ARGS];
    tk_status s = TK_OK;
    for (unsigned i = 0; i < np && !s; i++) {
        tk_param_info p;
        tk_kernel_param(kernel, i, &p);
        const tk_call_arg *a = &args[i];
        if (p.is_tensor) {
            if (a->kind != TK_CALL_ARG_TENSOR) {
                s = tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: parameter %u (%s %s) needs a tensor, got %s", i, p.type, p.name,
                              kind_name(a->kind));
                break;
            }
            const tk_tensor *t = a->tensor;
            char what[64];
            snprintf(what, sizeof what, "argument %u (%s)", i, p.name);
            if ((s = tkr_check_device_arg(ctx, "tk_call", what, t))) break;
            if (t->dtype != p.dtype) {
                s = tkr_error(ctx, TK_ERR_DTYPE, "tk_call: %s is %s, the parameter is %s", what, tk_dtype_name(t->dtype), p.type);
                break;
            }
            if ((unsigned)t->ndim != p.rank) {
                char sh[160];
                s = tkr_error(ctx, TK_ERR_SHAPE, "tk_call: %s has shape %s (%d dims), the parameter %s has %u", what, TKR_SHAPE(t, sh),
                              t->ndim, p.type, p.rank);
                break;
            }
            if (!tk_tensor_is_contiguous(t) && (s = tkr_contiguous(ctx, t, &standin[i]))) break;
            const tk_tensor *use = standin[i] ? standin[i] : t;
            launch[i].data = tkr_ptr(use);
            launch[i].rank = (unsigned)t->ndim;
            memset(launch[i].shape, 0, sizeof launch[i].shape);
            for (int d = 0; d < t->ndim && d < 4; d++) launch[i].shape[d] = t->shape[d];
        } else {
            bool ok = (p.dtype == TK_DTYPE_F32 && a->kind == TK_CALL_ARG_F32) || (p.dtype == TK_DTYPE_I32 && a->kind == TK_CALL_ARG_I32) ||
                      (p.dtype == TK_DTYPE_I64 && a->kind == TK_CALL_ARG_I64) || (p.dtype == TK_DTYPE_BOOL && a->kind == TK_CALL_ARG_BOOL);
            if (!ok) {
                s = tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_call: parameter %u (%s %s) needs a %s scalar, got %s", i, p.type, p.name,
                              p.type, kind_name(a->kind));
                break;
            }
            switch (p.dtype) {
            case TK_DTYPE_F32: scalars[i].f = (float)a->f; break;
            case TK_DTYPE_I32: scalars[i].i32 = (int32_t)a->i; break;
            case TK_DTYPE_I64: scalars[i].i64 = a->i; break;
            default: scalars[i].b = a->i != 0; break;
            }
            launch[i] = (tk_arg){ &scalars[i], { 0, 0, 0, 0 }, 0 };
        }
    }
    if (!s) {
        double t0 = ctx->profile ? tkr_now() : 0;
        char err[1024];
        tk_status ls = ctx->device->run(ctx->device, kernel, launch, np, ctx->threads, err, sizeof err);
        if (ls == TK_ERR_INVALID_ARGUMENT || ls == TK_ERR_SHAPE) {
            /* the launcher's message: a size bound twice to different values, ... */
            s = tkr_error(ctx, TK_ERR_SHAPE, "tk_call: the tensors' shapes do not fit the kernel's parameters: %s", err);
        } else if (ls != TK_OK) {
            s = tkr_error(ctx, ls, "tk_call: kernel %s: %s", tk_kernel_name(kernel), err);
        } else if (ctx->profile) {
            tkr_profile_record(ctx, "kernel", tk_kernel_name(kernel), tkr_now() - t0);
        }
    }
    for (unsigned i = 0; i < np; i++) {
        if (!standin[i]) continue;
        tk_tensor *t = args[i].tensor;
        if (!s && !t->storage->readonly && !has_broadcast_dim(t)) {
            tk_status cs = tk_copy_(ctx, t, standin[i]);
            if (cs) s = cs;
        }
        tk_tensor_release(standin[i]);
    }
    return s ? s : tkr_ok(ctx);
}
