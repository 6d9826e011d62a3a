/* kernel_arg.h — a tensor as a stdlib kernel's argument: its data pointer
 * (at its offset), its rank and its first four sizes, which is what the
 * kernels' tensor parameters take (tk/compiler.h's tk_arg). The ops that
 * launch kernels (attention, conv, ffn, matmul) hand it contiguous tensors;
 * strides are the kernel's business. */
#ifndef TK_RUNTIME_CORE_KERNEL_ARG_H
#define TK_RUNTIME_CORE_KERNEL_ARG_H

#include "internal.h"
#include "tk/compiler.h"

static inline tk_arg tkr_kernel_arg(const tk_tensor *t)
{
    tk_arg a = { tkr_ptr(t), { 0, 0, 0, 0 }, (unsigned)t->ndim };
    for (int d = 0; d < t->ndim && d < 4; d++) a.shape[d] = t->shape[d];
    return a;
}

#endif
