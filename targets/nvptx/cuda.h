/* cuda.h — the CUDA device: NVIDIA's driver API, opened at run time with
 * dlopen("libcuda.so.1") (or $TK_CUDA_LIBRARY), so nothing CUDA is needed to
 * build TileKit and a machine without a GPU gets a status naming what is
 * missing. One context (the primary context of device 0) per TkCuda.
 *
 * Every function returns 0, or -1 with a one-line message in err that names
 * the driver call and its error ("cuInit: CUDA_ERROR_NO_DEVICE: no
 * CUDA-capable device is detected"). */
#ifndef TK_TARGETS_CUDA_H
#define TK_TARGETS_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_tma_desc.h"

typedef struct TkCuda TkCuda;
typedef struct TkCudaModule TkCudaModule;

/* Opens the driver and device 0. */
int tk_cuda_open(TkCuda **out, char *err, size_t errlen);
void tk_cuda_close(TkCuda *cu);

/* The device's name and compute capability (90 for sm_90). */
int tk_cuda_device(TkCuda *cu, char *name, size_t namelen, int *sm, char *err, size_t errlen);

/* PTX text (NUL-terminated), JIT-compiled by the driver; its error log goes into err. */
int tk_cuda_load_ptx(TkCuda *cu, const char *ptx, TkCudaModule **out, char *err, size_t errlen);
/* A cubin (ptxas's ELF) or PTX text: the driver tells them apart. */
int tk_cuda_load_image(TkCuda *cu, const void *image, TkCudaModule **out, char *err, size_t errlen);
void tk_cuda_unload(TkCudaModule *m);

/* Device memory. */
int tk_cuda_alloc(TkCuda *cu, size_t bytes, uint64_t *dptr, char *err, size_t errlen);
void tk_cuda_free(TkCuda *cu, uint64_t dptr);
int tk_cuda_copy_to(TkCuda *cu, uint64_t dst, const void *src, size_t bytes, char *err, size_t errlen);
int tk_cuda_copy_from(TkCuda *cu, void *dst, uint64_t src, size_t bytes, char *err, size_t errlen);
/* device to device; the ranges must not overlap (CUDA leaves that undefined) */
int tk_cuda_copy_device(TkCuda *cu, uint64_t dst, uint64_t src, size_t bytes, char *err, size_t errlen);

/* A TMA map (CUtensorMap: 128 bytes, 64-byte aligned) for description d,
 * into map. One that tk_tma_usable refuses is all zeros (the kernel does
 * not use it). */
enum { TK_CUDA_MAP_BYTES = 128 };
int tk_cuda_encode_map(TkCuda *cu, const TkTmaDesc *d, void *map, char *err, size_t errlen);

/* Runs kernel `name` of m on grid[0..2] blocks of `threads` threads and waits
 * for it; params[i] points at the value of the kernel's i-th parameter. If ms
 * is not NULL, the kernel's time by CUDA events. */
int tk_cuda_launch(TkCudaModule *m, const char *name, const int64_t grid[3], int threads, void **params, float *ms,
                   char *err, size_t errlen);

#endif
