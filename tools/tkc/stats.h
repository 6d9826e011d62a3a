/* stats.h — `tkc --stats --target=sm_80|sm_90|sm_90a FILE.tk`: per kernel, what
 * the GPU code costs — registers, shared memory, spills and stack (from
 * NVIDIA's ptxas -v where the CUDA toolkit is installed; said so where it is
 * not; $TK_PTXAS names one, or "none"), the resulting occupancy, and the matrix instructions per K step
 * (counted on the TIR with the target's base tile). */
#ifndef TK_TOOLS_TKC_STATS_H
#define TK_TOOLS_TKC_STATS_H

#include <stdio.h>

#include "tir.h"

/* 0, 1 if the kernels are outside the GPU lowering, -1 on other failures (err). */
int tkc_stats(TirModule *m, const char *target, FILE *out, char *err, size_t errlen);

#endif
