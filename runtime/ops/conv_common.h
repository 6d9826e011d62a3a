/* conv_common.h — what conv.c, conv_transpose.c, pool.c and norm_batch.c
 * share: the convolution options resolved to PyTorch's defaults, the checks
 * of a convolution's tensors, and small helpers for the plain loops. */
#ifndef TK_RUNTIME_OPS_CONV_COMMON_H
#define TK_RUNTIME_OPS_CONV_COMMON_H

#include "internal.h"
#include "tk/nn.h"

/* tk_conv_opts with the zeros replaced by PyTorch's defaults. Index 0 is H, 1 is W. */
typedef struct {
    int64_t stride[2], pad[2], dil[2], opad[2];
    int64_t groups;
    bool relu;            /* opts->relu */
    bool clamp;           /* opts->clamp: y clamped to [clamp_min, clamp_max] after the relu */
    float clamp_min, clamp_max;
    bool channels_last;   /* opts->channels_last */
} TkrConvParams;

/* Resolves opts (NULL: all defaults) for nsp spatial dims (1: conv1d, which
 * reads index 0 only, 2: conv2d). Negative values, output_padding unless
 * `transpose`, and a NaN clamp bound are errors naming op. */
tk_status tkr_conv_params(tk_context *ctx, const char *op, const tk_conv_opts *opts, int nsp, bool transpose, TkrConvParams *p);

/* Checks x [N, C, *spatial] and w [*, *, *kernel] (both 2 + nsp dims, one
 * float dtype) and bias (NULL, or [bias_len] of x's dtype). */
tk_status tkr_conv_check_tensors(tk_context *ctx, const char *op, int nsp, const tk_tensor *x, const tk_tensor *w,
                                 const tk_tensor *bias);

/* t as a contiguous tensor of dtype (t itself, retained, when it already is one). */
tk_status tkr_contiguous_as(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out);

/* Writes n doubles into dst of dtype (f32 and f64 as tight loops, the others through tkr_store_f). */
void tkr_store_row_f(void *dst, tk_dtype dtype, const double *v, int64_t n);

/* The activation of p (ReLU, then the clamp) in place on y, for the paths that
 * do not run it in a kernel's store; the same values as the kernels' (NaN: 0
 * after the ReLU, NaN through the clamp). */
tk_status tkr_conv_activate(tk_context *ctx, const TkrConvParams *p, tk_tensor *y);

/* The result options the plain loops apply after computing *out: the
 * activation in place (tkr_conv_activate), then a channels-last copy
 * (replacing *out) when channels_last and *out is 4-d and not channels-last. */
tk_status tkr_conv_epilogue(tk_context *ctx, const TkrConvParams *p, bool channels_last, tk_tensor **out);

/* Releases *out and sets it to NULL when s is a failure; records the op in
 * the profile when it succeeded. Returns s (clearing the message on success). */
tk_status tkr_conv_finish(tk_context *ctx, const char *op, double t0, tk_status s, tk_tensor **out);

#endif
