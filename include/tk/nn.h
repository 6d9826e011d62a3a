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
/* Marks w (this tensor handle) as a constant weight: the layouts the kernels
 * want it in — a linear weight packed for the gemm kernels, a conv weight
 * transposed to HWIO — are made on first use and kept with the handle, so
 * later calls skip the packing. Writing to w afterwards is not seen by those
 * layouts: mark it again to convert again. */
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
 * heads run a plain loop in double.
 * KV cache: k and v may be prefix views of preallocated caches,
 * tk_slice(cache, 2, 0, L) of contiguous [B, HKV, SMAX, D] tensors (strides
 * [HKV·SMAX·D, SMAX·D, D, 1], SMAX >= L, the same SMAX for both): the kernels
 * then read the caches in place and touch no row past L, whatever it holds
 * (docs/TENSOR_API.md, "KV cache"). Other non-contiguous k and v are copied. */
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
 *   TK_FFN_RELU:      out = relu(x·w1 + b1) · w2 + b2        (likewise)
 *   TK_FFN_GELU_ERF:  out = gelu(x·w1 + b1) · w2 + b2        (exact erf GELU; likewise)
 * f32 and bf16 (bf16: f32 accumulation, the hidden activation rounded to bf16
 * once, as the kernels define). Weights marked with tk_mark_weight are packed
 * once into the gemm micro-kernel's layout and kept (ffn_packed.tk). */
typedef enum { TK_FFN_SWIGLU = 0, TK_FFN_GELU_TANH = 1, TK_FFN_RELU = 2, TK_FFN_GELU_ERF = 3 } tk_ffn_activation;
typedef struct {
    tk_ffn_activation activation;
    const tk_tensor *b1, *b2;   /* all but TK_FFN_SWIGLU: [F] and [D], may be NULL */
} tk_ffn_opts;
tk_status tk_ffn(tk_context *ctx, const tk_tensor *x, const tk_tensor *w1, const tk_tensor *w3, const tk_tensor *w2, const tk_ffn_opts *opts,
                 tk_tensor **out);

/* ---------------------------------------------------------------- convolution, pooling, norms, embedding
 *
 * Layout is PyTorch's: activations NCHW ([N, C, H, W]; conv1d [N, C, L]),
 * weights OIHW. A zero option means PyTorch's default, so a zero-initialised
 * struct (or NULL opts) is F.conv2d's defaults: stride 0 → 1, padding 0,
 * dilation 0 → 1, groups 0 → 1, output_padding 0. Index 0 of each pair is H
 * (conv1d: L, and index 1 is ignored), index 1 is W. Negative values are an
 * error. */
typedef struct {
    int64_t stride[2];
    int64_t padding[2];          /* zeros added on both sides */
    int64_t dilation[2];
    int64_t groups;
    int64_t output_padding[2];   /* conv_transpose only (must be 0 for conv): extra rows/cols at the bottom/right */
    bool channels_last;          /* conv2d: return the result channels-last (NHWC memory, tk_tensor_is_channels_last)
                                    even when x is not; a channels-last x gives a channels-last result anyway */
    bool relu;                   /* conv2d/conv1d: max(y, 0) applied to the result, in the kernel's store where it runs
                                    on the stdlib kernels (a fused ReLU) */
    bool clamp;                  /* conv2d/conv1d/conv_transpose2d: y clamped to [clamp_min, clamp_max] (after the relu,
                                    if both are set) — F.hardtanh, relu6 = [0, 6], ONNX Clip: NaN stays NaN; in the
                                    kernel's store where it runs on the stdlib kernels. ±INFINITY leaves a side open;
                                    clamp_min > clamp_max gives clamp_max everywhere, as torch.clamp */
    float clamp_min, clamp_max;
} tk_conv_opts;

/* F.conv2d: x [N, C, H, W], w [OC, C/groups, KH, KW], bias [OC] or NULL, out
 * [N, OC, OH, OW] with OH = (H + 2·pad − dil·(KH − 1) − 1) / stride + 1.
 * x, w and bias share one float dtype. f32 and bf16 with dilation 1, one
 * stride for both axes and groups 1 or depthwise (groups = C = OC) run on the
 * stdlib conv2d kernels (docs/stdlib/conv.md), which work in NHWC: a
 * channels-last x is read in place (any other is copied to NHWC first), w is
 * transposed once for a marked weight (tk_mark_weight) or per call, and the
 * result is written NHWC — returned as it is when x is channels-last or
 * opts->channels_last asks, else copied to NCHW. f32 accumulation, bf16 rounded
 * once; unequal paddings pad x first. Anything else (dilation, other groups,
 * f16, f64) runs a direct loop accumulating in double. Keeping a network's
 * activations channels-last from conv to conv (pools and element-wise ops
 * keep the layout) saves two copies per convolution. */
tk_status tk_conv2d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const tk_conv_opts *opts,
                    tk_tensor **out);
/* F.conv1d: x [N, C, L], w [OC, C/groups, K]; opts index 0. A conv2d with H = 1. */
tk_status tk_conv1d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const tk_conv_opts *opts,
                    tk_tensor **out);
/* F.conv_transpose2d: x [N, C, H, W], w [C, OC/groups, KH, KW], bias [OC] or
 * NULL; OH = (H − 1)·stride − 2·pad + dil·(KH − 1) + output_padding + 1, and
 * output_padding must be below stride or dilation (as PyTorch). A direct loop
 * accumulating in double, one output plane per task (deterministic). */
tk_status tk_conv_transpose2d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias,
                              const tk_conv_opts *opts, tk_tensor **out);

/* Pooling over [N, C, H, W] or [C, H, W]. Output sizes, windows and ceil_mode
 * follow PyTorch exactly: OH = ⌊(H + 2·pad − dil·(k − 1) − 1 + (ceil ? stride − 1 : 0)) / stride⌋ + 1,
 * less one when ceil_mode would start the last window past H + pad; padding
 * at most half the kernel. Max pooling pads with −inf and propagates NaN;
 * avg pooling divides by the window clipped to the padded input
 * (count_include_pad, PyTorch's default) unless exclude_pad, then by the
 * in-image elements. No indices are returned and there is no divisor_override. */
typedef struct {
    int64_t kernel_size[2];   /* required, >= 1 */
    int64_t stride[2];        /* 0: kernel_size (PyTorch's default) */
    int64_t padding[2];
    int64_t dilation[2];      /* max pooling only; 0 → 1 */
    bool ceil_mode;
    bool exclude_pad;         /* avg: count_include_pad = !exclude_pad */
} tk_pool_opts;
tk_status tk_max_pool2d(tk_context *ctx, const tk_tensor *x, const tk_pool_opts *opts, tk_tensor **out);
tk_status tk_avg_pool2d(tk_context *ctx, const tk_tensor *x, const tk_pool_opts *opts, tk_tensor **out);
/* F.adaptive_{avg,max}_pool2d: output cell (i, j) covers rows ⌊i·H/OH⌋ .. ⌈(i+1)·H/OH⌉
 * and likewise columns; out_h, out_w >= 1 (or 0 with an empty result). */
tk_status tk_adaptive_avg_pool2d(tk_context *ctx, const tk_tensor *x, int64_t out_h, int64_t out_w, tk_tensor **out);
tk_status tk_adaptive_max_pool2d(tk_context *ctx, const tk_tensor *x, int64_t out_h, int64_t out_w, tk_tensor **out);

/* F.batch_norm(training=False): x [N, C, ...] (ndim >= 2) normalised per
 * channel with the running statistics, y = (x − mean) / √(var + eps) · weight + bias;
 * running_mean, running_var, weight, bias are [C] (weight and bias may be
 * NULL), float. Computed as x·α + β (PyTorch's form) with α, β per channel in
 * double and the product in f32 for f32, bf16 and f16 x (rounded once to
 * x's dtype), in f64 for f64. */
tk_status tk_batch_norm(tk_context *ctx, const tk_tensor *x, const tk_tensor *running_mean, const tk_tensor *running_var,
                        const tk_tensor *weight, const tk_tensor *bias, double eps, tk_tensor **out);
/* F.group_norm: x [N, C, ...] with C a multiple of groups, statistics (biased
 * variance, two passes) per (sample, group) in double; weight, bias [C] or
 * NULL; the normalisation itself as in tk_batch_norm. */
tk_status tk_group_norm(tk_context *ctx, const tk_tensor *x, int64_t groups, const tk_tensor *weight, const tk_tensor *bias,
                        double eps, tk_tensor **out);

/* F.embedding: out[..., :] = weight[indices[...], :]; weight [V, D] of any
 * dtype, indices i32 or i64 of any shape; out [*indices.shape, D]. An index
 * outside [0, V) is TK_ERR_INDEX naming its position and value (negative ones
 * too, as PyTorch). */
tk_status tk_embedding(tk_context *ctx, const tk_tensor *weight, const tk_tensor *indices, tk_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
