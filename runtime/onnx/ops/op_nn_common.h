/* op_nn_common.h — what the neural-network op files (op_nn*.c) share. */
#ifndef TK_RUNTIME_ONNX_OP_NN_COMMON_H
#define TK_RUNTIME_ONNX_OP_NN_COMMON_H

#include "op.h"

/* tko_wrap, unless the message names the node already (a tko_fail deeper
 * down): run functions wrap whatever failed once, at their end. */
tk_status tko_nn_wrap(TkoOpCtx *oc, tk_status s);
/* *t converted to dtype d in place (released and replaced; a no-op when it
 * already is d): ONNX keeps the input's element type where the runtime may
 * promote or compute wider. */
tk_status tko_nn_as_dtype(TkoOpCtx *oc, tk_tensor **t, tk_dtype d);
/* A new reference to t as dtype d (t itself when it already is). */
tk_status tko_nn_to(TkoOpCtx *oc, const tk_tensor *t, tk_dtype d, tk_tensor **out);
/* Releases the n tensors of ts (NULLs are fine). */
void tko_nn_release(tk_tensor **ts, int n);
/* The ints of attribute name into v (at most max); *n = count, 0 when absent.
 * Fails naming the node when there are more than max. */
tk_status tko_nn_attr_ints(TkoOpCtx *oc, const char *name, int64_t *v, int max, int *n);
/* load-time check helper: writes the phrase into why and returns it. */
const char *tko_nn_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* At load: the rank of node n's input i when the model says it (a constant,
 * or a typed value of the main graph), else -1. */
int tko_nn_known_rank(const TkoModel *m, const TkoNode *n, int i);

/* ------------------------------------------------------------ the family's ops
 * op_nn.c holds the one table of the neural-network ops; the files below
 * implement them. */

/* op_nn_conv.c */
const char *tko_nn_check_conv(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_nn_run_conv(TkoOpCtx *oc);
tk_status tko_nn_run_conv_with(TkoOpCtx *oc, bool relu, const float *clip, bool channels_last);
tk_status tko_nn_run_conv_transpose(TkoOpCtx *oc);

/* op_nn_pool.c; def->arg: 0 max, 1 average, 2 Lp */
const char *tko_nn_check_pool(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_nn_run_pool(TkoOpCtx *oc);
tk_status tko_nn_run_global_pool(TkoOpCtx *oc);

/* op_nn_norm.c */
const char *tko_nn_check_batch_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len);
const char *tko_nn_check_stash(const TkoModel *m, const TkoNode *n, char *why, size_t len);
const char *tko_nn_check_lp_norm(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_nn_run_batch_norm(TkoOpCtx *oc);
tk_status tko_nn_run_instance_norm(TkoOpCtx *oc);
tk_status tko_nn_run_group_norm(TkoOpCtx *oc);
tk_status tko_nn_run_layer_norm(TkoOpCtx *oc);
tk_status tko_nn_run_rms_norm(TkoOpCtx *oc);
tk_status tko_nn_run_lrn(TkoOpCtx *oc);
tk_status tko_nn_run_lp_norm(TkoOpCtx *oc);
tk_status tko_nn_run_mvn(TkoOpCtx *oc);

/* op_nn_attention.c */
const char *tko_nn_check_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_nn_run_attention(TkoOpCtx *oc);

/* op_nn_rotary.c */
tk_status tko_nn_run_rotary(TkoOpCtx *oc);

/* op_nn_einsum.c */
tk_status tko_nn_run_einsum(TkoOpCtx *oc);

/* acc &= next for attention masks (acc may start NULL: then it becomes next);
 * takes next's reference. Shared by op_nn_attention.c and the contrib attention. */
tk_status tko_nn_and_into(TkoOpCtx *oc, tk_tensor **acc, tk_tensor *next);

/* op_nn_resize.c */
const char *tko_nn_check_resize(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_nn_run_resize(TkoOpCtx *oc);

#endif
