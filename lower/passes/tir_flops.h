/* tir_flops.h — how many floating-point operations a launch performs in its
 * matrix products (2·M·N·K per mma), found by running only the scalar part
 * of the kernel (loop bounds, conditions, scalar slots) for every block and
 * warp. Element-wise work is not counted: GFLOP/s figures are mma FLOPs. */
#ifndef TK_LOWER_TIR_FLOPS_H
#define TK_LOWER_TIR_FLOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "tir.h"

/* Returns false if a loop bound or condition depends on tile data (then the
 * count is unknown). scalars[p] holds scalar parameter p. */
bool tir_count_flops(const TirFunc *f, const double *scalars, const int64_t *sizes, double *flops);

#endif
