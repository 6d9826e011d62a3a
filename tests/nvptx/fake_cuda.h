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
 *   TK_FAKE_CUDA_NO_TMA   1: cuTensorMapEncodeTiled fails with
 *                         CUDA_ERROR_NOT_SUPPORTED, as where the driver cannot
 *                         make tensor maps (default 0)
 *
 * Tensor maps. cuTensorMapEncodeTiled checks its arguments against the rules
 * cuda.h documents (map 64-byte aligned; rank 1..5; the address 16-byte
 * aligned and in a live allocation that holds the whole tensor; dims 1..2^32;
 * strides multiples of 16 below 2^40, each at least the extent of the
 * dimensions below it; box 1..256 per dimension with box[0] · element size a
 * multiple of 16 and within the swizzle's span; element strides 1..8; the
 * enums in range) and returns CUDA_ERROR_INVALID_VALUE where one is broken.
 * It knows the data types of 1 to 8 bytes (UINT8 .. TFLOAT32_FTZ), not the
 * packed 16U4/16U6 ones, and swizzles NONE .. 128B, not the 128B_ATOM ones.
 * An encoding it accepts is recorded (TkFakeTensorMap) and the map's first
 * 16 bytes name the record — the bytes a launch log keeps of a parameter —
 * so a test finds which encoding a kernel was given with tk_fake_cuda_tensor_map;
 * the other 112 bytes are 0xa5, never all zeros. It asks for cuInit, not
 * for a current context. libtk_fake_cuda_pre12.so (fake_cuda.c built with
 * TK_FAKE_CUDA_PRE12) is a driver older than CUDA 12: no such entry point.
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
/* the same for tensor map encodings (a launch of a TMA kernel makes one per map) */
#define TK_FAKE_CUDA_MAPS_KEPT 4096
/* the first 8 bytes of a map the fake encoded */
#define TK_FAKE_CUDA_MAP_MAGIC "TKfakeTM"

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
/* Forgets the launches and the tensor map encodings (maps written before
 * name no record afterwards); memory, modules and contexts are untouched. */
void tk_fake_cuda_reset(void);

/* One cuTensorMapEncodeTiled call that was accepted: its arguments, as the
 * driver took them (enums as cuda.h numbers them). */
typedef struct {
    int dtype;                   /* CUtensorMapDataType: FLOAT16 6, FLOAT32 7, BFLOAT16 9, ... */
    unsigned rank;
    uint64_t address;            /* globalAddress */
    uint64_t dims[5];            /* globalDim, innermost first; rank of them */
    uint64_t strides[4];         /* globalStrides in bytes of dims 1 .. rank-1; rank - 1 of them */
    uint32_t box[5];             /* boxDim */
    uint32_t element_strides[5];
    int interleave;              /* CUtensorMapInterleave: NONE 0 */
    int swizzle;                 /* CUtensorMapSwizzle: NONE 0, 32B 1, 64B 2, 128B 3 */
    int l2_promotion;            /* CUtensorMapL2promotion: NONE 0 .. L2_256B 3 */
    int oob_fill;                /* CUtensorMapFloatOOBfill: NONE (zeros) 0, NAN_REQUEST_ZERO_FMA 1 */
} TkFakeTensorMap;

/* cuTensorMapEncodeTiled calls since the library was loaded or last reset,
 * refused ones included; and the encodings accepted among them. */
int tk_fake_cuda_tensor_map_calls(void);
int tk_fake_cuda_tensor_map_count(void);
/* The i-th accepted encoding (0 first) into *out: 0, or -1 if there is none
 * or it is older than the last TK_FAKE_CUDA_MAPS_KEPT. */
int tk_fake_cuda_tensor_map_at(int i, TkFakeTensorMap *out);
/* The encoding whose map begins with the 16 bytes at map16 (a map, or a
 * launch's TkFakeLaunch.param of one): its index (>= 0) with *out filled, or
 * -1 if those bytes are no map of the fake's since the last reset (all
 * zeros, for one). out may be NULL. */
int tk_fake_cuda_tensor_map(const void *map16, TkFakeTensorMap *out);

/* Device memory allocated and not freed: bytes and allocations. */
size_t tk_fake_cuda_live_bytes(void);
int tk_fake_cuda_live_allocations(void);

/* cuDevicePrimaryCtxRetain calls less cuDevicePrimaryCtxRelease calls. */
int tk_fake_cuda_contexts_retained(void);

/* The host bytes behind dptr (which may point inside an allocation), or NULL
 * if dptr is in no live allocation. Valid until that allocation is freed. */
const void *tk_fake_cuda_host_view(uint64_t dptr);

#endif
