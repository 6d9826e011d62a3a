/* device.h — the device layer: where a tensor's memory lives and how kernels
 * run there. A device is a struct of function pointers; the CPU is the one
 * today, the GPU back ends add theirs (same fields, their own memory and
 * launch). The caching allocator sits on top of any device's alloc/free. */
#ifndef TK_RUNTIME_CORE_DEVICE_H
#define TK_RUNTIME_CORE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "tk/rt.h"
#include "tk/tensor.h"

typedef struct TkrDevice {
    const char *name;                 /* "cpu" */
    tk_device_type type;
    /* Raw memory from the system, 64-byte aligned (NULL when refused). */
    void *(*alloc)(size_t bytes);
    void (*free)(void *p, size_t bytes);
    /* Copies within the device, and between it and host memory. */
    void (*copy)(void *dst, const void *src, size_t bytes);
    void (*to_host)(void *host, const void *dev, size_t bytes);
    void (*from_host)(void *dev, const void *host, size_t bytes);
    /* Runs a compiled kernel's grid; 0, or -1 with a message in err. */
    int (*launch)(tk_grid_fn grid, tk_block_fn block, void **args, const int64_t *sizes, int threads, char *err,
                  size_t errlen);
    /* Waits for everything launched so far (the CPU runs synchronously). */
    void (*synchronize)(void);
} TkrDevice;

extern const TkrDevice tkr_cpu_device;

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

#endif
