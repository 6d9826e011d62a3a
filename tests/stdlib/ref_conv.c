/* ref_conv.c — double-precision references of the conv kernels (stdlib-kernels/). See reference.h. */
#include "reference.h"

const TkRefKernel tk_ref_conv[] = {
    { 0, 0 },
};
