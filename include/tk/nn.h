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

/* Scaled dot-product attention: q [B, H, S, D], k and v [B, HKV, SKV, D] with
 * H a multiple of HKV (GQA: query head h reads KV head h / (H / HKV)).
 *   out = softmax(q·kᵀ · scale + mask) · v        [B, H, S, D]
 * mask (optional): additive float, or bool (true attends, as PyTorch),
 * broadcastable to [B, H, S, SKV] with each leading dim 1 or full. causal:
 * key j is visible to query i iff j <= i + SKV - S (bottom-right aligned —
 * the KV-cache convention; the same as PyTorch's is_causal when S == SKV). A
 * query with no visible key gives 0, not NaN. scale defaults to 1/sqrt(D).
 * f32 and bf16 with D <= 128 run on the stdlib flash-attention kernels (one
 * query row without a mask: the split-KV decode kernels); f16, f64 and wider
 * heads run a plain loop in double. */
typedef struct {
    bool causal;
    const tk_tensor *mask;
    bool has_scale;
    double scale;
} tk_sdpa_opts;
tk_status tk_sdpa(tk_context *ctx, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_sdpa_opts *opts,
                  tk_tensor **out);

/* The transformer MLP in one fused kernel (stdlib ffn.tk; the hidden [T, F]
 * activation never goes to memory). x [..., D]; the weights as the kernels and
 * ONNX MatMul store them, [in, out]: w1 and w3 [D, F], w2 [F, D] (PyTorch's
 * nn.Linear weight is [out, in]: transpose it once with tk_transpose and
 * tk_contiguous).
 *   TK_FFN_SWIGLU:    out = (silu(x·w1) ⊙ (x·w3)) · w2
 *   TK_FFN_GELU_TANH: out = gelu_tanh(x·w1 + b1) · w2 + b2   (w3 unused, biases optional)
 * f32 and bf16 (bf16: f32 accumulation, the hidden activation rounded to bf16
 * once, as the kernels define). */
typedef enum { TK_FFN_SWIGLU = 0, TK_FFN_GELU_TANH = 1 } tk_ffn_activation;
typedef struct {
    tk_ffn_activation activation;
    const tk_tensor *b1, *b2;   /* TK_FFN_GELU_TANH: [F] and [D], may be NULL */
} tk_ffn_opts;
tk_status tk_ffn(tk_context *ctx, const tk_tensor *x, const tk_tensor *w1, const tk_tensor *w3, const tk_tensor *w2, const tk_ffn_opts *opts,
                 tk_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
