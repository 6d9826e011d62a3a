/* fake_cuda.h — what a test can ask libtk_fake_cuda.so (fake_cuda.c), a CUDA
 * driver on host memory that runs no kernels: the launches it was given, the
 * memory still allocated, the primary-context retains, and the bytes behind
 * a device pointer. Code under test reaches the fake through
 * TK_CUDA_LIBRARY=/path/to/libtk_fake_cuda.so; a test links the same library
 * (or dlsyms these names from it) so that both see one state.
 *
 * Settings, read by each cuInit:
 *   TK_FAKE_CUDA_DEVICES  number of devices (default 1; 0: cuInit fails with
 *                         CUDA_ERROR_NO_DEVICE)
 *   TK_FAKE_CUDA_SM       compute capability, e.g. 80 (default 90)
 *   TK_FAKE_CUDA_MEMORY   bytes that may be allocated at once (default: no cap)
 *
 * Device pointers are host addresses with TK_FAKE_CUDA_DEVICE_BIT set: not
 * addresses the CPU can use on x86-64, so host code that dereferences one
 * faults.
 *
 * When the library is unloaded (cuda.c's dlclose, if nothing else holds it)
 * everything it holds is freed, device memory the program kept included. */
#ifndef TK_TESTS_FAKE_CUDA_H
#define TK_TESTS_FAKE_CUDA_H

#include <stddef.h>
#include <stdint.h>

#define TK_FAKE_CUDA_DEVICE_BIT (1ull << 62)
#define TK_FAKE_CUDA_MAX_PARAMS 64
#define TK_FAKE_CUDA_PARAM_BYTES 16
/* the launches kept: a timing loop makes thousands, a test reads the last few */
#define TK_FAKE_CUDA_LAUNCHES_KEPT 4096

/* One cuLaunchKernel that was accepted. param[i] holds the first
 * min(param_size[i], TK_FAKE_CUDA_PARAM_BYTES) bytes of the i-th argument;
 * param_size[i] is its size as the PTX declares it. */
typedef struct {
    char name[128];
    unsigned grid[3], block[3];
    unsigned shared;
    int nparams;
    int param_size[TK_FAKE_CUDA_MAX_PARAMS];
    unsigned char param[TK_FAKE_CUDA_MAX_PARAMS][TK_FAKE_CUDA_PARAM_BYTES];
} TkFakeLaunch;

/* The launches accepted since the library was loaded or last reset. */
int tk_fake_cuda_launch_count(void);
/* The i-th of them (0 first) into *out: 0, or -1 if there is no i-th or it
 * is older than the last TK_FAKE_CUDA_LAUNCHES_KEPT. */
int tk_fake_cuda_launch(int i, TkFakeLaunch *out);
/* Forgets the launches; memory, modules and contexts are untouched. */
void tk_fake_cuda_reset(void);

/* Device memory allocated and not freed: bytes and allocations. */
size_t tk_fake_cuda_live_bytes(void);
int tk_fake_cuda_live_allocations(void);

/* cuDevicePrimaryCtxRetain calls less cuDevicePrimaryCtxRelease calls. */
int tk_fake_cuda_contexts_retained(void);

/* The host bytes behind dptr (which may point inside an allocation), or NULL
 * if dptr is in no live allocation. Valid until that allocation is freed. */
const void *tk_fake_cuda_host_view(uint64_t dptr);

#endif
