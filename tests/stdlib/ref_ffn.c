/* ref_ffn.c — double-precision references of the ffn kernels (stdlib-kernels/). See reference.h. */
#include "reference.h"

const TkRefKernel tk_ref_ffn[] = {
    { 0, 0 },
};
