/* rt_cuda.c — the NVIDIA half of tk/rt.h: what an object from `tkc -c
 * --target=sm_*` needs to run its kernels, over the CUDA driver of
 * targets/nvptx/cuda.h (dlopen: no CUDA at build or link time). One driver
 * handle per process, opened at the first call; a kernel's module is loaded
 * once — its cubin when it has one the GPU takes, else its PTX, which the
 * driver compiles — and kept until the process ends. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "launch.h"
#include "tk/rt.h"

typedef struct {
    const tk_rt_cuda_kernel *kernel;
    TkCudaModule *module;
} Loaded;

static struct {
    pthread_mutex_t lock;
    TkCuda *cu;
    int sm;
    char gpu[128];
    Loaded *loaded;
    size_t n, cap;
} rt = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, "", NULL, 0, 0 };

/* tk_rt_error() is "" after a call that succeeded */
static void clear_error(void)
{
    size_t len;
    tk_rt_error_buffer(&len)[0] = '\0';
}

static int fail_with(const char *why)
{
    size_t len;
    char *err = tk_rt_error_buffer(&len);
    snprintf(err, len, "%s", why);
    return -1;
}

/* The driver, opened once (under rt.lock). */
static TkCuda *driver(char *err, size_t errlen)
{
    if (!rt.cu && tk_cuda_open(&rt.cu, err, errlen) == 0 && tk_cuda_device(rt.cu, rt.gpu, sizeof rt.gpu, &rt.sm, err, errlen) != 0) {
        tk_cuda_close(rt.cu);
        rt.cu = NULL;
    }
    return rt.cu;
}

static TkCuda *open_driver(void)
{
    char err[512];
    clear_error();
    pthread_mutex_lock(&rt.lock);
    TkCuda *cu = driver(err, sizeof err);
    pthread_mutex_unlock(&rt.lock);
    if (!cu) fail_with(err);
    return cu;
}

/* k's module, loaded on first use (under rt.lock) */
static TkCudaModule *module_of(const tk_rt_cuda_kernel *k, char *err, size_t errlen)
{
    if (k->sm > rt.sm) {
        snprintf(err, errlen, "kernel %s was compiled for sm_%d; this GPU (%s) is sm_%d", k->name, k->sm, rt.gpu, rt.sm);
        return NULL;
    }
    /* the kernels of one object share its module */
    for (size_t i = 0; i < rt.n; i++)
        if (rt.loaded[i].kernel == k || (rt.loaded[i].kernel->ptx == k->ptx && rt.loaded[i].kernel->cubin == k->cubin))
            return rt.loaded[i].module;
    if (rt.n == rt.cap) {
        size_t cap = rt.cap ? 2 * rt.cap : 16;
        Loaded *l = realloc(rt.loaded, cap * sizeof *l);
        if (!l) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        rt.loaded = l, rt.cap = cap;
    }
    TkCudaModule *m = NULL;
    /* the cubin first; a GPU it was not made for (or a driver that refuses it) gets the PTX */
    if (!(k->cubin && k->cubin_size && tk_cuda_load_image(rt.cu, k->cubin, &m, err, errlen) == 0) &&
        tk_cuda_load_ptx(rt.cu, k->ptx, &m, err, errlen) != 0)
        return NULL;
    rt.loaded[rt.n++] = (Loaded){ k, m };
    return m;
}

int tk_rt_cuda_launch(const tk_rt_cuda_kernel *k, const int64_t grid[3], void **params)
{
    clear_error();
    if (!k || !grid || !params) return fail_with("tk_rt_cuda_launch: a NULL argument");
    char err[1024];
    pthread_mutex_lock(&rt.lock);
    TkCudaModule *m = driver(err, sizeof err) ? module_of(k, err, sizeof err) : NULL;
    pthread_mutex_unlock(&rt.lock);
    if (!m) return fail_with(err);
    if (k->ntma <= 0 || !k->tma) {
        if (tk_cuda_launch(m, k->name, grid, k->threads, params, NULL, err, sizeof err) != 0) return fail_with(err);
        return 0;
    }
    /* the maps, after the parameters and sizes */
    if (k->ntma > TK_TMA_MAX_MAPS || k->nparams < 0 || k->nparams > 256) return fail_with("tk_rt_cuda_launch: a malformed kernel record");
    TkTmaDesc descs[TK_TMA_MAX_MAPS];
    _Alignas(64) unsigned char maps[TK_TMA_MAX_MAPS][TK_CUDA_MAP_BYTES];
    void *all[256 + TK_TMA_MAX_MAPS];
    k->tma(params, descs);
    for (int i = 0; i < k->nparams; i++) all[i] = params[i];
    for (int j = 0; j < k->ntma; j++) {
        if (tk_cuda_encode_map(rt.cu, &descs[j], maps[j], err, sizeof err) != 0) return fail_with(err);
        all[k->nparams + j] = maps[j];
    }
    if (tk_cuda_launch(m, k->name, grid, k->threads, all, NULL, err, sizeof err) != 0) return fail_with(err);
    return 0;
}

int tk_rt_cuda_malloc(tk_cuda_ptr *p, size_t bytes)
{
    char err[512];
    TkCuda *cu = open_driver();
    if (!p) return fail_with("tk_rt_cuda_malloc: p is NULL");
    if (!cu) return -1;
    return tk_cuda_alloc(cu, bytes, p, err, sizeof err) == 0 ? 0 : fail_with(err);
}

int tk_rt_cuda_free(tk_cuda_ptr p)
{
    TkCuda *cu = open_driver();
    if (!cu) return -1;
    tk_cuda_free(cu, p);
    return 0;
}

int tk_rt_cuda_to_device(tk_cuda_ptr dst, const void *src, size_t bytes)
{
    char err[512];
    TkCuda *cu = open_driver();
    if (!cu) return -1;
    return tk_cuda_copy_to(cu, dst, src, bytes, err, sizeof err) == 0 ? 0 : fail_with(err);
}

int tk_rt_cuda_to_host(void *dst, tk_cuda_ptr src, size_t bytes)
{
    char err[512];
    TkCuda *cu = open_driver();
    if (!cu) return -1;
    return tk_cuda_copy_from(cu, dst, src, bytes, err, sizeof err) == 0 ? 0 : fail_with(err);
}

int tk_rt_cuda_device(char *name, size_t namelen, int *sm)
{
    if (!open_driver()) return -1;
    if (name && namelen) snprintf(name, namelen, "%s", rt.gpu);
    if (sm) *sm = rt.sm;
    return 0;
}
