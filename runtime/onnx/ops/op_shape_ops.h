/* op_shape_ops.h — the run and check functions of the shape family that
 * live outside op_shape.c (which holds the family's one def table, so the
 * op table lists a single family):
 *   op_shape_make.c   ops that make tensors: Range, ConstantOfShape, EyeLike, Trilu
 *   op_shape_pad.c    Pad, CenterCropPad, DepthToSpace, SpaceToDepth
 *   op_index.c        Gather, GatherElements, GatherND, OneHot, Compress, NonZero,
 *                     ScatterElements, Scatter, ScatterND
 *   op_index_unique.c Unique, ReverseSequence */
#ifndef TK_RUNTIME_ONNX_OP_SHAPE_OPS_H
#define TK_RUNTIME_ONNX_OP_SHAPE_OPS_H

#include "op.h"

/* count copies of the es-byte element elem at dst (bit for bit). */
void tko_fill_element(void *dst, int64_t count, const void *elem, size_t es);

tk_status tko_run_range(TkoOpCtx *oc);
const char *tko_check_range(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_constant_of_shape(TkoOpCtx *oc);
const char *tko_check_constant_of_shape(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_eye_like(TkoOpCtx *oc);
const char *tko_check_eye_like(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_trilu(TkoOpCtx *oc);

tk_status tko_run_pad(TkoOpCtx *oc);
const char *tko_check_pad(const TkoModel *m, const TkoNode *n, char *why, size_t len);
tk_status tko_run_center_crop_pad(TkoOpCtx *oc);
tk_status tko_run_depth_to_space(TkoOpCtx *oc);
tk_status tko_run_space_to_depth(TkoOpCtx *oc);
const char *tko_check_block_mode(const TkoModel *m, const TkoNode *n, char *why, size_t len);

tk_status tko_run_gather(TkoOpCtx *oc);
tk_status tko_run_gather_elements(TkoOpCtx *oc);
tk_status tko_run_gather_nd(TkoOpCtx *oc);
tk_status tko_run_one_hot(TkoOpCtx *oc);
tk_status tko_run_compress(TkoOpCtx *oc);
tk_status tko_run_non_zero(TkoOpCtx *oc);

tk_status tko_run_scatter_elements(TkoOpCtx *oc);
tk_status tko_run_scatter_nd(TkoOpCtx *oc);
const char *tko_check_scatter(const TkoModel *m, const TkoNode *n, char *why, size_t len);

tk_status tko_run_unique(TkoOpCtx *oc);
tk_status tko_run_reverse_sequence(TkoOpCtx *oc);
const char *tko_check_reverse_sequence(const TkoModel *m, const TkoNode *n, char *why, size_t len);

#endif
