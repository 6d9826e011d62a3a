/* fake_cuda_ptx.h — the PTX reader of the fake CUDA driver (fake_cuda.c):
 * entry points, parameter sizes and thread-count directives. */
#ifndef TK_FAKE_CUDA_PTX_H
#define TK_FAKE_CUDA_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "fake_cuda.h"

typedef struct {
    char *name;
    int nparams;
    int size[TK_FAKE_CUDA_MAX_PARAMS];
    unsigned char pointer[TK_FAKE_CUDA_MAX_PARAMS];   /* .u64/.b64: checked if it looks like a device pointer */
    unsigned reqntid[3], maxntid[3];                  /* 0: no directive */
} Entry;

/* cuModuleLoadDataEx's error log: the caller's buffer, its size, and the
 * option value that takes the bytes written, as the driver's does */
typedef struct {
    char *log;
    size_t logsize;
    void **logsize_out;
} JitLog;

typedef enum { FAKE_PTX_OK, FAKE_PTX_INVALID, FAKE_PTX_NO_MEMORY } FakePtxStatus;

/* Writes a message into L's buffer (printf format), if there is one. */
void fake_jit_error(JitLog *L, const char *fmt, ...);

/* Reads the entries of PTX text into *entries / *nentries, which start as
 * NULL and 0 (the caller frees each name and the array, also after an error), and checks that .target is
 * one a device of sm_<device_sm> runs. FAKE_PTX_INVALID has the reason in L. */
FakePtxStatus fake_ptx_read(const char *ptx, int device_sm, Entry **entries, int *nentries, JitLog *L);

#endif
