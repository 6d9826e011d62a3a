/* ref_gemm.c — double-precision references of the gemm kernels (stdlib-kernels/). See reference.h. */
#include "reference.h"

const TkRefKernel tk_ref_gemm[] = {
    { 0, 0 },
};
