#!/usr/bin/env python3
"""gen_oext_cases.py OUT_DIR ERR_DIR — extra cases for the ext family
(runtime/onnx/ops/op_ext*.c: GridSample, AffineGrid, RoiAlign,
NonMaxSuppression, Col2Im, DeformConv, SwiGLU, TensorScatter, BitCast,
TfIdfVectorizer, CausalConvWithState, LinearAttention, FlexAttention,
MaxUnpool, Adagrad, Adam, Momentum, Binarizer, ArrayFeatureExtractor,
TreeEnsemble, ConvInteger, QLinearConv), in the node suite's layout (see
gen_node_suite.py) so tk_onnx_suite runs them.

The node suite's cases for these ops are tiny; these take odd shapes,
batches, grouped heads, every mode and padding, older opsets' attribute
forms, and work large enough to be split over threads. Expected outputs
come from onnx's reference implementation (onnx.reference), which shares no
code with TileKit; TileKit computes in double where the reference mostly
computes in float32, so float cases allow rtol 1e-4 / atol 1e-5 (integer
and bit-moving cases: zero). run_family_cases.sh oext runs them on 1 and 2 threads
and compares the two runs' outputs bit for bit.

ERR_DIR gets inputs each op must refuse (shapes that do not fit, an index
out of range, a mode it does not have): each must end in an error naming
the node, at load or at run, never a result or a crash.
"""
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(20261205)
N = helper.make_node
LOOSE = "rtol 1e-4\natol 1e-5\n"
EXACT = "rtol 0.0\natol 0.0\n"


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def unif(lo, hi, *shape):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


def make(name, nodes, inputs, opsets, outs):
    in_vi = [helper.make_tensor_value_info(f"x{i}", helper.np_dtype_to_tensor_dtype(v.dtype), None) for i, v in enumerate(inputs)]
    out_vi = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outs]
    graph = helper.make_graph(nodes, name, in_vi, out_vi)
    if isinstance(opsets, int):
        opsets = {"": opsets}
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets.items()])
    model.ir_version = 10
    return model


def case(name, node, inputs, opset, n_out=1, tol=LOOSE, ref=None):
    """node reads x0, x1, ... ("" for an omitted optional input) and writes y0, y1, ...;
    ref: (node, opset) the reference runs instead, for an older opset's form it lacks."""
    outs = [f"y{i}" for i in range(n_out)]
    model = make(name, [node], inputs, opset, outs)
    ref_model = make(name, [ref[0]], inputs, ref[1], outs) if ref else model
    results = ReferenceEvaluator(ref_model).run(None, {f"x{i}": v for i, v in enumerate(inputs)})
    return "test_oext_" + name, model, inputs, results, tol


def cases():
    # GridSample: every mode, padding and align_corners, 2-D at opset 20 (and
    # 16's mode names), 3-D; one grid big enough to split over threads.
    x = f32(2, 3, 7, 9)
    grid = unif(-1.3, 1.3, 2, 5, 11, 2)
    for mode in ("nearest", "linear", "cubic"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (0, 1):
                yield case(f"gridsample_{mode}_{pad}_ac{ac}",
                           N("GridSample", ["x0", "x1"], ["y0"], mode=mode, padding_mode=pad, align_corners=ac), [x, grid], 20)
    yield case("gridsample_opset16_bicubic_border", N("GridSample", ["x0", "x1"], ["y0"], mode="bicubic", padding_mode="border"),
               [x, grid], 16, ref=(N("GridSample", ["x0", "x1"], ["y0"], mode="cubic", padding_mode="border"), 20))
    yield case("gridsample_big_linear_reflection",
               N("GridSample", ["x0", "x1"], ["y0"], mode="linear", padding_mode="reflection"), [f32(2, 2, 13, 17), unif(-1.2, 1.2, 2, 37, 41, 2)], 22)
    x3, g3 = f32(2, 2, 4, 5, 6), unif(-1.2, 1.2, 2, 3, 4, 5, 3)
    for mode in ("nearest", "linear", "cubic"):
        for pad in ("zeros", "border", "reflection"):
            yield case(f"gridsample_3d_{mode}_{pad}", N("GridSample", ["x0", "x1"], ["y0"], mode=mode, padding_mode=pad, align_corners=1),
                       [x3, g3], 22)
    # AffineGrid: odd sizes, both align_corners, 2-D and 3-D
    for ac in (0, 1):
        yield case(f"affine_grid_2d_ac{ac}", N("AffineGrid", ["x0", "x1"], ["y0"], align_corners=ac),
                   [f32(3, 2, 3), np.array([3, 1, 7, 5], np.int64)], 20)
        yield case(f"affine_grid_3d_ac{ac}", N("AffineGrid", ["x0", "x1"], ["y0"], align_corners=ac),
                   [f32(2, 3, 4), np.array([2, 2, 3, 5, 4], np.int64)], 20)
    # RoiAlign: rois over two images, both modes and transformation modes,
    # adaptive and fixed sampling, a scale, the opset-10 form
    X = f32(2, 3, 13, 11)
    rois = np.concatenate([unif(0, 18, 9, 2), unif(6, 26, 9, 2)], axis=1)[:, [0, 1, 2, 3]]
    rois[:, 2:] = np.maximum(rois[:, 2:], rois[:, :2] + 0.5)
    bidx = rng.integers(0, 2, 9).astype(np.int64)
    for mode in ("avg", "max"):
        for ctm in ("half_pixel", "output_half_pixel"):
            for sr in (0, 2):
                yield case(f"roialign_{mode}_{ctm}_sr{sr}",
                           N("RoiAlign", ["x0", "x1", "x2"], ["y0"], mode=mode, coordinate_transformation_mode=ctm, sampling_ratio=sr,
                             output_height=4, output_width=3, spatial_scale=0.5), [X, rois, bidx], 16)
    yield case("roialign_opset10", N("RoiAlign", ["x0", "x1", "x2"], ["y0"], output_height=3, output_width=5, spatial_scale=0.5),
               [X, rois, bidx], 10, ref=(N("RoiAlign", ["x0", "x1", "x2"], ["y0"], output_height=3, output_width=5, spatial_scale=0.5,
                                            coordinate_transformation_mode="output_half_pixel"), 16))
    # NonMaxSuppression: two batches, three classes, thresholds given or not
    corners = unif(0, 10, 2, 40, 2)
    boxes = np.concatenate([corners, corners + unif(0.5, 4, 2, 40, 2)], axis=2)
    scores = unif(0, 1, 2, 3, 40)
    mx, iou, sth = np.array([7], np.int64), np.array([0.3], np.float32), np.array([0.25], np.float32)
    yield case("nms_full", N("NonMaxSuppression", ["x0", "x1", "x2", "x3", "x4"], ["y0"]), [boxes, scores, mx, iou, sth], 11, tol=EXACT)
    yield case("nms_no_score_threshold", N("NonMaxSuppression", ["x0", "x1", "x2", "x3"], ["y0"]), [boxes, scores, mx, iou], 11, tol=EXACT)
    yield case("nms_centre_boxes", N("NonMaxSuppression", ["x0", "x1", "x2", "x3", "x4"], ["y0"], center_point_box=1),
               [boxes, scores, np.array([100], np.int64), iou, sth], 10, tol=EXACT)
    yield case("nms_max_zero", N("NonMaxSuppression", ["x0", "x1", "x2", "x3"], ["y0"]), [boxes, scores, np.array([0], np.int64), iou], 11,
               tol=EXACT)
    # Col2Im: pads, strides, dilations together; 3-D blocks
    yield case("col2im_2d_all", N("Col2Im", ["x0", "x1", "x2"], ["y0"], pads=[1, 0, 2, 1], strides=[2, 1], dilations=[1, 2]),
               [f32(2, 3 * 3 * 2, 5 * 6), np.array([9, 7], np.int64), np.array([3, 2], np.int64)], 18)
    yield case("col2im_3d", N("Col2Im", ["x0", "x1", "x2"], ["y0"], strides=[1, 2, 1]),
               [f32(1, 2 * 8, 3 * 2 * 4), np.array([4, 5, 5], np.int64), np.array([2, 2, 2], np.int64)], 18)
    # DeformConv: groups, offset groups, stride, pads, dilation, mask, bias
    yield case("deform_conv_groups_mask_bias",
               N("DeformConv", ["x0", "x1", "x2", "x3", "x4"], ["y0"], group=2, offset_group=2, strides=[2, 1], pads=[1, 0, 1, 1],
                 dilations=[1, 2]),
               [f32(2, 4, 7, 8), f32(6, 2, 3, 2), f32(2, 2 * 6 * 2, 4, 7, scale=1.5), f32(6), unif(0, 1, 2, 2 * 6, 4, 7)], 22)
    yield case("deform_conv_far_offsets", N("DeformConv", ["x0", "x1", "x2"], ["y0"]),
               [f32(1, 2, 5, 6), f32(3, 2, 2, 2), f32(1, 8, 4, 5, scale=40.0)], 22)
    yield case("roialign_no_rois", N("RoiAlign", ["x0", "x1", "x2"], ["y0"], output_height=2, output_width=2),
               [X, np.zeros((0, 4), np.float32), np.zeros(0, np.int64)], 16)
    # SwiGLU, TensorScatter, BitCast
    yield case("swiglu_alpha", N("SwiGLU", ["x0", "x1"], ["y0"], alpha=1.7), [f32(3, 17, 33), f32(3, 17, 33)], 28)
    cache = f32(3, 2, 9, 5)
    yield case("tensorscatter_linear", N("TensorScatter", ["x0", "x1", "x2"], ["y0"]), [cache, f32(3, 2, 4, 5), np.array([0, 5, 2], np.int64)],
               24, tol=EXACT)
    yield case("tensorscatter_circular_axis2", N("TensorScatter", ["x0", "x1", "x2"], ["y0"], mode="circular", axis=2),
               [cache, f32(3, 2, 6, 5), np.array([7, 3, 8], np.int64)], 24, tol=EXACT)
    yield case("tensorscatter_no_indices", N("TensorScatter", ["x0", "x1"], ["y0"]), [cache, f32(3, 2, 2, 5)], 24, tol=EXACT)
    yield case("bitcast_f32_i32", N("BitCast", ["x0"], ["y0"], to=TensorProto.INT32), [f32(4, 7)], 26, tol=EXACT)
    yield case("bitcast_i64_f64", N("BitCast", ["x0"], ["y0"], to=TensorProto.DOUBLE), [rng.integers(0, 2**62, (5, 3)).astype(np.int64)], 26,
               tol=EXACT)
    # TfIdfVectorizer: every mode, weights, skips, unigrams and trigrams
    pool = np.array([2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 2, 3, 5, 7, 7, 7], np.int64)
    tok = rng.integers(2, 9, (4, 23)).astype(np.int32)
    for mode in ("TF", "IDF", "TFIDF"):
        yield case(f"tfidf_{mode}", N("TfIdfVectorizer", ["x0"], ["y0"], mode=mode, min_gram_length=1, max_gram_length=3, max_skip_count=2,
                                      ngram_counts=[0, 4, 10], ngram_indexes=list(range(9)), pool_int64s=pool,
                                      weights=[0.5, 1.5, 2, 0.25, 1, 3, 0.75, 1.25, 2.5]), [tok], 9)
    yield case("tfidf_1d_bigrams", N("TfIdfVectorizer", ["x0"], ["y0"], mode="TF", min_gram_length=2, max_gram_length=2, max_skip_count=3,
                                     ngram_counts=[0, 4], ngram_indexes=[4, 3, 2, 1, 0, 5, 6, 8, 7], pool_int64s=pool[:14]), [tok[0].astype(np.int64)], 9,
               tol=EXACT)
    # CausalConvWithState and LinearAttention
    yield case("causal_conv_bias_past_silu", N("CausalConvWithState", ["x0", "x1", "x2", "x3"], ["y0", "y1"], activation="silu"),
               [f32(3, 5, 17), f32(5, 1, 4), f32(5), f32(3, 5, 3)], 27, n_out=2)
    yield case("causal_conv_short", N("CausalConvWithState", ["x0", "x1"], ["y0", "y1"]), [f32(2, 3, 2), f32(3, 1, 5)], 27, n_out=2)
    B, T, hq, hkv, dk, dv = 2, 9, 6, 3, 5, 7
    q, k, v = f32(B, T, hq * dk, scale=0.5), f32(B, T, hkv * dk, scale=0.5), f32(B, T, hkv * dv)
    past = f32(B, hkv, dk, dv, scale=0.3)
    yield case("linear_attention_gated_delta_gqa_per_dim",
               N("LinearAttention", ["x0", "x1", "x2", "x3", "x4", "x5"], ["y0", "y1"], q_num_heads=hq, kv_num_heads=hkv),
               [q, k, v, past, unif(-0.5, 0, B, T, hkv * dk), unif(0, 1, B, T, hkv)], 27, n_out=2)
    yield case("linear_attention_delta_beta1_scale",
               N("LinearAttention", ["x0", "x1", "x2", "", "", "x3"], ["y0", "y1"], q_num_heads=hq, kv_num_heads=hkv, update_rule="delta",
                 scale=0.3), [q, k, v, unif(0, 1, B, T, 1)], 27, n_out=2)
    yield case("linear_attention_linear", N("LinearAttention", ["x0", "x1", "x2", "x3"], ["y0", "y1"], q_num_heads=hq, kv_num_heads=hkv,
                                            update_rule="linear"), [q, k, v, past], 27, n_out=2)
    # optimizers (ai.onnx.preview.training): two tensors each, odd shapes
    tr = {"": 21, "ai.onnx.preview.training": 1}
    R, T = np.array(0.05, np.float32), np.array(3, np.int64)
    xa, xb = f32(3, 5), f32(7)
    ga, gb = f32(3, 5), f32(7)
    va, vb, ha, hb = f32(3, 5), f32(7), unif(0, 1, 3, 5), unif(0, 1, 7)
    trn = "ai.onnx.preview.training"
    yield case("adagrad_two", N("Adagrad", ["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"], ["y0", "y1", "y2", "y3"], domain=trn,
                                decay_factor=0.1, epsilon=1e-5, norm_coefficient=0.01), [R, T, xa, xb, ga, gb, ha, hb], tr, n_out=4)
    yield case("adam_two", N("Adam", [f"x{i}" for i in range(10)], [f"y{i}" for i in range(6)], domain=trn, alpha=0.9, beta=0.99,
                             epsilon=1e-3, norm_coefficient=0.01, norm_coefficient_post=0.02), [R, T, xa, xb, ga, gb, va, vb, ha, hb], tr, n_out=6)
    for mode in ("standard", "nesterov"):
        yield case(f"momentum_{mode}", N("Momentum", [f"x{i}" for i in range(8)], [f"y{i}" for i in range(4)], domain=trn, alpha=0.9,
                                         beta=0.5, mode=mode, norm_coefficient=0.01), [R, T, xa, xb, ga, gb, va, vb], tr, n_out=4)
    # MaxUnpool of a 2-d and a 3-d MaxPool's Indices; Binarizer, ArrayFeatureExtractor
    xu = f32(2, 3, 9, 8)
    pooled, ind = ReferenceEvaluator(make("p", [N("MaxPool", ["x0"], ["y0", "y1"], kernel_shape=[3, 2], strides=[3, 2])], [xu], 21,
                                         ["y0", "y1"])).run(None, {"x0": xu})
    yield case("maxunpool_2d", N("MaxUnpool", ["x0", "x1"], ["y0"], kernel_shape=[3, 2], strides=[3, 2]), [pooled, ind], 22)
    yield case("maxunpool_2d_output_shape", N("MaxUnpool", ["x0", "x1", "x2"], ["y0"], kernel_shape=[3, 2], strides=[3, 2]),
               [pooled, ind, np.array([2, 3, 10, 9], np.int64)], 22)
    ml = {"": 21, "ai.onnx.ml": 1}
    yield case("binarizer_f64", N("Binarizer", ["x0"], ["y0"], domain="ai.onnx.ml", threshold=0.3), [f32(4, 7, 3).astype(np.float64)], ml, tol=EXACT)
    yield case("array_feature_extractor_3d", N("ArrayFeatureExtractor", ["x0", "x1"], ["y0"], domain="ai.onnx.ml"),
               [f32(2, 3, 9), np.array([8, 0, 3, 3], np.int64)], ml, tol=EXACT)
    yield case("array_feature_extractor_1d", N("ArrayFeatureExtractor", ["x0", "x1"], ["y0"], domain="ai.onnx.ml"),
               [rng.integers(0, 100, 11).astype(np.int64), np.array([[10, 2]], np.int64)], ml, tol=EXACT)
    # ConvInteger, QLinearConv: groups, strides, dilations, auto_pad,
    # per-channel zero points and scales, 1-d and 3-d
    u8 = lambda *sh: rng.integers(0, 256, sh).astype(np.uint8)
    i8 = lambda *sh: rng.integers(-128, 128, sh).astype(np.int8)
    yield case("convinteger_groups_same_lower", N("ConvInteger", ["x0", "x1", "x2", "x3"], ["y0"], group=2, strides=[2, 1], dilations=[1, 2],
                                                  auto_pad="SAME_LOWER"),
               [u8(2, 4, 9, 8), i8(6, 2, 3, 2), np.array(7, np.uint8), i8(6)], 10, tol=EXACT)
    yield case("convinteger_3d_pads", N("ConvInteger", ["x0", "x1", "x2"], ["y0"], pads=[1, 0, 1, 0, 1, 1]),
               [i8(1, 2, 4, 5, 6), u8(3, 2, 2, 3, 2), np.array(-3, np.int8)], 10, tol=EXACT)
    yield case("qlinearconv_bias_per_channel", N("QLinearConv", [f"x{i}" for i in range(9)], ["y0"], pads=[1, 1, 1, 1], strides=[2, 2]),
               [u8(2, 3, 9, 7), np.array(0.02, np.float32), np.array(120, np.uint8), i8(4, 3, 3, 3), unif(0.001, 0.01, 4),
                np.zeros(4, np.int8), np.array(0.05, np.float32), np.array(-5, np.int8), rng.integers(-3000, 3000, 4).astype(np.int32)], 10)
    yield case("qlinearconv_1d_u8", N("QLinearConv", [f"x{i}" for i in range(8)], ["y0"], dilations=[2]),
               [u8(3, 2, 17), np.array(0.03, np.float32), np.array(128, np.uint8), u8(5, 2, 3), np.array([0.004], np.float32),
                np.array([100], np.uint8), np.array(0.2, np.float32), np.array(10, np.uint8)], 10)
    # TreeEnsemble: three depth-3 trees (nodes numbered depth-first, true
    # child first, so membership sets are listed in the reference's order),
    # every comparison mode, NaN features with missing_value_tracks_true
    for agg in range(4):
        yield tree_case(f"tree_ensemble_agg{agg}", agg)
    # FlexAttention: GQA, a soft-cap score_mod, a prob_mod, explicit scale
    cap = helper.make_tensor("cap", TensorProto.FLOAT, [], [2.5])
    soft = helper.make_graph([N("Div", ["s", "cap"], ["d"]), N("Tanh", ["d"], ["t"]), N("Mul", ["t", "cap"], ["o"])], "soft_cap",
                             [helper.make_tensor_value_info("s", TensorProto.FLOAT, None)],
                             [helper.make_tensor_value_info("o", TensorProto.FLOAT, None)], [cap])
    half = helper.make_tensor("h", TensorProto.FLOAT, [], [0.5])
    pm = helper.make_graph([N("Mul", ["p", "h"], ["o"])], "half", [helper.make_tensor_value_info("p", TensorProto.FLOAT, None)],
                           [helper.make_tensor_value_info("o", TensorProto.FLOAT, None)], [half])
    fo = {"": 26, "ai.onnx.preview": 1}
    Q, K, V = f32(2, 6, 7, 5), f32(2, 3, 9, 5), f32(2, 3, 9, 6)
    yield case("flex_gqa_soft_cap_prob_mod",
               N("FlexAttention", ["x0", "x1", "x2"], ["y0"], domain="ai.onnx.preview", score_mod=soft, prob_mod=pm, scale=0.3), [Q, K, V], fo)
    yield case("flex_plain", N("FlexAttention", ["x0", "x1", "x2"], ["y0"], domain="ai.onnx.preview"), [Q, K, V], fo)

def tree_case(name, agg, ntrees=3, depth=3, nfeat=4, ntargets=3):
    feats, modes, splits, tids, fids, tleaf, fleaf, miss, members = [], [], [], [], [], [], [], [], []
    leaf_w, leaf_t, roots = [], [], []

    def build(d):
        i = len(feats)
        feats.append(int(rng.integers(0, nfeat)))
        mode = int(rng.integers(0, 7))
        modes.append(mode)
        splits.append(float(rng.integers(1, 5)) + (0.5 if mode < 4 and rng.random() < 0.5 else 0.0))
        if mode == 6:
            members.extend([float(v) for v in rng.choice([1.0, 2.0, 3.0, 4.0], 2, replace=False)] + [np.nan])
            splits[-1] = np.nan
        miss.append(int(rng.integers(0, 2)))
        tids.append(0), fids.append(0), tleaf.append(0), fleaf.append(0)
        for branch, ids, leafs in ((0, tids, tleaf), (1, fids, fleaf)):
            if d == depth - 1:
                leafs[i] = 1
                ids[i] = len(leaf_w)
                leaf_w.append(float(rng.standard_normal()))
                leaf_t.append(int(rng.integers(0, ntargets)))
            else:
                ids[i] = build(d + 1)
        return i

    for _ in range(ntrees):
        roots.append(build(0))
    X = rng.integers(0, 6, (23, nfeat)).astype(np.float32)
    X[rng.random(X.shape) < 0.1] = np.nan
    T = lambda n, v, t=TensorProto.FLOAT: helper.make_tensor(n, t, [len(v)], v)
    attrs = dict(aggregate_function=agg, n_targets=ntargets, nodes_featureids=feats, nodes_modes=T("nodes_modes", modes, TensorProto.UINT8),
                 nodes_splits=T("nodes_splits", splits), nodes_truenodeids=tids, nodes_falsenodeids=fids, nodes_trueleafs=tleaf,
                 nodes_falseleafs=fleaf, nodes_missing_value_tracks_true=miss, leaf_weights=T("leaf_weights", leaf_w), leaf_targetids=leaf_t,
                 tree_roots=roots)
    if members:
        attrs["membership_values"] = T("membership_values", members)
    return case(name, N("TreeEnsemble", ["x0"], ["y0"], domain="ai.onnx.ml", **attrs), [X], {"": 21, "ai.onnx.ml": 5})


def error_cases():
    """Inputs every op must refuse with an error naming the node: (name, node, inputs, opsets, outputs)."""
    x, g = f32(1, 2, 5, 6), unif(-1, 1, 1, 3, 4, 2)
    return [
        ("gridsample_bad_mode", N("GridSample", ["x0", "x1"], ["y0"], mode="bilinear"), [x, g], 20, 1),
        ("gridsample_grid_shape", N("GridSample", ["x0", "x1"], ["y0"]), [x, unif(-1, 1, 1, 3, 4, 3)], 20, 1),
        ("gridsample_3d_opset16", N("GridSample", ["x0", "x1"], ["y0"]), [f32(1, 1, 2, 3, 4), unif(-1, 1, 1, 2, 2, 2, 3)], 16, 1),
        ("affine_grid_theta", N("AffineGrid", ["x0", "x1"], ["y0"]), [f32(2, 3, 3), np.array([2, 1, 4, 4], np.int64)], 20, 1),
        ("roialign_batch_oob", N("RoiAlign", ["x0", "x1", "x2"], ["y0"]), [x, unif(0, 4, 2, 4), np.array([0, 3], np.int64)], 16, 1),
        ("roialign_bad_mode", N("RoiAlign", ["x0", "x1", "x2"], ["y0"], mode="sum"), [x, unif(0, 4, 2, 4), np.array([0, 0], np.int64)], 16, 1),
        ("nms_shapes", N("NonMaxSuppression", ["x0", "x1"], ["y0"]), [f32(1, 5, 4), f32(1, 2, 6)], 11, 1),
        ("col2im_length", N("Col2Im", ["x0", "x1", "x2"], ["y0"]), [f32(1, 4, 7), np.array([3, 3], np.int64), np.array([2, 2], np.int64)], 18, 1),
        ("deform_conv_offset", N("DeformConv", ["x0", "x1", "x2"], ["y0"]), [f32(1, 2, 4, 4), f32(2, 2, 2, 2), f32(1, 6, 3, 3)], 22, 1),
        ("swiglu_shapes", N("SwiGLU", ["x0", "x1"], ["y0"]), [f32(2, 3), f32(3, 2)], 28, 1),
        ("tensorscatter_overflow", N("TensorScatter", ["x0", "x1", "x2"], ["y0"]), [f32(2, 4, 3), f32(2, 2, 3), np.array([0, 3], np.int64)], 24, 1),
        ("tensorscatter_bad_mode", N("TensorScatter", ["x0", "x1"], ["y0"], mode="wrap"), [f32(2, 4, 3), f32(2, 2, 3)], 24, 1),
        ("bitcast_width", N("BitCast", ["x0"], ["y0"], to=TensorProto.INT64), [f32(3)], 26, 1),
        ("tfidf_float_tokens", N("TfIdfVectorizer", ["x0"], ["y0"], mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0,
                                 ngram_counts=[0], ngram_indexes=[0, 1], pool_int64s=[1, 2]), [f32(4)], 9, 1),
        ("causal_conv_weight", N("CausalConvWithState", ["x0", "x1"], ["y0", "y1"]), [f32(1, 3, 5), f32(3, 2, 2)], 27, 2),
        ("linear_attention_rule", N("LinearAttention", ["x0", "x1", "x2"], ["y0", "y1"], q_num_heads=2, kv_num_heads=2, update_rule="fast"),
         [f32(1, 2, 4), f32(1, 2, 4), f32(1, 2, 4)], 27, 2),
        ("linear_attention_no_decay", N("LinearAttention", ["x0", "x1", "x2"], ["y0", "y1"], q_num_heads=2, kv_num_heads=2, update_rule="gated"),
         [f32(1, 2, 4), f32(1, 2, 4), f32(1, 2, 4)], 27, 2),
        ("adam_group_count", N("Adam", [f"x{i}" for i in range(7)], ["y0", "y1", "y2"], domain="ai.onnx.preview.training"),
         [np.array(0.1, np.float32), np.array(1, np.int64)] + [f32(2)] * 5, {"": 21, "ai.onnx.preview.training": 1}, 3),
        ("momentum_bad_mode", N("Momentum", [f"x{i}" for i in range(5)], ["y0", "y1"], domain="ai.onnx.preview.training", alpha=0.9, beta=0.1,
                                mode="heavy", norm_coefficient=0.0),
         [np.array(0.1, np.float32), np.array(1, np.int64)] + [f32(2)] * 3, {"": 21, "ai.onnx.preview.training": 1}, 2),
        ("maxunpool_index_oob", N("MaxUnpool", ["x0", "x1"], ["y0"], kernel_shape=[2, 2], strides=[2, 2]),
         [f32(1, 1, 2, 2), np.array([[[[0, 1], [2, 16]]]], np.int64)], 22, 1),
        ("array_feature_extractor_oob", N("ArrayFeatureExtractor", ["x0", "x1"], ["y0"], domain="ai.onnx.ml"), [f32(2, 3), np.array([3], np.int64)],
         {"": 21, "ai.onnx.ml": 1}, 1),
        ("tree_ensemble_cycle", N("TreeEnsemble", ["x0"], ["y0"], domain="ai.onnx.ml", n_targets=1, nodes_featureids=[0, 0],
                                  nodes_modes=helper.make_tensor("m", TensorProto.UINT8, [2], [0, 0]),
                                  nodes_splits=helper.make_tensor("s", TensorProto.FLOAT, [2], [0.5, 0.5]), nodes_truenodeids=[1, 0],
                                  nodes_falsenodeids=[0, 0], nodes_trueleafs=[0, 0], nodes_falseleafs=[1, 0],
                                  leaf_weights=helper.make_tensor("w", TensorProto.FLOAT, [1], [1.0]), leaf_targetids=[0], tree_roots=[0]),
         [f32(3, 2)], {"": 21, "ai.onnx.ml": 5}, 1),
        ("flex_heads", N("FlexAttention", ["x0", "x1", "x2"], ["y0"], domain="ai.onnx.preview"), [f32(1, 3, 2, 4), f32(1, 2, 2, 4), f32(1, 2, 2, 4)],
         {"": 26, "ai.onnx.preview": 1}, 1),
    ]


def write_case(out, name, model, inputs, outputs, meta_head):
    d = os.path.join(out, name)
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds)
    onnx.save(model, os.path.join(d, "model.onnx"))
    kinds = []
    for which, values in (("input", inputs), ("output", outputs)):
        for i, v in enumerate(values):
            with open(os.path.join(ds, f"{which}_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(np.asarray(v)).SerializeToString())
            kinds.append(f"0 {which} {i} tensor")
    with open(os.path.join(d, "meta.txt"), "w") as f:
        f.write(meta_head + "".join(k + "\n" for k in kinds))


def main():
    out, err_out = sys.argv[1], sys.argv[2]
    for d in (out, err_out):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    names = []
    for name, model, inputs, outputs, tol in cases():
        write_case(out, name, model, inputs, outputs, tol)
        names.append(name)
    with open(os.path.join(out, "expect.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    errors = error_cases()
    for name, node, inputs, opsets, nout in errors:
        model = make(name, [node], inputs, opsets, [f"y{i}" for i in range(nout)])
        write_case(err_out, "test_oext_" + name, model, inputs, [np.zeros(1, np.float32)] * nout, EXACT)
    print(f"gen_oext_cases: {len(names)} cases in {out}, {len(errors)} error cases in {err_out}")


if __name__ == "__main__":
    main()
