/* cuda.c — see cuda.h. The driver API's types are declared here as the ABI
 * defines them (handles are pointers, CUdeviceptr is 64-bit, CUresult an
 * int): no CUDA header is needed. Versioned entry points are looked up by
 * their current names (cuMemAlloc_v2, ...), as cuda.h's macros do. */
#include "cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUevent, *CUstream;
typedef uint64_t CUdeviceptr;

enum { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

typedef struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
    /* CUDA 12 and newer; NULL before (kernels with TMA maps then cannot run) */
    CUresult (*TensorMapEncodeTiled)(void *, int, uint32_t, void *, const uint64_t *, const uint64_t *, const uint32_t *,
                                     const uint32_t *, int, int, int, int);
} Api;

struct TkCuda {
    void *lib;
    Api api;
    CUdevice dev;
    CUcontext ctx;
};

struct TkCudaModule {
    TkCuda *cu;
    CUmodule mod;
};

/* The driver's own names for the errors a user meets first; it says them
 * itself (cuGetErrorName) except when it is the toolkit's stub library. */
static const struct {
    int code;
    const char *name, *text;
} known[] = {
    { 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of device memory" },
    { 34, "CUDA_ERROR_STUB_LIBRARY", "this is the CUDA toolkit's stub libcuda, not a driver" },
    { 35, "CUDA_ERROR_INSUFFICIENT_DRIVER", "the driver is older than the runtime needs" },
    { 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { 209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for this GPU" },
    { 218, "CUDA_ERROR_INVALID_PTX", "the PTX did not compile" },
    { 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the driver is too old for this PTX version" },
    { 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "the kernel accessed an illegal address" },
};

/* "call: CUDA_ERROR_X (n): text" into err; -1 */
static int cu_fail(const TkCuda *cu, const char *call, CUresult r, char *err, size_t errlen)
{
    const char *name = NULL, *text = NULL;
    if (cu && cu->api.GetErrorName && cu->api.GetErrorName(r, &name) != 0) name = NULL;
    if (cu && cu->api.GetErrorString && cu->api.GetErrorString(r, &text) != 0) text = NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0] && !name; i++)
        if (known[i].code == r) {
            name = known[i].name;
            text = known[i].text;
        }
    snprintf(err, errlen, "%s: %s (%d)%s%s", call, name ? name : "CUDA error", r, text ? ": " : "", text ? text : "");
    return -1;
}

#define CU(cu, call, args)                                                   \
    do {                                                                     \
        CUresult r_ = (cu)->api.call args;                                   \
        if (r_ != 0) return cu_fail((cu), "cu" #call, r_, err, errlen);      \
    } while (0)

/* The driver's current context is per thread: a runtime context may be used
 * from another thread than the one that opened the device, so every entry
 * that touches the GPU makes ours current first (a cheap call). */
#define CURRENT(cu) CU(cu, CtxSetCurrent, ((cu)->ctx))

/* the first of the names the library has */
static void *sym(void *lib, const char *a, const char *b)
{
    void *p = dlsym(lib, a);
    return p || !b ? p : dlsym(lib, b);
}

int tk_cuda_open(TkCuda **out, char *err, size_t errlen)
{
    *out = NULL;
    const char *path = getenv("TK_CUDA_LIBRARY");
    if (!path || !*path) path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(err, errlen, "no CUDA driver: cannot open %s (%s); an NVIDIA GPU and its driver are needed to run sm_* kernels "
                              "(sm_80-emu runs them on the CPU)", path, why ? why : "not found");
        return -1;
    }
    TkCuda *cu = calloc(1, sizeof *cu);
    if (!cu) {
        dlclose(lib);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cu->lib = lib;
    Api *a = &cu->api;
    struct {
        void **slot;
        const char *name, *alt;
    } want[] = {
        { (void **)&a->Init, "cuInit", NULL },
        { (void **)&a->DeviceGetCount, "cuDeviceGetCount", NULL },
        { (void **)&a->DeviceGet, "cuDeviceGet", NULL },
        { (void **)&a->DeviceGetName, "cuDeviceGetName", NULL },
        { (void **)&a->DeviceGetAttribute, "cuDeviceGetAttribute", NULL },
        { (void **)&a->DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL },
        { (void **)&a->DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease" },
        { (void **)&a->CtxSetCurrent, "cuCtxSetCurrent", NULL },
        { (void **)&a->CtxSynchronize, "cuCtxSynchronize", NULL },
        { (void **)&a->ModuleLoadDataEx, "cuModuleLoadDataEx", NULL },
        { (void **)&a->ModuleUnload, "cuModuleUnload", NULL },
        { (void **)&a->ModuleGetFunction, "cuModuleGetFunction", NULL },
        { (void **)&a->MemAlloc, "cuMemAlloc_v2", NULL },
        { (void **)&a->MemFree, "cuMemFree_v2", NULL },
        { (void **)&a->MemcpyHtoD, "cuMemcpyHtoD_v2", NULL },
        { (void **)&a->MemcpyDtoH, "cuMemcpyDtoH_v2", NULL },
        { (void **)&a->MemcpyDtoD, "cuMemcpyDtoD_v2", NULL },
        { (void **)&a->LaunchKernel, "cuLaunchKernel", NULL },
        { (void **)&a->EventCreate, "cuEventCreate", NULL },
        { (void **)&a->EventRecord, "cuEventRecord", NULL },
        { (void **)&a->EventSynchronize, "cuEventSynchronize", NULL },
        { (void **)&a->EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime" },
        { (void **)&a->EventDestroy, "cuEventDestroy_v2", NULL },
        { (void **)&a->GetErrorName, "cuGetErrorName", NULL },
        { (void **)&a->GetErrorString, "cuGetErrorString", NULL },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        *want[i].slot = sym(lib, want[i].name, want[i].alt);
        if (!*want[i].slot) {
            snprintf(err, errlen, "%s has no %s: a CUDA driver older than TileKit supports", path, want[i].name);
            tk_cuda_close(cu);
            return -1;
        }
    }
    a->TensorMapEncodeTiled = sym(lib, "cuTensorMapEncodeTiled", NULL);
    CUresult r = a->Init(0);
    if (r != 0) {
        cu_fail(cu, "cuInit", r, err, errlen);
        tk_cuda_close(cu);
        return -1;
    }
    int n = 0;
    if ((r = a->DeviceGetCount(&n)) != 0 || n < 1) {
        if (r != 0) cu_fail(cu, "cuDeviceGetCount", r, err, errlen);
        else snprintf(err, errlen, "the CUDA driver sees no GPU");
        tk_cuda_close(cu);
        return -1;
    }
    if ((r = a->DeviceGet(&cu->dev, 0)) != 0 || (r = a->DevicePrimaryCtxRetain(&cu->ctx, cu->dev)) != 0 ||
        (r = a->CtxSetCurrent(cu->ctx)) != 0) {
        cu_fail(cu, "opening device 0", r, err, errlen);
        tk_cuda_close(cu);
        return -1;
    }
    *out = cu;
    return 0;
}

void tk_cuda_close(TkCuda *cu)
{
    if (!cu) return;
    if (cu->ctx && cu->api.DevicePrimaryCtxRelease) cu->api.DevicePrimaryCtxRelease(cu->dev);
    if (cu->lib) dlclose(cu->lib);
    free(cu);
}

int tk_cuda_device(TkCuda *cu, char *name, size_t namelen, int *sm, char *err, size_t errlen)
{
    int major = 0, minor = 0;
    CU(cu, DeviceGetName, (name, (int)namelen, cu->dev));
    CU(cu, DeviceGetAttribute, (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu->dev));
    CU(cu, DeviceGetAttribute, (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cu->dev));
    *sm = 10 * major + minor;
    return 0;
}

int tk_cuda_load_ptx(TkCuda *cu, const char *ptx, TkCudaModule **out, char *err, size_t errlen)
{
    return tk_cuda_load_image(cu, ptx, out, err, errlen);
}

int tk_cuda_load_image(TkCuda *cu, const void *ptx, TkCudaModule **out, char *err, size_t errlen)
{
    *out = NULL;
    CURRENT(cu);
    char log[4096] = "";
    int opts[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[2] = { log, (void *)(uintptr_t)sizeof log };
    CUmodule mod;
    CUresult r = cu->api.ModuleLoadDataEx(&mod, ptx, 2, opts, vals);
    if (r != 0) {
        cu_fail(cu, "cuModuleLoadDataEx", r, err, errlen);
        size_t used = strlen(err);
        if (log[0] && used + 3 < errlen) snprintf(err + used, errlen - used, ": %s", log);
        return -1;
    }
    TkCudaModule *m = calloc(1, sizeof *m);
    if (!m) {
        cu->api.ModuleUnload(mod);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->cu = cu;
    m->mod = mod;
    *out = m;
    return 0;
}

void tk_cuda_unload(TkCudaModule *m)
{
    if (!m) return;
    m->cu->api.ModuleUnload(m->mod);
    free(m);
}

int tk_cuda_alloc(TkCuda *cu, size_t bytes, uint64_t *dptr, char *err, size_t errlen)
{
    CURRENT(cu);
    CU(cu, MemAlloc, (dptr, bytes ? bytes : 1));
    return 0;
}

void tk_cuda_free(TkCuda *cu, uint64_t dptr)
{
    if (dptr && cu->api.CtxSetCurrent(cu->ctx) == 0) cu->api.MemFree(dptr);
}

int tk_cuda_copy_to(TkCuda *cu, uint64_t dst, const void *src, size_t bytes, char *err, size_t errlen)
{
    if (!bytes) return 0;
    CURRENT(cu);
    CU(cu, MemcpyHtoD, (dst, src, bytes));
    return 0;
}

int tk_cuda_copy_from(TkCuda *cu, void *dst, uint64_t src, size_t bytes, char *err, size_t errlen)
{
    if (!bytes) return 0;
    CURRENT(cu);
    CU(cu, MemcpyDtoH, (dst, src, bytes));
    return 0;
}

int tk_cuda_copy_device(TkCuda *cu, uint64_t dst, uint64_t src, size_t bytes, char *err, size_t errlen)
{
    if (!bytes) return 0;
    CURRENT(cu);
    CU(cu, MemcpyDtoD, (dst, src, bytes));
    return 0;
}

int tk_cuda_launch(TkCudaModule *m, const char *name, const int64_t grid[3], int threads, void **params, float *ms,
                   char *err, size_t errlen)
{
    TkCuda *cu = m->cu;
    CUfunction fn;
    CURRENT(cu);
    CU(cu, ModuleGetFunction, (&fn, m->mod, name));
    for (int k = 0; k < 3; k++)
        if (grid[k] < 0 || grid[k] > 0x7fffffff) {
            snprintf(err, errlen, "grid dimension %d is %lld: out of CUDA's range", k, (long long)grid[k]);
            return -1;
        }
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return 0;   /* nothing to run */
    CUevent start = NULL, stop = NULL;
    CUresult r = 0;
    if (ms) {   /* every path below destroys the events it made */
        r = cu->api.EventCreate(&start, 0);
        if (r == 0) r = cu->api.EventCreate(&stop, 0);
        if (r == 0) r = cu->api.EventRecord(start, NULL);
    }
    if (r == 0) r = cu->api.LaunchKernel(fn, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2], (unsigned)threads, 1, 1, 0, NULL,
                                      params, NULL);
    if (r == 0 && ms) r = cu->api.EventRecord(stop, NULL);
    if (r == 0) r = cu->api.CtxSynchronize();
    if (r == 0 && ms) r = cu->api.EventElapsedTime(ms, start, stop);
    if (start) cu->api.EventDestroy(start);
    if (stop) cu->api.EventDestroy(stop);
    if (r != 0) {
        char what[160];
        snprintf(what, sizeof what, "running kernel %s", name);
        return cu_fail(cu, what, r, err, errlen);
    }
    return 0;
}

/* CUtensorMapDataType, CUtensorMapSwizzle and CUtensorMapL2promotion as
 * cuda.h numbers them */
enum { CU_MAP_FLOAT16 = 6, CU_MAP_FLOAT32 = 7, CU_MAP_BFLOAT16 = 9 };
enum { CU_MAP_SWIZZLE_NONE = 0, CU_MAP_SWIZZLE_32B = 1, CU_MAP_SWIZZLE_64B = 2, CU_MAP_SWIZZLE_128B = 3 };
enum { CU_MAP_L2_PROMOTION_256B = 3 };

int tk_cuda_encode_map(TkCuda *cu, const TkTmaDesc *d, void *map, char *err, size_t errlen)
{
    memset(map, 0, TK_CUDA_MAP_BYTES);
    if (!tk_tma_usable(d)) return 0;   /* the kernel loads such a tensor element by element and never reads the map */
    if (!cu->api.TensorMapEncodeTiled) {
        snprintf(err, errlen, "this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or newer is needed for sm_90 kernels' TMA loads)");
        return -1;
    }
    CURRENT(cu);   /* the driver may check the address against the current context's memory */
    int dtype = d->dtype == TK_TMA_F32 ? CU_MAP_FLOAT32 : d->dtype == TK_TMA_F16 ? CU_MAP_FLOAT16 : CU_MAP_BFLOAT16;
    int swizzle = d->swizzle == 128 ? CU_MAP_SWIZZLE_128B : d->swizzle == 64 ? CU_MAP_SWIZZLE_64B
                : d->swizzle == 32 ? CU_MAP_SWIZZLE_32B : CU_MAP_SWIZZLE_NONE;
    uint32_t box[TK_TMA_MAX_RANK], unit[TK_TMA_MAX_RANK];
    for (int k = 0; k < d->rank; k++) box[k] = d->box[k], unit[k] = 1;
    /* the driver takes the strides of dimensions 1 .. rank-1 only */
    CUresult r = cu->api.TensorMapEncodeTiled(map, dtype, (uint32_t)d->rank, (void *)(uintptr_t)d->base, d->dims, d->strides + 1, box, unit,
                                              0 /* no interleave */, swizzle, CU_MAP_L2_PROMOTION_256B, 0 /* zeros outside */);
    if (r != 0) return cu_fail(cu, "cuTensorMapEncodeTiled", r, err, errlen), -1;
    return 0;
}
