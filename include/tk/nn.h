/* tk/nn.h — linear algebra and neural-network ops on the stdlib .tk kernels
 * (stdlib-kernels/, docs/stdlib/). Ownership and errors as in tk/tensor.h.
 * Names and defaults follow PyTorch; docs/TENSOR_API.md lists differences. */
#ifndef TK_NN_H
#define TK_NN_H

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.matmul: 1-d operands are promoted to a row / column and the added dim
 * dropped again; leading (batch) dims broadcast. f32 and bf16 run on the
 * stdlib gemm kernels (bf16 accumulates in f32 and rounds once); f16 and f64
 * on a plain loop (f64 accumulates in f64). Both operands must have one dtype. */
tk_status tk_matmul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
/* torch.bmm: [B, M, K] · [B, K, N]. */
tk_status tk_bmm(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out);
/* torch.nn.functional.linear: x[..., IN] · w[OUT, IN]ᵀ + bias[OUT] (bias may be NULL). */
tk_status tk_linear(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, tk_tensor **out);
/* Marks w as a constant weight: its packed form for the gemm kernels is made
 * on first use and kept with its storage, so later products skip packing.
 * Writing to w afterwards is not seen by that packing (call again to repack). */
tk_status tk_mark_weight(tk_context *ctx, tk_tensor *w);

/* torch.nn.functional.layer_norm over the last normalized_ndim dims; weight
 * and bias (may be NULL) have those dims' shape. */
tk_status tk_layer_norm(tk_context *ctx, const tk_tensor *x, int normalized_ndim, const tk_tensor *weight, const tk_tensor *bias,
                        double eps, tk_tensor **out);
/* torch.nn.functional.rms_norm over the last normalized_ndim dims (weight may be NULL). */
tk_status tk_rms_norm(tk_context *ctx, const tk_tensor *x, int normalized_ndim, const tk_tensor *weight, double eps,
                      tk_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
