/* run_cuda.h — `tkc run --target=sm_80|sm_90|sm_90a`: the kernel on an NVIDIA
 * GPU through the CUDA driver (targets/nvptx/cuda.h). Its PTX is JIT-compiled
 * by the driver, the arguments are copied to the device once, the grid is
 * computed on the host by the interpreter (tir_interp_grid), and the results
 * are copied back for the check. Without a GPU or driver, a clear message. */
#ifndef TK_TOOLS_TKC_RUN_CUDA_H
#define TK_TOOLS_TKC_RUN_CUDA_H

#include "cuda.h"
#include "run_internal.h"

typedef struct {
    TkCuda *cu;
    TkCudaModule *mod;
    const TirFunc *f;
    unsigned ntensors;
    uint64_t dptr[RUN_MAX_PARAMS];
    size_t bytes[RUN_MAX_PARAMS];
    int64_t sizes[TK_MAX_SIZES];
    void *params[RUN_MAX_PARAMS + TK_MAX_SIZES];
    int64_t grid[3];
    int threads;
    char device[128];
    int sm;
} RunCuda;

/* Compiles m for target, loads kernel f on the GPU and copies A there. RUN_OK, or RUN_FAILED with err. */
int run_cuda_start(RunCuda *G, TirModule *m, const TirFunc *f, const char *target, RunArgs *A, const int64_t *sizes, char *err,
                   size_t errlen);
/* One launch, waited for (a RunLaunchFn for the timing loop): 0 or -1. */
int run_cuda_launch(void *G, char *err, size_t errlen);
/* Copies every tensor back into A. */
int run_cuda_fetch(RunCuda *G, RunArgs *A, char *err, size_t errlen);
void run_cuda_end(RunCuda *G);

#endif
