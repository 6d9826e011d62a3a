/* device.h — the device layer: where a tensor's memory lives and how kernels
 * run there. A device is a struct of function pointers: the CPU, the CUDA
 * driver's GPU (device_cuda.c) and the emulated GPU (device_emu.c: NVIDIA's
 * lowering run on the CPU, for tests without a GPU). The caching allocator
 * sits on top of any device's alloc/free. */
#ifndef TK_RUNTIME_CORE_DEVICE_H
#define TK_RUNTIME_CORE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tk/compiler.h"
#include "tk/rt.h"
#include "tk/tensor.h"

/* A device instance: the CPU's is one static struct; a GPU's is made per
 * context (tkr_device_open) and holds its driver state in impl. Memory
 * pointers are the device's own: the CPU may not dereference a GPU's
 * (host_ops says whether the CPU ops may run on this device's memory). */
typedef struct TkrDevice TkrDevice;
struct TkrDevice {
    const char *name;                 /* "cpu", "cuda", "cuda-emu" */
    tk_device_type type;
    bool host_ops;                    /* the runtime's CPU ops may run on its tensors (the CPU only) */
    const char *target;               /* what its kernels are compiled for: NULL (this CPU), "sm_80-emu", "sm_90", ... */
    void *impl;                       /* the device's state (the CUDA driver, its module cache) */
    /* Raw memory, 64-byte aligned at least (NULL when refused). */
    void *(*alloc)(const TkrDevice *d, size_t bytes);
    void (*free)(const TkrDevice *d, void *p, size_t bytes);
    /* Copies within the device, and between it and host memory: 0, or -1 with a message in err. */
    int (*copy)(const TkrDevice *d, void *dst, const void *src, size_t bytes, char *err, size_t errlen);
    int (*to_host)(const TkrDevice *d, void *host, const void *dev, size_t bytes, char *err, size_t errlen);
    int (*from_host)(const TkrDevice *d, void *dev, const void *host, size_t bytes, char *err, size_t errlen);
    /* Runs kernel k on args (tensor data are this device's pointers) and
     * waits for it: TK_OK, or a status with a message in err. threads: the
     * CPU threads to use where the device runs on the CPU. */
    tk_status (*run)(const TkrDevice *d, tk_kernel *k, const tk_arg *args, unsigned nargs, int threads, char *err, size_t errlen);
    void (*close)(TkrDevice *d);      /* NULL for the static CPU device */
};

extern const TkrDevice tkr_cpu_device;

/* The device of a new context: the CPU's, or a GPU's opened now. TK_OK, or
 * a status with a one-line message naming what is missing (no driver, no
 * GPU, a GPU older than sm_80). */
tk_status tkr_device_open(tk_device_type type, const TkrDevice **out, char *err, size_t errlen);
void tkr_device_close(const TkrDevice *d);
/* The emulated and the CUDA devices (device_emu.c, device_cuda.c). */
tk_status tkr_emu_device_open(TkrDevice **out, char *err, size_t errlen);
tk_status tkr_cuda_device_open(TkrDevice **out, char *err, size_t errlen);
/* The CPU device's memory and its kernel launch, which the emulated GPU shares. */
void *tkr_host_alloc(const TkrDevice *d, size_t bytes);
void tkr_host_free(const TkrDevice *d, void *p, size_t bytes);
int tkr_host_copy(const TkrDevice *d, void *dst, const void *src, size_t bytes, char *err, size_t errlen);
tk_status tkr_host_run(const TkrDevice *d, tk_kernel *k, const tk_arg *args, unsigned nargs, int threads, char *err, size_t errlen);

/* The caching allocator: freed blocks are kept (up to a byte limit) and
 * handed out again for requests of a similar size, so a loop of the same ops
 * asks the system for memory only in its first step. Thread-safe. */
typedef struct TkrAllocator TkrAllocator;
/* max_bytes: live bytes allowed at once (0: any); tkr_alloc returns NULL past it. */
TkrAllocator *tkr_alloc_create(const TkrDevice *dev, size_t cache_limit, size_t max_bytes);
/* The live-bytes limit (0: none). */
size_t tkr_alloc_max(const TkrAllocator *a);
void tkr_alloc_destroy(TkrAllocator *a);
/* At least `bytes` (the block's real size goes to *got); NULL when out of memory. */
void *tkr_alloc(TkrAllocator *a, size_t bytes, size_t *got);
void tkr_free(TkrAllocator *a, void *p, size_t got);
void tkr_alloc_stats(TkrAllocator *a, tk_memory_stats *out);
void tkr_alloc_empty(TkrAllocator *a);

/* Arenas (alloc.c): one block from the allocator (counted as allocated) that
 * a planner (the ONNX executor) carves tensors from at offsets it chose by
 * liveness. Ops allocate their own outputs, so the planner arms the calling
 * thread before an op: its next allocations of exactly the armed sizes come
 * from the arena at the armed offsets (each entry once); any other
 * allocation, or one from another thread, is served as usual. A block handed
 * out from the arena goes back to it through tkr_free; the arena's memory
 * returns to the allocator when the planner released it and no block carved
 * from it is left, so a tensor that outlives the plan keeps it alive. */
typedef struct TkrArena TkrArena;
#define TKR_ARENA_MAX_ARMED 64
TkrArena *tkr_arena_new(TkrAllocator *a, size_t bytes);   /* NULL when out of memory */
void tkr_arena_release(TkrArena *r);                      /* the planner's reference */
size_t tkr_arena_bytes(const TkrArena *r);
char *tkr_arena_base(const TkrArena *r);
bool tkr_arena_contains(const TkrArena *r, const void *p);
/* Blocks handed out and not yet freed (0 between runs of a plan that held). */
size_t tkr_arena_outstanding(TkrArena *r);
/* Arms the calling thread: n (<= TKR_ARENA_MAX_ARMED) entries of sizes[k] bytes at offsets[k]. */
void tkr_arena_arm(TkrArena *r, int n, const size_t *sizes, const size_t *offsets);
/* Disarms it; taken[k]: entry k was handed out; live[k]: and is not freed yet. */
void tkr_arena_disarm(TkrArena *r, bool *taken, bool *live);
/* Memory that outlives the op (a weight's kept layout) must not come from an arena: the
 * calling thread's arming is put aside (the arena it had returned) and later restored. */
TkrArena *tkr_arena_suspend(void);
void tkr_arena_resume(TkrArena *r);

#endif
