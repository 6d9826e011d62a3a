#!/usr/bin/env python3
"""gen_uint_cases.py OUT_DIR — cases for the ONNX ops whose type constraints
include uint16/uint32/uint64 beyond the node suite's few (which test the
binary ops on small values): every such op on each of the three types, with
values at the edges of the type (0, 2^32 - 1, 2^32, 2^63 - 1, 2^63,
2^64 - 1, ...) where the op is exact on them, in the node suite's layout
(see gen_node_suite.py) so tk_onnx_suite runs them. Expected outputs come
from onnx's reference implementation (onnx.reference).

The inputs avoid what the reference computes by NumPy's accidents rather
than by the ONNX spec: sums of squares and means of values that would
overflow the input type (NumPy accumulates them in it and wraps; TileKit
computes means and norms in f64), u64 values whose float arithmetic rounds
(Shrink), and ReduceSumSquare of u16/u32 (NumPy returns u64 there, the spec
the input type). Integer results must match bit for bit (tolerance 0); float
results (casts, Pow, ReduceL2) to 1e-6. OUT_DIR/expect.txt lists every case.

    gen_uint_cases.py OUT_DIR
"""
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

EDGES = np.array([0, 1, 2, 3, 255, 65535, 65536, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**63, 2**63 + 1,
                  2**64 - 2, 2**64 - 1], dtype=np.uint64)
ONNX_TYPE = {np.uint16: TP.UINT16, np.uint32: TP.UINT32, np.uint64: TP.UINT64}
rng = np.random.default_rng(27)


def values(dt, shape):
    """The edges (cut to the type's width) first, then random values of the whole range."""
    n = int(np.prod(shape))
    top = np.iinfo(dt).max
    v = np.concatenate([EDGES & np.uint64(top), rng.integers(0, top, size=max(n, 1), dtype=dt, endpoint=True).astype(np.uint64)])
    return v[:n].astype(dt).reshape(shape)


def small(dt, shape, mod):
    return (values(dt, shape) % np.array(mod, dt)).astype(dt)


def write(out, name, op, inputs, attrs=None, n_out=1, opset=21):
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op, names, [f"y{i}" for i in range(n_out)], **(attrs or {}))
    g_in = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape) for n, a in zip(names, inputs)]
    g_out = [helper.make_tensor_value_info(f"y{i}", TP.UNDEFINED, None) for i in range(n_out)]
    model = helper.make_model(helper.make_graph([node], name, g_in, g_out), opset_imports=[helper.make_opsetid("", opset)])
    with np.errstate(all="ignore"):
        outputs = [np.asarray(r) for r in ReferenceEvaluator(model).run(None, dict(zip(names, inputs)))]
    for i, r in enumerate(outputs):
        model.graph.output[i].CopyFrom(helper.make_tensor_value_info(f"y{i}", helper.np_dtype_to_tensor_dtype(r.dtype), r.shape))
    d = os.path.join(out, name)
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds)
    onnx.save(model, os.path.join(d, "model.onnx"))
    kinds = []
    for which, vals in (("input", inputs), ("output", outputs)):
        for i, v in enumerate(vals):
            with open(os.path.join(ds, f"{which}_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(v).SerializeToString())
            kinds.append(f"0 {which} {i} tensor")
    floats = any(np.issubdtype(r.dtype, np.floating) for r in outputs)
    with open(os.path.join(d, "meta.txt"), "w") as f:
        f.write(("rtol 1e-6\natol 0.0\n" if floats else "rtol 0.0\natol 0.0\n") + "".join(k + "\n" for k in kinds))
    return name


def cases(out):
    names = []
    i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
    for dt in (np.uint16, np.uint32, np.uint64):
        t = np.dtype(dt).name
        W = lambda name, *a, **k: names.append(write(out, f"test_{name}_{t}", *a, **k))  # noqa: E731
        x, y = values(dt, (3, 5)), values(dt, (3, 5))[::-1].copy()
        x3 = values(dt, (2, 3, 4))
        idx = np.array([[0, 4], [1, 1], [3, 2]], np.int64)
        # element-wise
        W("abs", "Abs", [x])
        W("sign", "Sign", [x])
        W("clip", "Clip", [x, np.array(3, dt), np.array(2**15 + 7, dt)])
        W("sum3", "Sum", [x, y, x])
        W("max3", "Max", [x, y, x[::-1].copy()])
        W("min3", "Min", [x, y, x[::-1].copy()])
        W("mod", "Mod", [x, np.maximum(y, 1).astype(dt)])
        W("div", "Div", [x, np.maximum(y, 1).astype(dt)])
        W("greater", "Greater", [x, y])
        W("less_or_equal", "LessOrEqual", [x, y])
        W("bitwise_not", "BitwiseNot", [x])
        W("bitwise_xor", "BitwiseXor", [x, y])
        W("bitshift_right", "BitShift", [x, (y % np.array(70, dt)).astype(dt)], {"direction": "RIGHT"})
        W("where", "Where", [x > y, x, y])
        W("pow", "Pow", [np.array([2.0, 3.0, 0.5], np.float32), np.array([3, 2, 1], dt)])
        W("shrink", "Shrink", [(x % np.array(2**40 if dt == np.uint64 else np.iinfo(dt).max, dt)).astype(dt)],
          {"lambd": 2.0, "bias": 1.0})
        # reductions
        for r in ("ReduceMax", "ReduceMin", "ReduceSum", "ReduceProd", "ReduceL1"):
            W(r.lower(), r, [x, i64(1)], {"keepdims": 0})
        if dt == np.uint64:
            W("reducesumsquare", "ReduceSumSquare", [x, i64(1)], {"keepdims": 0})
        W("reducemean", "ReduceMean", [small(dt, (2, 3, 4), 100), i64(2)])
        W("reducel2", "ReduceL2", [small(dt, (2, 3, 4), 100), i64(2)])
        W("reducemax_empty", "ReduceMax", [np.zeros((2, 0), dt), i64(1)], {"keepdims": 1})
        W("reducemin_empty", "ReduceMin", [np.zeros((2, 0), dt), i64(1)], {"keepdims": 1})
        W("argmax", "ArgMax", [x], {"axis": 1})
        W("argmin", "ArgMin", [x], {"axis": 0, "keepdims": 0})
        W("argmax_last", "ArgMax", [np.array([[5, 9, 9, 1]], dt)], {"axis": 1, "select_last_index": 1})
        W("topk", "TopK", [x, i64(3)], {"axis": 1}, n_out=2)
        W("topk_smallest", "TopK", [x, i64(2)], {"axis": 0, "largest": 0}, n_out=2)
        W("unique", "Unique", [np.concatenate([x.ravel(), x.ravel()[:4]])], {"sorted": 1}, n_out=4)
        if dt != np.uint16:
            W("cumsum", "CumSum", [x, np.array(1, np.int64)], {"reverse": 1})
            W("cumsum_exclusive", "CumSum", [x3, np.array(2, np.int64)], {"exclusive": 1})
            W("matmul", "MatMul", [small(dt, (3, 5), 1000), small(dt, (5, 3), 1000)])
            W("gemm", "Gemm", [small(dt, (3, 5), 1000), small(dt, (5, 3), 1000)], opset=13)
        W("einsum", "Einsum", [small(dt, (3, 5), 100), small(dt, (3, 5), 100)], {"equation": "ij,ij->i"})
        # indexing and movement
        W("gather", "Gather", [x, i64(2, 0, -1)], {"axis": 1})
        W("gather_elements", "GatherElements", [x, idx], {"axis": 1})
        W("gather_nd", "GatherND", [x3, np.array([[0, 1], [1, 2]], np.int64)])
        W("scatter_elements_max", "ScatterElements", [x, idx, values(dt, (3, 2))], {"axis": 1, "reduction": "max"})
        for red in ("none", "add", "min"):
            W(f"scatter_nd_{red}", "ScatterND", [x3, np.array([[0, 1], [1, 2]], np.int64), values(dt, (2, 4))],
              {"reduction": red} if red != "none" else {})
        W("concat", "Concat", [x, y], {"axis": 0})
        W("transpose", "Transpose", [x3], {"perm": [2, 0, 1]})
        W("tile", "Tile", [x, i64(2, 1)])
        W("pad_constant", "Pad", [x, i64(1, 0, 0, 2), np.array(9, dt)])
        W("pad_reflect", "Pad", [x3, i64(0, 1, 1, 0, 1, 2)], {"mode": "reflect"})
        W("slice", "Slice", [x, i64(1), i64(5), i64(1), i64(2)])
        W("expand", "Expand", [x[:1], i64(4, 5)])
        W("trilu", "Trilu", [x])
        W("nonzero", "NonZero", [x])
        W("compress", "Compress", [x3, np.array([True, False, True])], {"axis": 1})
        W("reverse_sequence", "ReverseSequence", [x3, i64(3, 1)], {"batch_axis": 0, "time_axis": 1})
        W("depth_to_space", "DepthToSpace", [values(dt, (1, 4, 2, 3))], {"blocksize": 2})
        W("space_to_depth", "SpaceToDepth", [values(dt, (1, 1, 4, 6))], {"blocksize": 2})
        W("resize_nearest", "Resize", [values(dt, (1, 1, 2, 3)), np.array([], np.float32), np.array([1, 1, 2, 2], np.float32)],
          {"mode": "nearest"})
        W("center_crop_pad", "CenterCropPad", [x3, i64(2, 5, 3)])
        W("split", "Split", [x], {"axis": 1, "num_outputs": 2}, n_out=2, opset=18)
        W("onehot_indices", "OneHot", [np.array([0, 2, 1], dt), np.array(3, np.int64), np.array([0, 1], np.float32)])
        # casts both ways, and the ops that make values of the type
        for to in (TP.FLOAT, TP.DOUBLE, TP.FLOAT16, TP.INT64, TP.INT32, TP.UINT8, TP.UINT16, TP.UINT32, TP.UINT64):
            W(f"cast_to_{TP.DataType.Name(to).lower()}", "Cast", [x], {"to": to})
        W("cast_from_float", "Cast", [np.array([0.0, 1.5, 7.9, 65535.0, 4e9, 1e19], np.float32)[:6 if dt == np.uint64 else 4]],
          {"to": ONNX_TYPE[dt]})
        W("eye_like", "EyeLike", [np.zeros((3, 4), np.float32)], {"dtype": ONNX_TYPE[dt], "k": 1})
    return names


def main():
    out = sys.argv[1]
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    names = cases(out)
    with open(os.path.join(out, "expect.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    print(f"gen_uint_cases: {len(names)} cases in {out}")


if __name__ == "__main__":
    main()
