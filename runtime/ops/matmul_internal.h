/* matmul_internal.h — what matmul.c offers the runtime beyond tk/nn.h: the
 * packed form of a constant matmul operand (ffn.c reads its weights in it) and
 * tk_linear with the gemm kernels' epilogue (the ONNX FusedLinear node). */
#ifndef TK_RUNTIME_MATMUL_INTERNAL_H
#define TK_RUNTIME_MATMUL_INTERNAL_H

#include "internal.h"

/* b [K, N] f32 or bf16 as gemm.tk's pack_b_X writes it: P[cdiv(N, 256),
 * cdiv(K, 256), 256, 256], zero past K and N. A TkrFormFn for
 * tkr_weight_form(..., TKR_FORM_MATMUL_PACKED, ...). */
tk_status tkr_matmul_pack_b(tk_context *ctx, const tk_tensor *b, tk_tensor **out);

/* gemm.tk's epilogue activations (its act codes). */
typedef enum { TKR_GEMM_ACT_NONE = 0, TKR_GEMM_ACT_RELU = 1, TKR_GEMM_ACT_GELU_TANH = 2, TKR_GEMM_ACT_SILU = 3 } TkrGemmAct;

/* tk_linear, then act(y) + residual in the gemm kernel's store where the
 * product runs on the unpacked f32/bf16 kernels: *fused is set true then.
 * Otherwise (a packed weight, other dtypes) *fused is false and out holds the
 * plain linear: the caller applies act and residual itself. residual (NULL:
 * none) is used only when it has out's shape and dtype and is contiguous. */
tk_status tkr_linear_ep(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, TkrGemmAct act,
                        const tk_tensor *residual, bool *fused, tk_tensor **out);

#endif
