/* tk/rt.h — the small run-time a compiled kernel needs and nothing more: the
 * calling convention of the functions tkc generates, and a launcher that runs
 * a grid of blocks over a thread pool. Link with -ltkrt -lpthread (no LLVM).
 *
 * Calling convention. For each kernel NAME, an object from `tkc -c` defines
 *   void NAME__grid(void **args, const int64_t *sizes, int64_t grid[4]);
 *   void NAME__block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);
 * args[p] is the data pointer of tensor parameter p (contiguous, row-major,
 * of its element type: f32 = float, bf16 and f16 = 16-bit patterns) or a
 * pointer to the value of scalar parameter p (bool = one byte). sizes[v] is
 * the value of the kernel's v-th size variable, in order of first appearance
 * in the parameter list. NAME__grid writes the block counts to grid[0..2] and
 * the bytes of stack one block needs to grid[3]; a launcher may run blocks on
 * its own thread when they fit there (a grid function that leaves grid[3]
 * alone gets worker threads only). The generated header wraps both in one
 * typed function per kernel. */
#ifndef TK_RT_H
#define TK_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t tk_bf16;   /* bfloat16 bit pattern */
typedef uint16_t tk_f16;    /* IEEE half bit pattern */

typedef void (*tk_grid_fn)(void **args, const int64_t *sizes, int64_t grid[4]);
typedef void (*tk_block_fn)(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);

/* Threads used when `threads` is 0: $TK_NUM_THREADS, else one per core.
 * After a launch, pool workers poll $TK_WORKER_SPIN_US µs (default 30; 0:
 * none) for the next one before they sleep. */
int tk_rt_threads(int threads);

/* Runs every block of the kernel's grid; returns 0, or -1 if the grid is too
 * large or a thread cannot be started (the message is in tk_rt_error()). */
int tk_rt_launch(tk_grid_fn grid, tk_block_fn block, void **args, const int64_t *sizes, int threads);

/* The message of the last failed launch on this thread ("" if none). */
const char *tk_rt_error(void);

/* ---------------------------------------------------------------- NVIDIA GPUs
 *
 * `tkc -c --target=sm_80|sm_90|sm_90a` writes a host object holding each
 * kernel's PTX (and a cubin for the target when ptxas was found), the host
 * function computing its grid, and a tk_rt_cuda_kernel per kernel; its header
 * wraps them in NAME_cuda(...), which takes device pointers. These calls
 * reach the GPU through the CUDA driver, opened at the first call with
 * dlopen("libcuda.so.1") (or $TK_CUDA_LIBRARY): nothing CUDA is needed to
 * build or link. Device 0's primary context; every call waits for the GPU.
 * Each returns 0, or -1 with the message in tk_rt_error() (no driver, no GPU,
 * the driver's error by name). Link with -ltkrt -ldl -lpthread. */

typedef uint64_t tk_cuda_ptr;   /* a device address (CUdeviceptr) */

typedef struct {
    const char *name;              /* the kernel's entry in the PTX */
    const char *ptx;               /* the module's PTX, NUL-terminated */
    const unsigned char *cubin;    /* ptxas's code for the target, or NULL: the driver compiles the PTX */
    uint64_t cubin_size;
    int32_t threads;               /* per block: warps · 32 */
    int32_t sm;                    /* the target's compute capability: 80, 90 */
    /* Shared tiles the kernel loads by the TMA (sm_90) take a map per tensor
     * and box, passed after the sizes: tma(params, descs) describes them
     * (ntma descriptions of what the map encodes, from params[0 .. nparams):
     * the tensors' addresses and the sizes), and the launch encodes them.
     * NULL and 0 for a kernel without. */
    void (*tma)(void *const *params, void *descs);
    int32_t ntma;
    int32_t nparams;
} tk_rt_cuda_kernel;

/* Runs kernel k on grid[0..2] blocks; params[i] points at the value of the
 * kernel's i-th parameter (tensors: a tk_cuda_ptr; then the sizes, int64);
 * the TMA maps it takes after them are made here. */
int tk_rt_cuda_launch(const tk_rt_cuda_kernel *k, const int64_t grid[3], void **params);
int tk_rt_cuda_malloc(tk_cuda_ptr *p, size_t bytes);
int tk_rt_cuda_free(tk_cuda_ptr p);
int tk_rt_cuda_to_device(tk_cuda_ptr dst, const void *src, size_t bytes);
int tk_rt_cuda_to_host(void *dst, tk_cuda_ptr src, size_t bytes);
/* The GPU's name and compute capability (90 for sm_90). */
int tk_rt_cuda_device(char *name, size_t namelen, int *sm);

#ifdef __cplusplus
}
#endif

#endif
