/* ref_attention.c — double-precision references of the attention kernels (stdlib-kernels/). See reference.h. */
#include "reference.h"

const TkRefKernel tk_ref_attention[] = {
    { 0, 0 },
};
