/* op_ext.h — the "ext" family: the remaining ops of the ONNX node suite
 * (sampling, detection, column/image, attention-style and bit ops), each
 * group in its own op_ext_*.c. They compute in plain loops over contiguous
 * double copies of their inputs (the runtime has no kernel for them) and
 * convert the result back to the input's dtype, as ONNX keeps types. */
#ifndef TK_RUNTIME_ONNX_OP_EXT_H
#define TK_RUNTIME_ONNX_OP_EXT_H

#include "op.h"

/* Input i as a new contiguous f64 tensor in *hold, its elements at *p.
 * Fails naming the node when the input is missing. */
tk_status tko_ext_f64(TkoOpCtx *oc, int i, tk_tensor **hold, const double **p);
/* A new zeroed contiguous f64 tensor of shape (nd, shape), its elements at *p. */
tk_status tko_ext_new_f64(TkoOpCtx *oc, int nd, const int64_t *shape, tk_tensor **t, double **p);
/* Makes *t (f64, consumed) output k of the node, converted to dtype d. */
tk_status tko_ext_emit(TkoOpCtx *oc, int k, tk_tensor *t, tk_dtype d);
/* True for the float dtypes (f16 bf16 f32 f64). */
bool tko_ext_is_float(tk_dtype d);
/* Fails naming the node unless input i holds floats. */
tk_status tko_ext_need_float(TkoOpCtx *oc, int i);
/* The int list attribute `name` into v (count entries expected); absent:
 * every entry dflt. Fails when given with another count. */
tk_status tko_ext_ints_attr(TkoOpCtx *oc, const char *name, int count, int64_t dflt, int64_t *v);
/* "[2, 3, 4]" for messages. */
const char *tko_ext_shape(const tk_tensor *t, char *buf, size_t len);

/* run functions, by file */
tk_status tko_run_grid_sample(TkoOpCtx *oc);      /* op_ext_grid.c */
tk_status tko_run_affine_grid(TkoOpCtx *oc);
const char *tko_check_grid_sample(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_roi_align(TkoOpCtx *oc);        /* op_ext_detect.c */
tk_status tko_run_nms(TkoOpCtx *oc);
const char *tko_check_roi_align(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_col2im(TkoOpCtx *oc);           /* op_ext_conv.c */
tk_status tko_run_deform_conv(TkoOpCtx *oc);
tk_status tko_run_swiglu(TkoOpCtx *oc);           /* op_ext_misc.c */
tk_status tko_run_tensor_scatter(TkoOpCtx *oc);
const char *tko_check_tensor_scatter(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_bitcast(TkoOpCtx *oc);
const char *tko_check_bitcast(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_tfidf(TkoOpCtx *oc);
const char *tko_check_tfidf(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_causal_conv(TkoOpCtx *oc);      /* op_ext_recur.c */
const char *tko_check_causal_conv(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_linear_attention(TkoOpCtx *oc);
const char *tko_check_linear_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_optimizer(TkoOpCtx *oc);        /* op_ext_train.c; def->arg: 0 Adagrad, 1 Adam, 2 Momentum */
const char *tko_check_optimizer(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_binarizer(TkoOpCtx *oc);        /* op_ext_ml.c */
tk_status tko_run_array_feature_extractor(TkoOpCtx *oc);
tk_status tko_run_max_unpool(TkoOpCtx *oc);       /* op_ext_unpool.c */
tk_status tko_run_conv_integer(TkoOpCtx *oc);     /* op_ext_qconv.c */
tk_status tko_run_qlinear_conv(TkoOpCtx *oc);
const char *tko_check_qconv(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_tree_ensemble(TkoOpCtx *oc);    /* op_ext_tree.c */
const char *tko_check_tree_ensemble(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_flex_attention(TkoOpCtx *oc);   /* op_ext_flex.c */
const char *tko_check_flex_attention(const TkoModel *m, const TkoNode *n, char *why, size_t len);

#endif
