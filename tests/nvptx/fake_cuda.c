/* fake_cuda.c — libtk_fake_cuda.so: the CUDA driver API entry points that
 * targets/nvptx/cuda.c looks up, on host memory, so the runtime's GPU glue
 * (memory, copies, module loading, launch parameters, grids) is tested on a
 * machine without a GPU. Kernels never run: PTX is read only for its entry
 * points, their parameter sizes and thread-count directives, and accepted
 * launches are logged for the test to read (fake_cuda.h).
 *
 * Where the real driver refuses something the fake refuses it too, with the
 * same code, so glue that works here should not fail on a GPU for a reason
 * the fake could have seen: calls before cuInit, with no current context on
 * the calling thread, on unknown handles, on device ranges outside an
 * allocation, with block or grid sizes out of range or unlike .reqntid, and
 * PTX for a newer SM than the device, and tensor maps
 * (cuTensorMapEncodeTiled) breaking the rules cuda.h documents. The ABI types
 * are declared as cuda.c declares them. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "fake_cuda.h"
#include "fake_cuda_ptx.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUevent, *CUstream;
typedef uint64_t CUdeviceptr;

enum {
    SUCCESS = 0,
    INVALID_VALUE = 1,
    OUT_OF_MEMORY = 2,
    NOT_INITIALIZED = 3,
    NO_DEVICE = 100,
    INVALID_DEVICE = 101,
    INVALID_IMAGE = 200,
    INVALID_CONTEXT = 201,
    INVALID_PTX = 218,
    INVALID_HANDLE = 400,
    NOT_FOUND = 500,
    ILLEGAL_ADDRESS = 700,
    NOT_SUPPORTED = 801,
};

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
    { SUCCESS, "CUDA_SUCCESS", "no error" },
    { INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
    { INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed" },
    { INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
    { NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
};

enum { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* Limits every current NVIDIA GPU has; launches past them fail on hardware. */
enum { MAX_BLOCK_THREADS = 1024, MAX_BLOCK_Z = 64, MAX_GRID_YZ = 65535, MAX_DYNAMIC_SHARED = 48 * 1024 };
#define MAX_GRID_X 0x7fffffffu
/* No GPU has a terabyte; bigger requests fail here rather than inside ASan. */
#define MAX_ALLOCATION (1ull << 40)

typedef struct {
    char *host;
    size_t size;
} Alloc;

typedef struct Module {
    struct Module *next;
    char *ptx;
    Entry *entries;
    int nentries;
} Module;

typedef struct Event {
    struct Event *next;
    int recorded;
} Event;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int initialized, devices, sm;
    unsigned long long memory_cap;   /* 0: none */
    Alloc *allocs;
    int nallocs, allocs_cap;
    size_t live;
    Module *modules;
    Event *events;
    TkFakeLaunch *launches;   /* launch i at i % TK_FAKE_CUDA_LAUNCHES_KEPT */
    int nlaunches, launches_cap;
    int retained;
    int no_tma;               /* TK_FAKE_CUDA_NO_TMA: cuTensorMapEncodeTiled is NOT_SUPPORTED */
    TkFakeTensorMap *maps;    /* encoding i at i % TK_FAKE_CUDA_MAPS_KEPT */
    int nmaps, maps_cap, map_calls;
    uint32_t map_epoch;       /* bumped by tk_fake_cuda_reset: a map written before names no record */
} S = { .devices = 1, .sm = 90 };

/* The primary context of device 0: its address is the handle. */
static char primary_context;
/* Contexts are current per thread in CUDA: a launch from a thread that never
 * called cuCtxSetCurrent fails on a GPU, so it fails here. */
static _Thread_local void *current_context;

/* ---- settings ---- */

/* The decimal value of environment variable `name` into *out (def if unset):
 * 0, or -1 if it is not a number in [0, max]. */
static int setting(const char *name, unsigned long long def, unsigned long long max, unsigned long long *out)
{
    const char *s = getenv(name);
    *out = def;
    if (!s || !*s) return 0;
    unsigned long long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (max - (unsigned)(*p - '0')) / 10) return -1;
        v = v * 10 + (unsigned)(*p - '0');
    }
    *out = v;
    return 0;
}

/* ---- checks shared by the entry points (lock held) ---- */

static CUresult need_device(CUdevice dev)
{
    if (!S.initialized) return NOT_INITIALIZED;
    return dev >= 0 && dev < S.devices ? SUCCESS : INVALID_DEVICE;
}

/* A call that works in a context: the calling thread's must be live. */
static CUresult need_context(void)
{
    if (!S.initialized) return NOT_INITIALIZED;
    return current_context == &primary_context && S.retained > 0 ? SUCCESS : INVALID_CONTEXT;
}

/* The live allocation holding [d, d + bytes), or NULL. d may equal the
 * allocation's end when bytes is 0 (an empty view past the last element). */
static Alloc *allocation(CUdeviceptr d, size_t bytes)
{
    if (!(d & TK_FAKE_CUDA_DEVICE_BIT)) return NULL;
    uint64_t h = d & ~TK_FAKE_CUDA_DEVICE_BIT;
    for (int i = 0; i < S.nallocs; i++) {
        uint64_t base = (uint64_t)(uintptr_t)S.allocs[i].host, size = S.allocs[i].size;
        if (h >= base && h - base <= size && bytes <= size - (h - base)) return &S.allocs[i];
    }
    return NULL;
}

static void *host_of(CUdeviceptr d)
{
    return (void *)(uintptr_t)(d & ~TK_FAKE_CUDA_DEVICE_BIT);
}

/* A host pointer that is one of ours would fault in memcpy: refuse it instead. */
static int looks_like_device(const void *p)
{
    return ((uint64_t)(uintptr_t)p & TK_FAKE_CUDA_DEVICE_BIT) != 0;
}

static Module *module_of(CUmodule h)
{
    for (Module *m = S.modules; m; m = m->next)
        if ((void *)m == h) return m;
    return NULL;
}

static Entry *entry_of(CUfunction f)
{
    for (Module *m = S.modules; m; m = m->next)
        for (int i = 0; i < m->nentries; i++)
            if ((void *)&m->entries[i] == f) return &m->entries[i];
    return NULL;
}

static Event *event_of(CUevent h)
{
    for (Event *e = S.events; e; e = e->next)
        if ((void *)e == h) return e;
    return NULL;
}

/* ---- errors and the device ---- */

CUresult cuGetErrorName(CUresult r, const char **out)
{
    if (!out) return INVALID_VALUE;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == r) {
            *out = errors[i].name;
            return SUCCESS;
        }
    *out = NULL;
    return INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult r, const char **out)
{
    if (!out) return INVALID_VALUE;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == r) {
            *out = errors[i].text;
            return SUCCESS;
        }
    *out = NULL;
    return INVALID_VALUE;
}

/* Reads the settings each time, so that one test process can try several. */
CUresult cuInit(unsigned flags)
{
    if (flags != 0) return INVALID_VALUE;
    unsigned long long devices, sm, memory, no_tma;
    if (setting("TK_FAKE_CUDA_DEVICES", 1, 64, &devices) != 0 || setting("TK_FAKE_CUDA_SM", 90, 999, &sm) != 0 || sm < 10 ||
        setting("TK_FAKE_CUDA_MEMORY", 0, ~0ull, &memory) != 0 || setting("TK_FAKE_CUDA_NO_TMA", 0, 1, &no_tma) != 0)
        return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    S.devices = (int)devices;
    S.sm = (int)sm;
    S.memory_cap = memory;
    S.no_tma = (int)no_tma;
    S.initialized = devices > 0;
    pthread_mutex_unlock(&lock);
    return devices > 0 ? SUCCESS : NO_DEVICE;
}

CUresult cuDeviceGetCount(int *n)
{
    if (!n) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = S.initialized ? SUCCESS : NOT_INITIALIZED;
    if (r == SUCCESS) *n = S.devices;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    if (!dev) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_device(ordinal);
    if (r == SUCCESS) *dev = ordinal;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!name || len <= 0) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_device(dev);
    if (r == SUCCESS) snprintf(name, (size_t)len, "TileKit fake GPU (sm_%d)", S.sm);
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev)
{
    if (!value) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_device(dev);
    if (r == SUCCESS) {
        if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) *value = S.sm / 10;
        else if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) *value = S.sm % 10;
        else r = INVALID_VALUE;   /* the fake knows no others */
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- the primary context ---- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    if (!ctx) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_device(dev);
    if (r == SUCCESS) {
        S.retained++;
        *ctx = &primary_context;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_device(dev);
    if (r == SUCCESS && S.retained == 0) r = INVALID_CONTEXT;   /* more releases than retains */
    if (r == SUCCESS) S.retained--;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    pthread_mutex_lock(&lock);
    CUresult r = !S.initialized ? NOT_INITIALIZED : !ctx || (ctx == &primary_context && S.retained > 0) ? SUCCESS : INVALID_CONTEXT;
    if (r == SUCCESS) current_context = ctx;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuCtxSynchronize(void)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- memory ---- */

CUresult cuMemAlloc_v2(CUdeviceptr *d, size_t bytes)
{
    if (!d || bytes == 0) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    if (r == SUCCESS && (bytes > MAX_ALLOCATION || (S.memory_cap && bytes > S.memory_cap - S.live))) r = OUT_OF_MEMORY;
    if (r == SUCCESS && S.nallocs == S.allocs_cap) {
        int cap = S.allocs_cap ? 2 * S.allocs_cap : 16;
        Alloc *t = realloc(S.allocs, (size_t)cap * sizeof *t);
        if (t) {
            S.allocs = t;
            S.allocs_cap = cap;
        } else {
            r = OUT_OF_MEMORY;
        }
    }
    char *host = r == SUCCESS ? calloc(1, bytes) : NULL;
    if (r == SUCCESS && !host) r = OUT_OF_MEMORY;
    if (r == SUCCESS) {
        S.allocs[S.nallocs++] = (Alloc){ host, bytes };
        S.live += bytes;
        *d = (uint64_t)(uintptr_t)host | TK_FAKE_CUDA_DEVICE_BIT;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* Only an allocation's base may be freed, as with free(). */
CUresult cuMemFree_v2(CUdeviceptr d)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    if (r == SUCCESS) {
        Alloc *a = allocation(d, 0);
        if (a && host_of(d) == a->host) {
            free(a->host);
            S.live -= a->size;
            *a = S.allocs[--S.nallocs];
        } else {
            r = INVALID_VALUE;
        }
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    if (r == SUCCESS && (!allocation(dst, bytes) || (bytes && (!src || looks_like_device(src))))) r = INVALID_VALUE;
    if (r == SUCCESS && bytes) memcpy(host_of(dst), src, bytes);
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    if (r == SUCCESS && (!allocation(src, bytes) || (bytes && (!dst || looks_like_device(dst))))) r = INVALID_VALUE;
    if (r == SUCCESS && bytes) memcpy(dst, host_of(src), bytes);
    pthread_mutex_unlock(&lock);
    return r;
}

/* memmove: CUDA leaves overlapping copies undefined; the fake gives the tidy answer. */
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    if (r == SUCCESS && (!allocation(dst, bytes) || !allocation(src, bytes))) r = INVALID_VALUE;
    if (r == SUCCESS && bytes) memmove(host_of(dst), host_of(src), bytes);
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- PTX (fake_cuda_ptx.c) ---- */

static void free_module(Module *m)
{
    if (!m) return;
    for (int i = 0; i < m->nentries; i++) free(m->entries[i].name);
    free(m->entries);
    free(m->ptx);
    free(m);
}

/* The entries of m->ptx, and whether the device can run it: SUCCESS, or an
 * error code with the reason in L. */
static CUresult parse_ptx(Module *m, JitLog *L)
{
    FakePtxStatus st = fake_ptx_read(m->ptx, S.sm, &m->entries, &m->nentries, L);
    return st == FAKE_PTX_OK ? SUCCESS : st == FAKE_PTX_NO_MEMORY ? OUT_OF_MEMORY : INVALID_PTX;
}

/* ---- modules ---- */

CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned nopts, int *opts, void **vals)
{
    if (!out || !image || (nopts && (!opts || !vals))) return INVALID_VALUE;
    JitLog L = { NULL, 0, NULL };
    for (unsigned i = 0; i < nopts; i++) {
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER) L.log = vals[i];
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
            L.logsize = (size_t)(uintptr_t)vals[i];
            L.logsize_out = &vals[i];
        }
    }
    if (L.log && L.logsize) L.log[0] = '\0';
    const unsigned char *b = image;
    if ((b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') || (b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)) {
        fake_jit_error(&L, "fake driver: a cubin or fatbin; the fake takes PTX text only");
        return INVALID_IMAGE;
    }
    if (!strstr(image, ".version") || !strstr(image, ".target")) {
        fake_jit_error(&L, "fake driver: not PTX");
        return INVALID_PTX;
    }
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    Module *m = r == SUCCESS ? calloc(1, sizeof *m) : NULL;
    if (r == SUCCESS && (!m || !(m->ptx = strdup(image)))) r = OUT_OF_MEMORY;
    if (r == SUCCESS) r = parse_ptx(m, &L);
    if (r == SUCCESS) {
        m->next = S.modules;
        S.modules = m;
        *out = m;
    } else {
        free_module(m);
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuModuleUnload(CUmodule h)
{
    pthread_mutex_lock(&lock);
    CUresult r = S.initialized ? INVALID_HANDLE : NOT_INITIALIZED;
    for (Module **at = &S.modules; *at; at = &(*at)->next)
        if ((void *)*at == h) {
            Module *m = *at;
            *at = m->next;
            free_module(m);
            r = SUCCESS;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule h, const char *name)
{
    if (!f || !name) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    Module *m = r == SUCCESS ? module_of(h) : NULL;
    if (r == SUCCESS) r = m ? NOT_FOUND : INVALID_HANDLE;
    for (int i = 0; m && i < m->nentries; i++)
        if (strcmp(m->entries[i].name, name) == 0) {
            *f = &m->entries[i];
            r = SUCCESS;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- launches ---- */

/* The block against the limits and the entry's .reqntid/.maxntid. */
static int block_fits(const Entry *e, const unsigned block[3])
{
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (block[0] == 0 || block[1] == 0 || block[2] == 0 || block[0] > MAX_BLOCK_THREADS || block[1] > MAX_BLOCK_THREADS ||
        block[2] > MAX_BLOCK_Z || threads > MAX_BLOCK_THREADS)
        return 0;
    if (e->reqntid[0] && (block[0] != e->reqntid[0] || block[1] != e->reqntid[1] || block[2] != e->reqntid[2])) return 0;
    if (e->maxntid[0] && threads > (unsigned long long)e->maxntid[0] * e->maxntid[1] * e->maxntid[2]) return 0;
    return 1;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream stream, void **params, void **extra)
{
    pthread_mutex_lock(&lock);
    TkFakeLaunch L;
    memset(&L, 0, sizeof L);
    unsigned block[3] = { bx, by, bz };
    CUresult r = need_context();
    const Entry *e = r == SUCCESS ? entry_of(f) : NULL;
    if (r == SUCCESS && (!e || stream)) r = INVALID_HANDLE;   /* the fake has no streams but the default one */
    if (r == SUCCESS && (gx == 0 || gy == 0 || gz == 0 || gx > MAX_GRID_X || gy > MAX_GRID_YZ || gz > MAX_GRID_YZ ||
                         !block_fits(e, block) || shared > MAX_DYNAMIC_SHARED))
        r = INVALID_VALUE;
    /* arguments through kernelParams only: the fake does not unpack `extra` */
    if (r == SUCCESS && (extra || (e->nparams && !params))) r = INVALID_VALUE;
    for (int i = 0; r == SUCCESS && i < e->nparams; i++) {
        if (!params[i]) {
            r = INVALID_VALUE;
            break;
        }
        size_t keep = e->size[i] < TK_FAKE_CUDA_PARAM_BYTES ? (size_t)e->size[i] : TK_FAKE_CUDA_PARAM_BYTES;
        memcpy(L.param[i], params[i], keep);
        L.param_size[i] = e->size[i];
        uint64_t v;
        memcpy(&v, L.param[i], sizeof v);
        /* a kernel would dereference it: it must lie in (or end) a live allocation */
        if (e->pointer[i] && (v & TK_FAKE_CUDA_DEVICE_BIT) && !allocation(v, 0)) r = ILLEGAL_ADDRESS;
    }
    if (r == SUCCESS && S.nlaunches == S.launches_cap && S.launches_cap < TK_FAKE_CUDA_LAUNCHES_KEPT) {
        int cap = S.launches_cap ? 2 * S.launches_cap : 16;
        if (cap > TK_FAKE_CUDA_LAUNCHES_KEPT) cap = TK_FAKE_CUDA_LAUNCHES_KEPT;
        TkFakeLaunch *t = realloc(S.launches, (size_t)cap * sizeof *t);
        if (t) {
            S.launches = t;
            S.launches_cap = cap;
        } else {
            r = OUT_OF_MEMORY;
        }
    }
    if (r == SUCCESS && S.nlaunches == INT_MAX) r = INVALID_VALUE;   /* the count would wrap */
    if (r == SUCCESS) {
        snprintf(L.name, sizeof L.name, "%s", e->name);
        L.grid[0] = gx, L.grid[1] = gy, L.grid[2] = gz;
        L.block[0] = bx, L.block[1] = by, L.block[2] = bz;
        L.shared = shared;
        L.nparams = e->nparams;
        S.launches[S.nlaunches++ % TK_FAKE_CUDA_LAUNCHES_KEPT] = L;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- tensor maps (cuTensorMapEncodeTiled) ---- */

/* Built with TK_FAKE_CUDA_PRE12 (libtk_fake_cuda_pre12.so) the fake is a
 * driver older than CUDA 12, which has no such entry point at all. */
#ifndef TK_FAKE_CUDA_PRE12
enum { MAP_BYTES = 128, MAP_RANK_MAX = 5 };
/* CUtensorMapDataType 0 .. 12 (UINT8 .. TFLOAT32_FTZ): bytes per element; the
 * packed 16U4/16U6 types after them are not modelled */
static const unsigned char map_elem_bytes[] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
enum { MAP_FIRST_FLOAT = 6 };   /* FLOAT16 onwards: the ones a NaN out-of-bounds fill applies to */

/* The rules of cuda.h's cuTensorMapEncodeTiled, in its order (lock held). */
static CUresult check_tensor_map(const void *map, int dtype, uint32_t rank, const void *address, const uint64_t *dim,
                                 const uint64_t *stride, const uint32_t *box, const uint32_t *estride, int interleave, int swizzle,
                                 int l2, int oob)
{
    if (!map || (uintptr_t)map % 64) return INVALID_VALUE;
    if (dtype < 0 || dtype >= (int)sizeof map_elem_bytes) return INVALID_VALUE;
    if (interleave < 0 || interleave > 2 || swizzle < 0 || swizzle > 3 || l2 < 0 || l2 > 3 || oob < 0 || oob > 1) return INVALID_VALUE;
    if (rank < 1 || rank > MAP_RANK_MAX || (interleave && rank < 3)) return INVALID_VALUE;
    if (oob && dtype < MAP_FIRST_FLOAT) return INVALID_VALUE;
    if (interleave == 2 && swizzle != 1) return INVALID_VALUE;   /* INTERLEAVE_32B takes SWIZZLE_32B alone */
    if (!dim || !box || !estride || (rank > 1 && !stride)) return INVALID_VALUE;
    uint64_t esize = map_elem_bytes[dtype], align = interleave == 2 ? 32 : 16, base = (uint64_t)(uintptr_t)address;
    if (base % align) return INVALID_VALUE;
    for (uint32_t k = 0; k < rank; k++)
        if (dim[k] < 1 || dim[k] > (1ull << 32)) return INVALID_VALUE;
    /* each stride spans the dimensions below it: stride[k] >= stride[k-1] · dim[k] (stride[-1] = element size) */
    uint64_t below = dim[0] * esize;
    for (uint32_t k = 0; k + 1 < rank; k++) {
        if (stride[k] % align || stride[k] >= (1ull << 40) || stride[k] < below) return INVALID_VALUE;
        if (__builtin_mul_overflow(stride[k], dim[k + 1], &below)) return INVALID_VALUE;
    }
    for (uint32_t k = 0; k < rank; k++)
        if (box[k] < 1 || box[k] > 256 || estride[k] < 1 || estride[k] > 8) return INVALID_VALUE;
    uint64_t row = box[0] * esize;
    if (!interleave && row % 16) return INVALID_VALUE;
    if (!interleave && swizzle && row > (16ull << swizzle)) return INVALID_VALUE;   /* 32B: 32, 64B: 64, 128B: 128 */
    /* the bytes the tensor reaches, from its first element to past its last */
    uint64_t span = dim[0] * esize;
    for (uint32_t k = 1; k < rank; k++) {
        uint64_t t;
        if (__builtin_mul_overflow(dim[k] - 1, stride[k - 1], &t) || __builtin_add_overflow(span, t, &span)) return INVALID_VALUE;
    }
    return allocation(base, span) ? SUCCESS : INVALID_VALUE;
}

/* No current context is asked for: the map is host data, and what the real
 * driver does without one is not something glue should lean on either way. */
CUresult cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *address, const uint64_t *dim, const uint64_t *stride,
                                const uint32_t *box, const uint32_t *estride, int interleave, int swizzle, int l2, int oob)
{
    pthread_mutex_lock(&lock);
    if (S.map_calls < INT_MAX) S.map_calls++;
    CUresult r = !S.initialized ? NOT_INITIALIZED : S.no_tma ? NOT_SUPPORTED : SUCCESS;
    if (r == SUCCESS) r = check_tensor_map(map, dtype, rank, address, dim, stride, box, estride, interleave, swizzle, l2, oob);
    if (r == SUCCESS && S.nmaps == S.maps_cap && S.maps_cap < TK_FAKE_CUDA_MAPS_KEPT) {
        int cap = S.maps_cap ? 2 * S.maps_cap : 16;
        if (cap > TK_FAKE_CUDA_MAPS_KEPT) cap = TK_FAKE_CUDA_MAPS_KEPT;
        TkFakeTensorMap *t = realloc(S.maps, (size_t)cap * sizeof *t);
        if (t) {
            S.maps = t;
            S.maps_cap = cap;
        } else {
            r = OUT_OF_MEMORY;
        }
    }
    if (r == SUCCESS && S.nmaps == INT_MAX) r = INVALID_VALUE;   /* the count would wrap */
    if (r == SUCCESS) {
        TkFakeTensorMap m;
        memset(&m, 0, sizeof m);
        m.dtype = dtype;
        m.rank = rank;
        m.address = (uint64_t)(uintptr_t)address;
        for (uint32_t k = 0; k < rank; k++) {
            m.dims[k] = dim[k];
            m.box[k] = box[k];
            m.element_strides[k] = estride[k];
            if (k + 1 < rank) m.strides[k] = stride[k];
        }
        m.interleave = interleave;
        m.swizzle = swizzle;
        m.l2_promotion = l2;
        m.oob_fill = oob;
        uint32_t index = (uint32_t)S.nmaps;
        S.maps[S.nmaps++ % TK_FAKE_CUDA_MAPS_KEPT] = m;
        /* the header a test reads back from a launch: magic, epoch, index */
        unsigned char *out = map;
        memset(out, 0xa5, MAP_BYTES);
        memcpy(out, TK_FAKE_CUDA_MAP_MAGIC, 8);
        memcpy(out + 8, &S.map_epoch, 4);
        memcpy(out + 12, &index, 4);
    }
    pthread_mutex_unlock(&lock);
    return r;
}
#endif

/* ---- events: nothing runs, so every kernel takes a microsecond ---- */

CUresult cuEventCreate(CUevent *out, unsigned flags)
{
    (void)flags;
    if (!out) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = need_context();
    Event *e = r == SUCCESS ? calloc(1, sizeof *e) : NULL;
    if (r == SUCCESS && !e) r = OUT_OF_MEMORY;
    if (r == SUCCESS) {
        e->next = S.events;
        S.events = e;
        *out = e;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuEventRecord(CUevent h, CUstream stream)
{
    pthread_mutex_lock(&lock);
    Event *e = event_of(h);
    CUresult r = e && !stream ? SUCCESS : INVALID_HANDLE;
    if (r == SUCCESS) e->recorded = 1;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuEventSynchronize(CUevent h)
{
    pthread_mutex_lock(&lock);
    CUresult r = event_of(h) ? SUCCESS : INVALID_HANDLE;
    pthread_mutex_unlock(&lock);
    return r;
}

/* As the driver: both events must have been recorded. */
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent stop)
{
    if (!ms) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    Event *a = event_of(start), *b = event_of(stop);
    CUresult r = a && b && a->recorded && b->recorded ? SUCCESS : INVALID_HANDLE;
    if (r == SUCCESS) *ms = 0.001f;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent stop)
{
    return cuEventElapsedTime_v2(ms, start, stop);
}

CUresult cuEventDestroy_v2(CUevent h)
{
    pthread_mutex_lock(&lock);
    CUresult r = INVALID_HANDLE;
    for (Event **at = &S.events; *at; at = &(*at)->next)
        if ((void *)*at == h) {
            Event *e = *at;
            *at = e->next;
            free(e);
            r = SUCCESS;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

/* ---- what a test asks (fake_cuda.h) ---- */

int tk_fake_cuda_launch_count(void)
{
    pthread_mutex_lock(&lock);
    int n = S.nlaunches;
    pthread_mutex_unlock(&lock);
    return n;
}

int tk_fake_cuda_launch(int i, TkFakeLaunch *out)
{
    pthread_mutex_lock(&lock);
    int ok = out && i >= 0 && i < S.nlaunches && S.nlaunches - i <= TK_FAKE_CUDA_LAUNCHES_KEPT;
    if (ok) *out = S.launches[i % TK_FAKE_CUDA_LAUNCHES_KEPT];
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

void tk_fake_cuda_reset(void)
{
    pthread_mutex_lock(&lock);
    free(S.launches);
    S.launches = NULL;
    S.nlaunches = S.launches_cap = 0;
    free(S.maps);
    S.maps = NULL;
    S.nmaps = S.maps_cap = S.map_calls = 0;
    S.map_epoch++;
    pthread_mutex_unlock(&lock);
}

int tk_fake_cuda_tensor_map_calls(void)
{
    pthread_mutex_lock(&lock);
    int n = S.map_calls;
    pthread_mutex_unlock(&lock);
    return n;
}

int tk_fake_cuda_tensor_map_count(void)
{
    pthread_mutex_lock(&lock);
    int n = S.nmaps;
    pthread_mutex_unlock(&lock);
    return n;
}

/* lock held */
static int map_at(int i, TkFakeTensorMap *out)
{
    if (i < 0 || i >= S.nmaps || S.nmaps - i > TK_FAKE_CUDA_MAPS_KEPT) return -1;
    if (out) *out = S.maps[i % TK_FAKE_CUDA_MAPS_KEPT];
    return 0;
}

int tk_fake_cuda_tensor_map_at(int i, TkFakeTensorMap *out)
{
    pthread_mutex_lock(&lock);
    int r = map_at(i, out);
    pthread_mutex_unlock(&lock);
    return r;
}

int tk_fake_cuda_tensor_map(const void *map16, TkFakeTensorMap *out)
{
    if (!map16 || memcmp(map16, TK_FAKE_CUDA_MAP_MAGIC, 8) != 0) return -1;
    uint32_t epoch, index;
    memcpy(&epoch, (const unsigned char *)map16 + 8, 4);
    memcpy(&index, (const unsigned char *)map16 + 12, 4);
    pthread_mutex_lock(&lock);
    int r = epoch == S.map_epoch && index <= INT_MAX && map_at((int)index, out) == 0 ? (int)index : -1;
    pthread_mutex_unlock(&lock);
    return r;
}

size_t tk_fake_cuda_live_bytes(void)
{
    pthread_mutex_lock(&lock);
    size_t n = S.live;
    pthread_mutex_unlock(&lock);
    return n;
}

int tk_fake_cuda_live_allocations(void)
{
    pthread_mutex_lock(&lock);
    int n = S.nallocs;
    pthread_mutex_unlock(&lock);
    return n;
}

int tk_fake_cuda_contexts_retained(void)
{
    pthread_mutex_lock(&lock);
    int n = S.retained;
    pthread_mutex_unlock(&lock);
    return n;
}

const void *tk_fake_cuda_host_view(uint64_t dptr)
{
    pthread_mutex_lock(&lock);
    const void *p = allocation(dptr, 1) ? host_of(dptr) : NULL;
    pthread_mutex_unlock(&lock);
    return p;
}

/* Unloaded (dlclose by cuda.c when nothing else holds the library): give back
 * everything, so that a sanitizer's leak check sees none of the fake's. */
__attribute__((destructor)) static void unload(void)
{
    for (int i = 0; i < S.nallocs; i++) free(S.allocs[i].host);
    free(S.allocs);
    while (S.modules) {
        Module *m = S.modules;
        S.modules = m->next;
        free_module(m);
    }
    while (S.events) {
        Event *e = S.events;
        S.events = e->next;
        free(e);
    }
    free(S.launches);
    free(S.maps);
    memset(&S, 0, sizeof S);
}
