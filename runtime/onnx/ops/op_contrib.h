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
const char *tko_contrib_check_mha(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_mha(TkoOpCtx *oc);
const char *tko_contrib_check_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_attention(TkoOpCtx *oc);
const char *tko_contrib_check_rotary(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_rotary(TkoOpCtx *oc);

/* op_contrib_quant.c */
const char *tko_contrib_check_matmul_nbits(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_contrib_run_matmul_nbits(TkoOpCtx *oc);
tk_status tko_contrib_run_dynamic_quantize_matmul(TkoOpCtx *oc);

#endif
