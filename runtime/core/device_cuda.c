/* device_cuda.c — the CUDA device (TK_DEVICE_CUDA): tensors in the GPU's
 * memory, kernels compiled to PTX (sm_80, or sm_90 on Hopper and newer) and
 * loaded into the driver once per kernel, launched with the grid computed on
 * the host from the sizes (the interpreter's grid, tir_interp_grid). The
 * driver is opened with dlopen (targets/nvptx/cuda.h): nothing CUDA is
 * needed to build, and a machine without one gets a message naming what is
 * missing. Launches wait for the kernel (the runtime is synchronous). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_gpu.h"
#include "cuda.h"
#include "device.h"
#include "gpu_lower.h"
#include "nvptx_mma.h"
#include "tir_bind.h"
#include "tir_interp.h"

typedef struct {
    uint64_t serial;   /* the kernel code's number (tkr_kernel_ptx) */
    TkCudaModule *module;
} Loaded;

typedef struct {
    TkrDevice dev;
    TkCuda *cu;
    int sm;
    char gpu[128];
    char target[16];
    char label[160];   /* "cuda (NVIDIA H100, sm_90)" */
    pthread_mutex_t lock;   /* the module cache: stdlib kernels are shared between threads' contexts */
    Loaded *loaded;
    size_t nloaded, cap;
} Cuda;

static Cuda *cuda_of(const TkrDevice *d) { return (Cuda *)d->impl; }

/* The device pointer behind a void * (the runtime keeps GPU addresses as pointers it never dereferences). */
static uint64_t dptr(const void *p) { return (uint64_t)(uintptr_t)p; }

static void *cuda_alloc(const TkrDevice *d, size_t bytes)
{
    uint64_t p = 0;
    char err[256];
    if (tk_cuda_alloc(cuda_of(d)->cu, bytes, &p, err, sizeof err) != 0) return NULL;
    return (void *)(uintptr_t)p;
}

static void cuda_free(const TkrDevice *d, void *p, size_t bytes)
{
    (void)bytes;
    tk_cuda_free(cuda_of(d)->cu, dptr(p));
}

static int cuda_copy(const TkrDevice *d, void *dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    return tk_cuda_copy_device(cuda_of(d)->cu, dptr(dst), dptr(src), bytes, err, errlen);
}

static int cuda_to_host(const TkrDevice *d, void *host, const void *dev, size_t bytes, char *err, size_t errlen)
{
    return tk_cuda_copy_from(cuda_of(d)->cu, host, dptr(dev), bytes, err, errlen);
}

static int cuda_from_host(const TkrDevice *d, void *dev, const void *host, size_t bytes, char *err, size_t errlen)
{
    return tk_cuda_copy_to(cuda_of(d)->cu, dptr(dev), host, bytes, err, errlen);
}

/* The kernel's module, loaded from its PTX on first use. */
static tk_status module_of(Cuda *c, tk_kernel *k, TkCudaModule **out, char *err, size_t errlen)
{
    const char *ptx;
    uint64_t serial;
    if (tkr_kernel_ptx(k, &ptx, &serial) != TK_OK) {
        snprintf(err, errlen, "%s", tk_kernel_error(k));
        return TK_ERR_TARGET;
    }
    pthread_mutex_lock(&c->lock);
    tk_status s = TK_OK;
    *out = NULL;
    for (size_t i = 0; i < c->nloaded && !*out; i++)
        if (c->loaded[i].serial == serial) *out = c->loaded[i].module;
    if (!*out) {
        if (c->nloaded == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 16;
            Loaded *l = realloc(c->loaded, cap * sizeof *l);
            if (l) c->loaded = l, c->cap = cap;
        }
        if (c->nloaded == c->cap) {
            snprintf(err, errlen, "out of memory");
            s = TK_ERR_OUT_OF_MEMORY;
        } else if (tk_cuda_load_ptx(c->cu, ptx, out, err, errlen) != 0) {
            s = TK_ERR_TARGET;
        } else {
            c->loaded[c->nloaded++] = (Loaded){ serial, *out };
        }
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

static tk_status cuda_run(const TkrDevice *d, tk_kernel *k, const tk_arg *args, unsigned nargs, int threads, char *err, size_t errlen)
{
    (void)threads;
    Cuda *c = cuda_of(d);
    const TirFunc *f = tkr_kernel_tir(k);
    if (tkr_kernel_target_kind(k) != TK_TARGET_NVPTX) {
        snprintf(err, errlen, "kernel %s was compiled for %s; a cuda context runs kernels compiled for an NVIDIA target (%s)", f->display,
                 tkr_kernel_target(k) ? tkr_kernel_target(k) : "the host", c->target);
        return TK_ERR_TARGET;
    }
    int want = tk_nvptx_sm(tkr_kernel_target(k), NULL);
    if (want > c->sm) {
        snprintf(err, errlen, "kernel %s was compiled for %s; this GPU (%s) is sm_%d", f->display, tkr_kernel_target(k), c->gpu, c->sm);
        return TK_ERR_TARGET;
    }
    if (nargs != f->nparams || nargs > 64) {
        snprintf(err, errlen, "kernel %s takes %u arguments, got %u", f->display, f->nparams, nargs);
        return TK_ERR_INVALID_ARGUMENT;
    }
    TkArg targs[64];
    double scalars[64] = { 0 };
    uint64_t ptrs[64];
    void *params[64 + TK_MAX_SIZES + TK_TMA_MAX_MAPS];
    _Alignas(64) unsigned char maps[TK_TMA_MAX_MAPS][TK_CUDA_MAP_BYTES];
    unsigned np = 0;
    for (unsigned i = 0; i < nargs; i++) {
        targs[i].data = args[i].data;
        targs[i].rank = args[i].rank;
        memset(targs[i].shape, 0, sizeof targs[i].shape);
        for (unsigned r = 0; r < args[i].rank && r < 4; r++) targs[i].shape[r] = args[i].shape[r];
        const TkType *t = f->params[i].type;
        if (t->kind == TK_TY_GL) {
            ptrs[i] = dptr(args[i].data);
            params[np++] = &ptrs[i];
            continue;
        }
        switch (t->kind) {   /* the grid may depend on a scalar: the interpreter wants its value */
        case TK_TY_F32: scalars[i] = *(const float *)args[i].data; break;
        case TK_TY_I32: scalars[i] = *(const int32_t *)args[i].data; break;
        case TK_TY_I64: scalars[i] = (double)*(const int64_t *)args[i].data; break;
        default: scalars[i] = *(const uint8_t *)args[i].data != 0; break;
        }
        params[np++] = args[i].data;
    }
    int64_t sizes[TK_MAX_SIZES] = { 0 }, grid[3];
    if (tir_bind_sizes(f, targs, nargs, sizes, err, errlen) != 0) return TK_ERR_SHAPE;
    if (tir_interp_grid(f, scalars, sizes, grid, err, errlen) != 0) return TK_ERR_INVALID_ARGUMENT;
    unsigned nsizes = f->sizes ? f->sizes->count : 0;
    for (unsigned s = 0; s < nsizes; s++) params[np++] = &sizes[s];
    /* the TMA maps the kernel takes after its sizes (sm_90: lower/gpu/gpu_tma.c), from its tensors */
    TkTmaPlan plans[TK_TMA_MAX_MAPS];
    TkGpuTarget gt = { &tk_gpu_nvptx, tkr_kernel_target(k), 32 };
    int nmaps = tk_gpu_tma_plan(f, &gt, plans, TK_TMA_MAX_MAPS);
    for (int j = 0; j < nmaps && j < TK_TMA_MAX_MAPS; j++) {
        const tk_arg *a = &args[plans[j].param];
        TkTmaDesc desc;
        if ((int)a->rank != plans[j].rank) {
            snprintf(err, errlen, "kernel %s: argument %d has rank %u, not %d", f->display, plans[j].param, a->rank, plans[j].rank);
            return TK_ERR_SHAPE;
        }
        tk_tma_describe(&plans[j], dptr(a->data), a->shape, &desc);
        if (tk_cuda_encode_map(c->cu, &desc, maps[j], err, errlen) != 0) return TK_ERR_TARGET;
        params[np++] = maps[j];
    }
    TkCudaModule *m;
    tk_status s = module_of(c, k, &m, err, errlen);
    if (s != TK_OK) return s;
    if (tk_cuda_launch(m, f->name, grid, (f->warps > 0 ? f->warps : 1) * 32, params, NULL, err, errlen) != 0) return TK_ERR_INTERNAL;
    return TK_OK;
}

static void cuda_close(TkrDevice *d)
{
    Cuda *c = cuda_of(d);
    for (size_t i = 0; i < c->nloaded; i++) tk_cuda_unload(c->loaded[i].module);
    free(c->loaded);
    tk_cuda_close(c->cu);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

tk_status tkr_cuda_device_open(TkrDevice **out, char *err, size_t errlen)
{
    *out = NULL;
    Cuda *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "tk_context_create: out of memory");
        return TK_ERR_OUT_OF_MEMORY;
    }
    char why[512];
    if (tk_cuda_open(&c->cu, why, sizeof why) != 0 || tk_cuda_device(c->cu, c->gpu, sizeof c->gpu, &c->sm, why, sizeof why) != 0) {
        snprintf(err, errlen, "tk_context_create: TK_DEVICE_CUDA: %s", why);
        tk_cuda_close(c->cu);
        free(c);
        return TK_ERR_TARGET;
    }
    if (c->sm < 80) {
        snprintf(err, errlen, "tk_context_create: TK_DEVICE_CUDA: %s is sm_%d; TileKit's NVIDIA code needs sm_80 or newer", c->gpu, c->sm);
        tk_cuda_close(c->cu);
        free(c);
        return TK_ERR_TARGET;
    }
    /* Hopper and newer take sm_90 code (sm_90a's wgmma runs on sm_90 parts alone) */
    snprintf(c->target, sizeof c->target, "%s", c->sm >= 90 ? "sm_90" : "sm_80");
    snprintf(c->label, sizeof c->label, "cuda (%s, sm_%d)", c->gpu, c->sm);
    pthread_mutex_init(&c->lock, NULL);
    c->dev = (TkrDevice){
        .name = c->label,
        .type = TK_DEVICE_CUDA,
        .host_ops = false,
        .target = c->target,
        .impl = c,
        .alloc = cuda_alloc,
        .free = cuda_free,
        .copy = cuda_copy,
        .to_host = cuda_to_host,
        .from_host = cuda_from_host,
        .run = cuda_run,
        .close = cuda_close,
    };
    *out = &c->dev;
    return TK_OK;
}
