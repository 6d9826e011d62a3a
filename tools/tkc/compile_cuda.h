/* compile_cuda.h — `tkc -c --target=sm_80|sm_90|sm_90a -o K.o`: a host
 * object that runs the file's kernels on an NVIDIA GPU through libtkrt
 * (tk/rt.h, "NVIDIA GPUs"). It holds the module's PTX, ptxas's cubin for the
 * target when the CUDA toolkit is installed (else the driver compiles the PTX
 * at the first launch), and per kernel NAME:
 *   void NAME__cuda__grid(void **args, const int64_t *sizes, int64_t grid[4]);
 *   const tk_rt_cuda_kernel NAME__cuda_kernel;
 * (and an empty NAME__cuda__block the CPU back end makes beside the grid).
 * The header (header.c, tkc_write_cuda_header) wraps them in NAME_cuda(...). */
#ifndef TK_TOOLS_TKC_COMPILE_CUDA_H
#define TK_TOOLS_TKC_COMPILE_CUDA_H

#include <stdio.h>

#include "tir.h"

/* Writes the object for target to obj. m is consumed: its kernels' bodies are
 * gone afterwards (write the header first). 0; 1 when a kernel is outside
 * what the NVPTX back end supports (err says what); -1 on other failures. */
int tkc_compile_cuda(TirModule *m, const char *target, FILE *obj, char *err, size_t errlen);

#endif
