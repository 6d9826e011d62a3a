/* ref_norms.c — double-precision references of the norms kernels (stdlib-kernels/). See reference.h. */
#include "reference.h"

const TkRefKernel tk_ref_norms[] = {
    { 0, 0 },
};
