/* op_contrib.h — what the com.microsoft contrib op files (op_contrib*.c)
 * share. op_contrib.c holds the family's one table; the files below
 * implement its rows. The op_nn helpers (tko_nn_wrap, tko_nn_to, ...) are
 * reused through op_nn_common.h. */
#ifndef TK_RUNTIME_ONNX_OP_CONTRIB_H
#define TK_RUNTIME_ONNX_OP_CONTRIB_H

#include "op_nn_common.h"

/* True when the node asks for output o (it exists and is not ""). */
bool tko_contrib_wanted(const TkoOpCtx *oc, int o);

/* op_contrib_norm.c */
tk_status tko_contrib_run_skip_layer_norm(TkoOpCtx *oc);       /* arg 0: LayerNorm, 1: simplified (RMS) */
tk_status tko_contrib_run_simplified_layer_norm(TkoOpCtx *oc);
tk_status tko_contrib_run_embed_layer_norm(TkoOpCtx *oc);
const char *tko_contrib_check_embed_layer_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len);

/* op_contrib_attn.c */
/* [B, S, N·H] as [B, N, S, H] (a view); fails naming what when it is not 3-d
 * or heads do not divide its last dim. */
tk_status tko_contrib_heads_view(TkoOpCtx *oc, const tk_tensor *t, int64_t heads, const char *what, tk_tensor **out);
/* [B, N, S, H] back to [B, S, N·H]. */
tk_status tko_contrib_merge_heads(TkoOpCtx *oc, const tk_tensor *y, tk_tensor **out);
const char *tko_contrib_check_mha(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_mha(TkoOpCtx *oc);
const char *tko_contrib_check_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_attention(TkoOpCtx *oc);
const char *tko_contrib_check_rotary(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_rotary(TkoOpCtx *oc);

/* op_contrib_gqa.c */
const char *tko_contrib_check_gqa(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_gqa(TkoOpCtx *oc);

/* op_contrib_fused.c */
tk_status tko_contrib_run_as_onnx(TkoOpCtx *oc);   /* QuantizeLinear, DequantizeLinear, Trilu */
const char *tko_contrib_check_activation(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_fused_conv(TkoOpCtx *oc);
tk_status tko_contrib_run_fused_gemm(TkoOpCtx *oc);
tk_status tko_contrib_run_gemm_fast_gelu(TkoOpCtx *oc);
tk_status tko_contrib_run_matmul_integer_to_float(TkoOpCtx *oc);

/* op_contrib_qlinear.c; def->arg: 0 Add, 1 Mul, 2 Sigmoid, 3 LeakyRelu, 4 GlobalAveragePool */
tk_status tko_contrib_run_qlinear(TkoOpCtx *oc);
tk_status tko_contrib_run_qlinear_concat(TkoOpCtx *oc);
tk_status tko_contrib_run_qgemm(TkoOpCtx *oc);
tk_status tko_contrib_run_qlinear_average_pool(TkoOpCtx *oc);
tk_status tko_contrib_run_qlinear_softmax(TkoOpCtx *oc);

/* op_contrib_quant.c */
const char *tko_contrib_check_matmul_nbits(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_matmul_nbits(TkoOpCtx *oc);
tk_status tko_contrib_run_dynamic_quantize_matmul(TkoOpCtx *oc);
const char *tko_contrib_check_matmul_bnb4(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_matmul_bnb4(TkoOpCtx *oc);
const char *tko_contrib_check_gather_block_quantized(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_gather_block_quantized(TkoOpCtx *oc);

#endif
