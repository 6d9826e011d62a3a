/* gpu_nn.h — the nn ops of a GPU context (gpu_nn.c); each public op calls
 * its function here first when its context is not the CPU's. Same contracts
 * as tk/nn.h. */
#ifndef TK_RUNTIME_OPS_GPU_NN_H
#define TK_RUNTIME_OPS_GPU_NN_H

#include "internal.h"
#include "tk/nn.h"
#include "tk/shape.h"

tk_status tkr_gpu_matmul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
tk_status tkr_gpu_linear(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, tk_tensor **out);
tk_status tkr_gpu_softmax(tk_context *ctx, const tk_tensor *x, int dim, tk_tensor **out);
/* layer_norm (rms false; bias may be NULL) or rms_norm (bias NULL). */
tk_status tkr_gpu_norm(tk_context *ctx, bool rms, const tk_tensor *x, int nd, const tk_tensor *weight, const tk_tensor *bias, double eps,
                       tk_tensor **out);

#endif
