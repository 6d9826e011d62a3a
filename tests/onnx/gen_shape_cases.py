#!/usr/bin/env python3
"""gen_shape_cases.py OUT_DIR ERR_DIR — extra cases for the ONNX shape and index ops
(runtime/onnx/ops/op_shape*.c, op_index*.c), in the node suite's layout
(see gen_node_suite.py), so tk_onnx_suite runs them.

The node suite's cases are small and mostly contiguous; these take odd
shapes, inputs that are views (a Transpose first), older opsets' attribute
forms, negative indices and steps, duplicate scatter indices, and work large
enough to be split over threads (GatherND). Expected outputs come from
onnx's reference implementation (onnx.reference), which shares no code with
TileKit. Every op here moves or picks values without arithmetic (or does
integer / order-exact float arithmetic), so the tolerance is zero: a case
passes only bit for bit, and run_shape_cases.sh runs them on 1 and 2
threads. OUT_DIR/expect.txt lists every case (all must pass).

ERR_DIR gets inputs each op must refuse (an index out of range, shapes that
do not fit, a mode it does not have): run_shape_cases.sh checks every one
ends in an error naming the node, at load or at run, never a result or a
crash (under -DTK_SANITIZE=ON also never a leak).

    gen_shape_cases.py OUT_DIR ERR_DIR
"""
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(20261205)
I64 = TensorProto.INT64


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def ints(lo, hi, shape, dtype=np.int64):
    return rng.integers(lo, hi, size=shape).astype(dtype)


def make(name, nodes, inputs, opset, outs):
    in_vi = [helper.make_tensor_value_info(f"x{i}", helper.np_dtype_to_tensor_dtype(v.dtype), None) for i, v in enumerate(inputs)]
    out_vi = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outs]
    graph = helper.make_graph(nodes, name, in_vi, out_vi)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return model


def case(name, nodes, inputs, opset=21, n_out=1, ref_nodes=None, expected=None):
    """nodes: helper nodes reading x0, x1, ... and writing y0, y1, ...;
    ref_nodes: the same computation for the reference when it lacks the op;
    expected: the outputs, where the reference departs from the spec."""
    outs = [f"y{i}" for i in range(n_out)]
    model = make(name, nodes, inputs, opset, outs)
    if expected is not None:
        return "test_" + name, model, inputs, expected
    ref = ReferenceEvaluator(make(name, ref_nodes, inputs, 21, outs) if ref_nodes else model)
    results = ref.run(None, {f"x{i}": v for i, v in enumerate(inputs)})
    return "test_" + name, model, inputs, results


def N(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, **attrs)


def cases():
    x = f32(5, 3, 7)
    yield case("shape_reshape_of_transposed",
               [N("Transpose", ["x0"], ["t"], perm=[2, 0, 1]), N("Reshape", ["t", "x1"], ["y0"])],
               [x, np.array([0, -1], np.int64)])
    yield case("shape_reshape_allowzero_empty", [N("Reshape", ["x0", "x1"], ["y0"], allowzero=1)],
               [np.zeros((0, 3), np.float32), np.array([3, 0], np.int64)])
    big = np.int64(2**63 - 1)
    yield case("shape_slice_negative_steps",
               [N("Slice", ["x0", "x1", "x2", "x3", "x4"], ["y0"])],
               [f32(7, 9, 5), np.array([-1, big, 1], np.int64), np.array([-2**63, 1, 5], np.int64),
                np.array([0, 1, -1], np.int64), np.array([-2, -3, 3], np.int64)])
    # a negative step from a start before the beginning: the spec clamps the start to 0
    # (one element, as ONNX Runtime); onnx.reference's NumPy slicing gives none
    x = f32(5, 5)
    yield case("shape_slice_backward_from_before_start", [N("Slice", ["x0", "x1", "x2", "x3", "x4"], ["y0"])],
               [x, np.array([-6], np.int64), np.array([-7], np.int64), np.array([1], np.int64), np.array([-1], np.int64)],
               expected=[x[:, 0:1]])
    yield case("shape_slice_of_transposed",
               [N("Transpose", ["x0"], ["t"], perm=[1, 0, 2]), N("Slice", ["t", "x1", "x2", "x3"], ["y0"])],
               [f32(6, 5, 4), np.array([1, -100], np.int64), np.array([100, -1], np.int64), np.array([0, 2], np.int64)])
    yield case("shape_slice_opset9_attrs", [N("Slice", ["x0"], ["y0"], starts=[1, -3], ends=[100, -1], axes=[0, 2])],
               [f32(4, 3, 6)], opset=9)
    yield case("shape_squeeze_unsqueeze_opset11",
               [N("Squeeze", ["x0"], ["t"], axes=[0, -1]), N("Unsqueeze", ["t"], ["y0"], axes=[-1, 1])],
               [f32(1, 3, 5, 1)], opset=11)
    yield case("shape_split_num_outputs_uneven", [N("Split", ["x0"], ["y0", "y1", "y2", "y3"], axis=1, num_outputs=4)],
               [f32(2, 11, 3)], opset=18, n_out=4)
    yield case("shape_split_opset11_attr", [N("Split", ["x0"], ["y0", "y1", "y2"], axis=-1, split=[1, 0, 4])],
               [ints(-5, 5, (3, 5), np.int32)], opset=11, n_out=3)
    yield case("shape_concat_views", [N("Transpose", ["x1"], ["t"], perm=[1, 0]), N("Concat", ["x0", "t", "x2"], ["y0"], axis=-2)],
               [f32(3, 5), f32(5, 2), f32(7, 5)])
    yield case("shape_concat_opset1_default_axis", [N("Concat", ["x0", "x1"], ["y0"])], [f32(2, 3), f32(2, 4)], opset=1,
               ref_nodes=[N("Concat", ["x0", "x1"], ["y0"], axis=1)])
    yield case("shape_expand_bidirectional", [N("Expand", ["x0", "x1"], ["y0"])],
               [ints(0, 100, (3, 1, 5), np.int16), np.array([2, 1, 4, 1], np.int64)])
    yield case("shape_tile_3d", [N("Tile", ["x0", "x1"], ["y0"])], [f32(2, 3, 5), np.array([3, 1, 2], np.int64)])
    x = f32(2, 3, 5)
    yield case("shape_tile_opset1_axis", [N("Tile", ["x0", "x1", "x2"], ["y0"])], [x, np.array(3, np.int64), np.array(1, np.int64)],
               opset=5, expected=[np.tile(x, (1, 3, 1))])   # the reference has no Tile-1
    yield case("shape_flatten_axis0_view", [N("Transpose", ["x0"], ["t"]), N("Flatten", ["t"], ["y0"], axis=0)], [f32(3, 4, 5)])
    yield case("shape_pad_reflect_opset10", [N("Pad", ["x0"], ["y0"], mode="reflect", pads=[0, 2, 1, 0, 1, 3])],
               [f32(2, 5, 7)], opset=10)
    yield case("shape_pad_wrap_axes", [N("Pad", ["x0", "x1", "", "x2"], ["y0"], mode="wrap")],
               [f32(3, 4, 5), np.array([2, 1, 3, 0], np.int64), np.array([-1, 1], np.int64)])
    yield case("shape_pad_wrap_more_than_once", [N("Pad", ["x0", "x1", "", "x2"], ["y0"], mode="wrap")],
               [f32(3, 2, 4), np.array([5, 0, 3, 9], np.int64), np.array([1, 2], np.int64)])
    yield case("shape_pad_edge", [N("Pad", ["x0", "x1"], ["y0"], mode="edge")],
               [f32(5, 6), np.array([1, 3, 2, 0], np.int64)])
    yield case("shape_pad_constant_int64", [N("Pad", ["x0", "x1", "x2"], ["y0"])],
               [ints(-9, 9, (3, 4)), np.array([1, 0, 2, 3], np.int64), np.array(2**40 + 3, np.int64)])
    yield case("shape_center_crop_pad_mixed", [N("CenterCropPad", ["x0", "x1"], ["y0"], axes=[0, -1])],
               [f32(7, 3, 4), np.array([4, 9], np.int64)])
    yield case("shape_depth_to_space_crd_odd", [N("DepthToSpace", ["x0"], ["y0"], blocksize=3, mode="CRD")], [f32(2, 18, 3, 5)])
    yield case("shape_depth_to_space_dcr_odd", [N("DepthToSpace", ["x0"], ["y0"], blocksize=2)], [f32(1, 12, 5, 3)])
    yield case("shape_space_to_depth_odd", [N("SpaceToDepth", ["x0"], ["y0"], blocksize=3)], [f32(2, 5, 6, 9)])
    yield case("shape_range_int64_negative", [N("Range", ["x0", "x1", "x2"], ["y0"])],
               [np.array(17, np.int64), np.array(-40, np.int64), np.array(-3, np.int64)])
    yield case("shape_range_float_odd", [N("Range", ["x0", "x1", "x2"], ["y0"])],
               [np.array(-3.3, np.float32), np.array(41.7, np.float32), np.array(0.37, np.float32)])
    yield case("shape_range_int32_empty", [N("Range", ["x0", "x1", "x2"], ["y0"])],
               [np.array(5, np.int32), np.array(5, np.int32), np.array(2, np.int32)])
    yield case("shape_constant_of_shape_int64",
               [N("ConstantOfShape", ["x0"], ["y0"], value=numpy_helper.from_array(np.array([2**60 + 1], np.int64)))],
               [np.array([3, 7, 5], np.int64)])
    yield case("shape_eyelike_offdiag_int32", [N("EyeLike", ["x0"], ["y0"], k=-2, dtype=TensorProto.INT32)], [f32(6, 4)])
    yield case("shape_trilu_lower_batched", [N("Trilu", ["x0", "x1"], ["y0"], upper=0)], [f32(2, 3, 5, 4), np.array(-1, np.int64)])
    yield case("index_gather_negative_2d", [N("Gather", ["x0", "x1"], ["y0"], axis=1)],
               [f32(4, 9, 3), ints(-9, 9, (2, 5), np.int32)])
    yield case("index_gather_scalar_index", [N("Gather", ["x0", "x1"], ["y0"], axis=-1)], [f32(3, 7), np.array(-2, np.int64)])
    yield case("index_gather_elements_negative", [N("GatherElements", ["x0", "x1"], ["y0"], axis=1)],
               [f32(5, 7), ints(-7, 7, (5, 3))])
    yield case("index_gather_nd_batch_big", [N("GatherND", ["x0", "x1"], ["y0"], batch_dims=1)],
               [f32(3, 40, 1000), ints(-40, 40, (3, 17, 1))])
    yield case("index_gather_nd_batch2", [N("GatherND", ["x0", "x1"], ["y0"], batch_dims=2)],
               [ints(0, 1000, (2, 3, 5, 4)), ints(-4, 4, (2, 3, 6, 2))])
    yield case("index_gather_nd_many_rows", [N("GatherND", ["x0", "x1"], ["y0"])],
               [f32(50, 60), ints(0, 50, (3000, 2))])
    yield case("index_scatter_elements_add_dup", [N("ScatterElements", ["x0", "x1", "x2"], ["y0"], axis=0, reduction="add")],
               [ints(-50, 50, (4, 5)), ints(-4, 4, (9, 5)), ints(-50, 50, (9, 5))])
    yield case("index_scatter_elements_mul_f32", [N("ScatterElements", ["x0", "x1", "x2"], ["y0"], axis=1, reduction="mul")],
               [f32(3, 6), ints(0, 6, (3, 8)), f32(3, 8)])
    yield case("index_scatter_elements_max_min", [N("ScatterElements", ["x0", "x1", "x2"], ["t"], axis=1, reduction="max"),
                                                 N("ScatterElements", ["t", "x1", "x2"], ["y0"], axis=0, reduction="min")],
               [f32(5, 5), ints(0, 5, (4, 5)), f32(4, 5)])
    yield case("index_scatter_opset10", [N("Scatter", ["x0", "x1", "x2"], ["y0"], axis=1)],
               [f32(3, 5), np.array([[4, 0], [1, 3], [2, 2]], np.int64), f32(3, 2)], opset=10,
               ref_nodes=[N("ScatterElements", ["x0", "x1", "x2"], ["y0"], axis=1)])   # the reference has no Scatter
    yield case("index_scatter_nd_add_dup_slices", [N("ScatterND", ["x0", "x1", "x2"], ["y0"], reduction="add")],
               [rng.standard_normal((5, 4, 3)), ints(-5, 5, (7, 1)), rng.standard_normal((7, 4, 3))])
    yield case("index_scatter_nd_elements", [N("ScatterND", ["x0", "x1", "x2"], ["y0"])],
               [f32(4, 6), np.array([[0, 5], [3, -1], [-4, 2]], np.int64), f32(3)])
    yield case("index_onehot_float_indices", [N("OneHot", ["x0", "x1", "x2"], ["y0"], axis=1)],
               [np.array([[0, -1, 3.5], [2, 7, -4]], np.float32), np.array(4, np.int64), np.array([-3, 11], np.int32)])
    yield case("index_compress_short_condition", [N("Compress", ["x0", "x1"], ["y0"], axis=1)],
               [f32(3, 6, 2), np.array([True, False, True, True], bool)])
    yield case("index_compress_flat", [N("Compress", ["x0", "x1"], ["y0"])], [f32(3, 4), rng.random(12) > 0.5])
    yield case("index_nonzero_3d", [N("NonZero", ["x0"], ["y0"])], [ints(-1, 2, (3, 4, 5), np.int32)])
    yield case("index_unique_axis1_sorted", [N("Unique", ["x0"], ["y0", "y1", "y2", "y3"], axis=1, sorted=1)],
               [ints(0, 2, (2, 9), np.int32)], n_out=4)
    yield case("index_unique_axis2_rank3", [N("Unique", ["x0"], ["y0", "y1", "y2", "y3"], axis=2)],
               [ints(0, 2, (3, 4, 7), np.int32)], n_out=4)
    yield case("index_unique_axis0_unsorted", [N("Unique", ["x0"], ["y0", "y1", "y2", "y3"], axis=0, sorted=0)],
               [ints(0, 2, (9, 2), np.int32)], n_out=4)
    yield case("index_unique_flat_float", [N("Unique", ["x0"], ["y0", "y1", "y2", "y3"])],
               [rng.integers(-4, 4, (5, 7)).astype(np.float32) / 2], n_out=4)
    yield case("index_reverse_sequence_rank3", [N("ReverseSequence", ["x0", "x1"], ["y0"], batch_axis=0, time_axis=1)],
               [f32(4, 6, 3), np.array([6, 0, 1, 4], np.int64)])


def error_cases():
    """Inputs every op must refuse with an error naming the node (never a
    crash, a leak or a result): (name, nodes, inputs, opset, outputs)."""
    def bad(name, nodes, inputs, opset=21, nout=1):
        return "test_" + name, nodes, inputs, opset, nout
    N = helper.make_node
    cases = []
    f = np.ones((3, 4), np.float32)
    cases.append(bad("gather_oob", [N("Gather", ["x0", "x1"], ["y0"], axis=1)],
                     [f, np.array([4], np.int64)]))
    cases.append(bad("gather_float_idx", [N("Gather", ["x0", "x1"], ["y0"])],
                     [f, np.array([1.0], np.float32)]))
    cases.append(bad("gathernd_oob", [N("GatherND", ["x0", "x1"], ["y0"])],
                     [f, np.array([[1, 9]], np.int64)]))
    cases.append(bad("gathernd_k_big", [N("GatherND", ["x0", "x1"], ["y0"])],
                     [f, np.array([[1, 1, 1]], np.int64)]))
    cases.append(bad("gather_elements_oob", [N("GatherElements", ["x0", "x1"], ["y0"])],
                     [f, np.full((3, 4), -4, np.int64)]))
    cases.append(bad("reshape_bad", [N("Reshape", ["x0", "x1"], ["y0"])],
                     [f, np.array([5, -1], np.int64)]))
    cases.append(bad("reshape_two_infer", [N("Reshape", ["x0", "x1"], ["y0"])],
                     [f, np.array([-1, -1], np.int64)]))
    cases.append(bad("reshape_many", [N("Reshape", ["x0", "x1"], ["y0"])],
                     [f, np.ones(12, np.int64)]))
    cases.append(bad("slice_step0", [N("Slice", ["x0", "x1", "x2", "x3", "x4"], ["y0"])],
                     [f, np.array([0], np.int64), np.array([2], np.int64), np.array([0], np.int64), np.array([0], np.int64)]))
    cases.append(bad("slice_axis_oob", [N("Slice", ["x0", "x1", "x2", "x3"], ["y0"])],
                     [f, np.array([0], np.int64), np.array([2], np.int64), np.array([5], np.int64)]))
    cases.append(bad("squeeze_not1", [N("Squeeze", ["x0", "x1"], ["y0"])],
                     [f, np.array([0], np.int64)]))
    cases.append(bad("unsqueeze_dup", [N("Unsqueeze", ["x0", "x1"], ["y0"])],
                     [f, np.array([0, 0], np.int64)]))
    cases.append(bad("unsqueeze_9d", [N("Unsqueeze", ["x0", "x1"], ["y0"])],
                     [f, np.arange(7, dtype=np.int64)]))
    cases.append(bad("transpose_bad", [N("Transpose", ["x0"], ["y0"], perm=[0, 0])],
                     [f]))
    cases.append(bad("expand_bad", [N("Expand", ["x0", "x1"], ["y0"])],
                     [f, np.array([3, 5], np.int64)]))
    cases.append(bad("tile_neg", [N("Tile", ["x0", "x1"], ["y0"])],
                     [f, np.array([1, -1], np.int64)]))
    cases.append(bad("concat_dtype", [N("Concat", ["x0", "x1"], ["y0"], axis=0)],
                     [f, np.ones((1, 4), np.float64)]))
    cases.append(bad("concat_shape", [N("Concat", ["x0", "x1"], ["y0"], axis=0)],
                     [f, np.ones((1, 5), np.float32)]))
    cases.append(bad("split_bad", [N("Split", ["x0", "x1"], ["y0", "y1"], axis=1)],
                     [f, np.array([1, 2], np.int64)], nout=2))
    cases.append(bad("pad_reflect_big", [N("Pad", ["x0", "x1"], ["y0"], mode="reflect")],
                     [f, np.array([0, 5, 0, 0], np.int64)]))
    cases.append(bad("pad_count", [N("Pad", ["x0", "x1"], ["y0"])],
                     [f, np.array([0, 5, 0], np.int64)]))
    cases.append(bad("range_zero", [N("Range", ["x0", "x1", "x2"], ["y0"])],
                     [np.array(1, np.int64), np.array(5, np.int64), np.array(0, np.int64)]))
    cases.append(bad("range_huge", [N("Range", ["x0", "x1", "x2"], ["y0"])],
                     [np.array(0, np.int64), np.array(2**62, np.int64), np.array(1, np.int64)]))
    cases.append(bad("cos_neg", [N("ConstantOfShape", ["x0"], ["y0"])],
                     [np.array([2, -1], np.int64)]))
    cases.append(bad("eyelike_3d", [N("EyeLike", ["x0"], ["y0"])],
                     [np.ones((2, 2, 2), np.float32)]))
    cases.append(bad("trilu_1d", [N("Trilu", ["x0"], ["y0"])],
                     [np.ones(3, np.float32)]))
    cases.append(bad("scatter_el_oob", [N("ScatterElements", ["x0", "x1", "x2"], ["y0"])],
                     [f, np.array([[3]], np.int64), np.ones((1, 1), np.float32)]))
    cases.append(bad("scatter_el_shape", [N("ScatterElements", ["x0", "x1", "x2"], ["y0"])],
                     [f, np.array([[1, 2]], np.int64), np.ones((1, 1), np.float32)]))
    cases.append(bad("scatter_el_dtype", [N("ScatterElements", ["x0", "x1", "x2"], ["y0"])],
                     [f, np.array([[1]], np.int64), np.ones((1, 1), np.float64)]))
    cases.append(bad("scatternd_oob", [N("ScatterND", ["x0", "x1", "x2"], ["y0"])],
                     [f, np.array([[3]], np.int64), np.ones((1, 4), np.float32)]))
    cases.append(bad("scatternd_shape", [N("ScatterND", ["x0", "x1", "x2"], ["y0"])],
                     [f, np.array([[1]], np.int64), np.ones((1, 3), np.float32)]))
    cases.append(bad("onehot_depth0", [N("OneHot", ["x0", "x1", "x2"], ["y0"])],
                     [np.array([1], np.int64), np.array(0, np.int64), np.array([0, 1], np.float32)]))
    cases.append(bad("compress_long", [N("Compress", ["x0", "x1"], ["y0"], axis=0)],
                     [f, np.array([0, 0, 0, 1], bool)]))
    cases.append(bad("d2s_bad", [N("DepthToSpace", ["x0"], ["y0"], blocksize=2)],
                     [np.ones((1, 3, 2, 2), np.float32)]))
    cases.append(bad("s2d_bad", [N("SpaceToDepth", ["x0"], ["y0"], blocksize=2)],
                     [np.ones((1, 3, 3, 2), np.float32)]))
    cases.append(bad("s2d_mode", [N("SpaceToDepth", ["x0"], ["y0"], blocksize=2, mode="XYZ")],
                     [np.ones((1, 3, 2, 2), np.float32)], opset=28))
    cases.append(bad("revseq_bad", [N("ReverseSequence", ["x0", "x1"], ["y0"])],
                     [f, np.array([1, 2, 5, 1], np.int64)]))
    cases.append(bad("revseq_axes", [N("ReverseSequence", ["x0", "x1"], ["y0"], batch_axis=2)],
                     [f, np.array([1, 2, 5, 1], np.int64)]))
    cases.append(bad("pad_mode", [N("Pad", ["x0", "x1"], ["y0"], mode="wrap")],
                     [f, np.array([0, 1, 0, 0], np.int64)], opset=18))
    cases.append(bad("scatter_red", [N("ScatterND", ["x0", "x1", "x2"], ["y0"], reduction="max")],
                     [f, np.array([[1]], np.int64), np.ones((1, 4), np.float32)], opset=16))
    cases.append(bad("ccp_neg", [N("CenterCropPad", ["x0", "x1"], ["y0"])],
                     [f, np.array([1, -2], np.int64)]))
    cases.append(bad("unique_big_axis", [N("Unique", ["x0"], ["y0"], axis=3)],
                     [f]))
    return cases


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
    for name, model, inputs, outputs in cases():
        write_case(out, name, model, inputs, outputs, "rtol 0.0\natol 0.0\n")
        names.append(name)
    with open(os.path.join(out, "expect.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    errors = error_cases()
    for name, nodes, inputs, opset, nout in errors:
        model = make(name, nodes, inputs, opset, [f"y{i}" for i in range(nout)])
        write_case(err_out, name, model, inputs, [np.zeros(1, np.float32)] * nout, "rtol 0.0\natol 0.0\n")
    print(f"gen_shape_cases: {len(names)} cases in {out}, {len(errors)} error cases in {err_out}")


if __name__ == "__main__":
    main()
