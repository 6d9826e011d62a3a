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
    bool channels_last;   /* opts->channels_last */
} TkrConvParams;

/* Resolves opts (NULL: all defaults) for nsp spatial dims (1: conv1d, which
 * reads index 0 only, 2: conv2d). Negative values, and output_padding unless
 * `transpose`, are errors naming op. */
tk_status tkr_conv_params(tk_context *ctx, const char *op, const tk_conv_opts *opts, int nsp, bool transpose, TkrConvParams *p);

/* Checks x [N, C, *spatial] and w [*, *, *kernel] (both 2 + nsp dims, one
 * float dtype) and bias (NULL, or [bias_len] of x's dtype). */
tk_status tkr_conv_check_tensors(tk_context *ctx, const char *op, int nsp, const tk_tensor *x, const tk_tensor *w,
                                 const tk_tensor *bias);

/* t as a contiguous tensor of dtype (t itself, retained, when it already is one). */
tk_status tkr_contiguous_as(tk_context *ctx, const tk_tensor *t, tk_dtype dtype, tk_tensor **out);

/* Writes n doubles into dst of dtype (f32 and f64 as tight loops, the others through tkr_store_f). */
void tkr_store_row_f(void *dst, tk_dtype dtype, const double *v, int64_t n);

/* The result options the plain loops apply after computing *out: ReLU in
 * place, then a channels-last copy (replacing *out) when channels_last and
 * *out is 4-d and not channels-last. */
tk_status tkr_conv_epilogue(tk_context *ctx, bool relu, bool channels_last, tk_tensor **out);

/* Releases *out and sets it to NULL when s is a failure; records the op in
 * the profile when it succeeded. Returns s (clearing the message on success). */
tk_status tkr_conv_finish(tk_context *ctx, const char *op, double t0, tk_status s, tk_tensor **out);

#endif
