/* op_ext.c — the ext family's table and the helpers its files share
 * (double copies of inputs, results converted back to ONNX's dtype). */
#include <string.h>

#include "op_ext.h"
#include "tk/shape.h"

bool tko_ext_is_float(tk_dtype d)
{
    return d == TK_DTYPE_F32 || d == TK_DTYPE_F64 || d == TK_DTYPE_F16 || d == TK_DTYPE_BF16;
}

const char *tko_ext_shape(const tk_tensor *t, char *buf, size_t len)
{
    return tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), buf, len);
}

tk_status tko_ext_need_float(TkoOpCtx *oc, int i)
{
    if (i >= oc->nin || !oc->in[i]) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    tk_dtype d = tk_tensor_dtype(oc->in[i]);
    if (!tko_ext_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "input %d holds %s (a float dtype is required)", i, tk_dtype_name(d));
    return TK_OK;
}

tk_status tko_ext_f64(TkoOpCtx *oc, int i, tk_tensor **hold, const double **p)
{
    *hold = NULL;
    *p = NULL;
    if (i >= oc->nin || !oc->in[i]) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    /* tk_to_dtype always makes a new contiguous tensor, so *hold is ours */
    tk_status s = tk_to_dtype(oc->ctx, oc->in[i], TK_DTYPE_F64, hold);
    if (s) return tko_wrap(oc, s);
    *p = (const double *)tkr_ptr(*hold);
    return TK_OK;
}

tk_status tko_ext_new_f64(TkoOpCtx *oc, int nd, const int64_t *shape, tk_tensor **t, double **p)
{
    *p = NULL;
    tk_status s = tk_zeros(oc->ctx, TK_DTYPE_F64, nd, shape, t);
    if (s) return tko_wrap(oc, s);
    *p = (double *)tkr_ptr(*t);
    return TK_OK;
}

tk_status tko_ext_emit(TkoOpCtx *oc, int k, tk_tensor *t, tk_dtype d)
{
    tk_status s = tko_as_dtype(oc, &t, d);
    if (s) return s;
    oc->out[k] = t;
    return TK_OK;
}

tk_status tko_ext_ints_attr(TkoOpCtx *oc, const char *name, int count, int64_t dflt, int64_t *v)
{
    int n = 0;
    const int64_t *a = tko_attr_ints(oc->node, name, &n);
    if (!a && !tko_attr(oc->node, name)) {
        for (int i = 0; i < count; i++) v[i] = dflt;
        return TK_OK;
    }
    if (n != count) return tko_fail(oc, TK_ERR_SHAPE, "attribute %s has %d values, %d are required", name, n, count);
    memcpy(v, a, (size_t)count * sizeof *v);
    return TK_OK;
}

/* ------------------------------------------------------------ the table */

static const TkoOpDef defs[] = {
    OPDEF("GridSample", 16, TKO_ANY, "mode,padding_mode,align_corners", tko_run_grid_sample, tko_check_grid_sample, 2, 2, 0),
    OPDEF("AffineGrid", 20, TKO_ANY, "align_corners", tko_run_affine_grid, NULL, 2, 2, 0),
    OPDEF("RoiAlign", 10, TKO_ANY, "coordinate_transformation_mode,mode,output_height,output_width,sampling_ratio,spatial_scale",
          tko_run_roi_align, tko_check_roi_align, 3, 3, 0),
    OPDEF("NonMaxSuppression", 10, TKO_ANY, "center_point_box", tko_run_nms, NULL, 2, 5, 0),
    OPDEF("Col2Im", 18, TKO_ANY, "dilations,pads,strides", tko_run_col2im, NULL, 3, 3, 0),
    OPDEF("DeformConv", 19, TKO_ANY, "dilations,group,kernel_shape,offset_group,pads,strides", tko_run_deform_conv, NULL, 3, 5, 0),
    OPDEF("SwiGLU", 28, TKO_ANY, "alpha", tko_run_swiglu, NULL, 2, 2, 0),
    OPDEF("TensorScatter", 24, TKO_ANY, "axis,mode", tko_run_tensor_scatter, tko_check_tensor_scatter, 2, 3, 0),
    OPDEF("BitCast", 26, TKO_ANY, "to", tko_run_bitcast, tko_check_bitcast, 1, 1, 0),
    OPDEF("TfIdfVectorizer", 9, TKO_ANY, "max_gram_length,max_skip_count,min_gram_length,mode,ngram_counts,ngram_indexes,pool_int64s,pool_strings,weights",
          tko_run_tfidf, tko_check_tfidf, 1, 1, 0),
    OPDEF("CausalConvWithState", 27, TKO_ANY, "activation", tko_run_causal_conv, tko_check_causal_conv, 2, 4, 0),
    OPDEF("LinearAttention", 27, TKO_ANY, "chunk_size,kv_num_heads,q_num_heads,scale,update_rule", tko_run_linear_attention,
          tko_check_linear_attention, 3, 6, 0),
    { "ai.onnx.preview", "FlexAttention", 1, TKO_ANY, "prob_mod,scale,score_mod,softmax_precision", tko_run_flex_attention,
      tko_check_flex_attention, 3, 3, 0, false },
    OPDEF("ConvInteger", 10, TKO_ANY, "auto_pad,dilations,group,kernel_shape,pads,strides", tko_run_conv_integer, tko_check_qconv, 2, 4, 0),
    OPDEF("QLinearConv", 10, TKO_ANY, "auto_pad,dilations,group,kernel_shape,pads,strides", tko_run_qlinear_conv, tko_check_qconv, 8, 9, 0),
    OPDEF("MaxUnpool", 9, TKO_ANY, "kernel_shape,pads,strides", tko_run_max_unpool, NULL, 2, 3, 0),
    { "ai.onnx.preview.training", "Adagrad", 1, TKO_ANY, "decay_factor,epsilon,norm_coefficient", tko_run_optimizer, tko_check_optimizer, 5, -1, 0, false },
    { "ai.onnx.preview.training", "Adam", 1, TKO_ANY, "alpha,beta,epsilon,norm_coefficient,norm_coefficient_post", tko_run_optimizer,
      tko_check_optimizer, 6, -1, 1, false },
    { "ai.onnx.preview.training", "Momentum", 1, TKO_ANY, "alpha,beta,mode,norm_coefficient", tko_run_optimizer, tko_check_optimizer, 5, -1, 2, false },
    { "ai.onnx.ml", "Binarizer", 1, TKO_ANY, "threshold", tko_run_binarizer, NULL, 1, 1, 0, false },
    { "ai.onnx.ml", "ArrayFeatureExtractor", 1, TKO_ANY, "", tko_run_array_feature_extractor, NULL, 2, 2, 0, false },
    { "ai.onnx.ml", "TreeEnsemble", 5, TKO_ANY,
      "aggregate_function,leaf_targetids,leaf_weights,membership_values,n_targets,nodes_falseleafs,nodes_falsenodeids,nodes_featureids,"
      "nodes_hitrates,nodes_missing_value_tracks_true,nodes_modes,nodes_splits,nodes_trueleafs,nodes_truenodeids,post_transform,tree_roots",
      tko_run_tree_ensemble, tko_check_tree_ensemble, 1, 1, 0, false },
};
TKO_FAMILY_OF(tko_ops_ext, defs);
