/* dlpack_shim.c — a small shared library over the tensor runtime for
 * dlpack_numpy.py (ctypes): plain functions on handles, so the Python side
 * needs no struct layouts. Every function that can fail returns NULL or a
 * status; shim_error gives the message. Nothing here links against Python:
 * the capsule destructor finds the two C-API functions it needs in the
 * running interpreter (dlsym). */
#define _GNU_SOURCE   /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>

#include "tk/dlpack.h"
#include "tk/tk.h"

tk_context *shim_ctx_new(void)
{
    tk_context *ctx = NULL;
    return tk_context_create(NULL, &ctx) == TK_OK ? ctx : NULL;
}

void shim_ctx_free(tk_context *ctx) { tk_context_free(ctx); }
const char *shim_error(tk_context *ctx) { return tk_last_error(ctx); }

int64_t shim_live_tensors(tk_context *ctx)
{
    tk_memory_stats m;
    tk_memory_stats_get(ctx, &m);
    return m.live_tensors;
}

/* 0, 1, ..., n-1 as dtype (a tk_dtype value). */
tk_tensor *shim_arange(tk_context *ctx, int dtype, int64_t n)
{
    tk_tensor *a = NULL, *t = NULL;
    if (tk_arange(ctx, TK_DTYPE_F64, 0, (double)n, 1, &a) == TK_OK) tk_to_dtype(ctx, a, (tk_dtype)dtype, &t);
    tk_tensor_release(a);
    return t;
}

/* A tensor over `base`'s memory with the given geometry (a transposed view,
 * say); base must outlive it. */
tk_tensor *shim_view(tk_context *ctx, tk_tensor *base, int ndim, const int64_t *shape, const int64_t *strides)
{
    tk_tensor *t = NULL;
    tk_from_blob(ctx, tk_tensor_data(base), tk_tensor_dtype(base), ndim, shape, strides, TK_BLOB_WRITABLE, NULL, NULL, &t);
    return t;
}

void shim_release(tk_tensor *t) { tk_tensor_release(t); }
void *shim_data(tk_tensor *t) { return tk_tensor_data(t); }
int shim_dtype(tk_tensor *t) { return (int)tk_tensor_dtype(t); }
int shim_ndim(tk_tensor *t) { return tk_tensor_ndim(t); }
int64_t shim_size(tk_tensor *t, int d) { return tk_tensor_size(t, d); }
int64_t shim_stride(tk_tensor *t, int d) { return tk_tensor_strides(t)[d]; }

/* The element at the multi-index; NaN on failure. */
double shim_get(tk_context *ctx, tk_tensor *t, const int64_t *index)
{
    double v;
    return tk_item(ctx, t, index, &v) == TK_OK ? v : (double)NAN;
}

int shim_fill(tk_context *ctx, tk_tensor *t, double v) { return (int)tk_fill_(ctx, t, v); }

void *shim_to_dlpack(tk_context *ctx, tk_tensor *t, int versioned)
{
    if (versioned) {
        DLManagedTensorVersioned *m = NULL;
        tk_to_dlpack(ctx, t, &m);
        return m;
    }
    DLManagedTensor *m = NULL;
    tk_to_dlpack_legacy(ctx, t, &m);
    return m;
}

tk_tensor *shim_from_dlpack(tk_context *ctx, void *managed, int versioned)
{
    tk_tensor *t = NULL;
    if (versioned) tk_from_dlpack(ctx, managed, &t);
    else tk_from_dlpack_legacy(ctx, managed, &t);
    return t;
}

/* What a capsule's destructor does with a managed tensor nobody consumed. */
void shim_delete_managed(void *managed, int versioned)
{
    if (versioned) {
        DLManagedTensorVersioned *m = managed;
        if (m->deleter) m->deleter(m);
    } else {
        DLManagedTensor *m = managed;
        if (m->deleter) m->deleter(m);
    }
}

/* A PyCapsule destructor (PyCapsule_New's third argument) for exported
 * tensors. By the protocol a capsule that still has its original name was
 * never consumed, so its deleter is ours to call; a consumer renames it
 * ("used_dltensor") and calls the deleter itself later. Written in C because
 * it runs while the capsule is being freed, perhaps with an exception pending
 * (a consumer that refused the tensor): no Python code may run then. */
static int unconsumed;

void shim_capsule_destructor(void *capsule)
{
    static int (*is_valid)(void *, const char *);
    static void *(*get_pointer)(void *, const char *);
    if (!is_valid) {
        is_valid = (int (*)(void *, const char *))dlsym(RTLD_DEFAULT, "PyCapsule_IsValid");
        get_pointer = (void *(*)(void *, const char *))dlsym(RTLD_DEFAULT, "PyCapsule_GetPointer");
        if (!is_valid || !get_pointer) return;
    }
    if (is_valid(capsule, "dltensor")) shim_delete_managed(get_pointer(capsule, "dltensor"), 0), unconsumed++;
    else if (is_valid(capsule, "dltensor_versioned")) shim_delete_managed(get_pointer(capsule, "dltensor_versioned"), 1), unconsumed++;
}

/* How many capsules the destructor found unconsumed. */
int shim_unconsumed_capsules(void) { return unconsumed; }
