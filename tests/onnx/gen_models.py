#!/usr/bin/env python3
"""gen_models.py OUT_DIR — small ONNX models for the loader's unit tests
(test_loader.c), made at test time with the onnx package (Debian's
python3-onnx does; no model hub). Each model exercises one thing the
loader must get right; expected outputs are computed here with NumPy and
written beside as .npy.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(7)


def save(model, name):
    model.ir_version = min(model.ir_version, 8)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))


def npy(name, a):
    np.save(os.path.join(OUT, name + ".npy"), a)


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# 1. chain: y = relu(x * w + b) with symbolic batch "N", initializers in raw_data
w = rng.standard_normal((5, 7)).astype(np.float32)
b = rng.standard_normal((7,)).astype(np.float32)
g = helper.make_graph(
    [helper.make_node("Mul", ["x", "w"], ["xw"], name="mul"),
     helper.make_node("Add", ["xw", "b"], ["xwb"], name="add"),
     helper.make_node("Relu", ["xwb"], ["y"], name="relu")],
    "chain", [vi("x", TensorProto.FLOAT, ["N", 5, 7])], [vi("y", TensorProto.FLOAT, ["N", 5, 7])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), "chain")
x = rng.standard_normal((3, 5, 7)).astype(np.float32)
npy("chain_x", x)
npy("chain_y", np.maximum(x * w + b, 0))

# 2. the same nodes in reverse order (unsorted), opset 13
g2 = helper.make_graph(list(reversed(g.node)), "unsorted", g.input, g.output, g.initializer)
save(helper.make_model(g2, opset_imports=[helper.make_opsetid("", 13)]), "unsorted")

# 3. a cycle: a = Relu(c), c = Neg(a)
g3 = helper.make_graph(
    [helper.make_node("Relu", ["c"], ["a"], name="r"), helper.make_node("Neg", ["a"], ["c"], name="n"),
     helper.make_node("Add", ["x", "a"], ["y"], name="add")],
    "cyclic", [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, [2])])
save(helper.make_model(g3, opset_imports=[helper.make_opsetid("", 17)]), "cycle")

# 4. everything unsupported at once: two unknown ops, an unknown attribute, a complex64 input
g4 = helper.make_graph(
    [helper.make_node("FrobnicateA", ["x"], ["a"], name="fa"),
     helper.make_node("Relu", ["a"], ["b"], name="relu_attr", sharpness=3),
     helper.make_node("FrobnicateB", ["b", "u"], ["y"], name="fb", domain="com.example")],
    "unsupported", [vi("x", TensorProto.FLOAT, [2]), vi("u", TensorProto.COMPLEX64, [2])], [vi("y", TensorProto.FLOAT, [2])])
save(helper.make_model(g4, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]), "unsupported")

# 5. an initializer in an external file (zero-copy through the mapping)
big = rng.standard_normal((64, 64)).astype(np.float32)
t = numpy_helper.from_array(big, "big")
t.ClearField("raw_data")
t.data_location = TensorProto.EXTERNAL
for k, v in (("location", "external.bin"), ("offset", "4096"), ("length", str(big.nbytes))):
    e = t.external_data.add()
    e.key, e.value = k, v
with open(os.path.join(OUT, "external.bin"), "wb") as f:
    f.write(b"\0" * 4096 + big.tobytes())
g5 = helper.make_graph([helper.make_node("Add", ["x", "big"], ["y"], name="add")], "external",
                       [vi("x", TensorProto.FLOAT, [64, 64])], [vi("y", TensorProto.FLOAT, [64, 64])], [t])
save(helper.make_model(g5, opset_imports=[helper.make_opsetid("", 17)]), "external")
npy("external_big", big)

# 6. If whose branches read values of the outer graph (and a nested If)
inner_then = helper.make_graph([helper.make_node("Mul", ["s", "s"], ["r"], name="sq")], "inner_then", [],
                               [vi("r", TensorProto.FLOAT, [3])])
inner_else = helper.make_graph([helper.make_node("Neg", ["s"], ["r2"], name="neg")], "inner_else", [],
                               [vi("r2", TensorProto.FLOAT, [3])])
then_g = helper.make_graph(
    [helper.make_node("If", ["c2"], ["t"], name="inner_if", then_branch=inner_then, else_branch=inner_else)],
    "then", [], [vi("t", TensorProto.FLOAT, [3])])
else_g = helper.make_graph([helper.make_node("Add", ["s", "x"], ["e"], name="add")], "else", [],
                           [vi("e", TensorProto.FLOAT, [3])])
g6 = helper.make_graph(
    [helper.make_node("If", ["c"], ["y"], name="outer_if", then_branch=then_g, else_branch=else_g),
     helper.make_node("Add", ["x", "x"], ["s"], name="double")],   # after its reader: sorting must see the subgraph read
    "if_outer", [vi("c", TensorProto.BOOL, []), vi("c2", TensorProto.BOOL, []), vi("x", TensorProto.FLOAT, [3])],
    [vi("y", TensorProto.FLOAT, [3])])
save(helper.make_model(g6, opset_imports=[helper.make_opsetid("", 17)]), "if_outer")

# 7. constant folding: a Constant and arithmetic on it leave no nodes but one
g7 = helper.make_graph(
    [helper.make_node("Constant", [], ["k"], name="k", value=numpy_helper.from_array(np.array([1.5, -2.0], np.float32))),
     helper.make_node("Mul", ["k", "k"], ["k2"], name="kk"),
     helper.make_node("Add", ["x", "k2"], ["y"], name="add")],
    "fold", [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, [2])])
save(helper.make_model(g7, opset_imports=[helper.make_opsetid("", 17)]), "fold")

# 8. outputs that would alias: the input itself (Identity) and a view of a constant (Reshape)
c = np.arange(6, dtype=np.float32)
g8 = helper.make_graph(
    [helper.make_node("Identity", ["x"], ["same"], name="id"),
     helper.make_node("Reshape", ["c", "shape"], ["view"], name="view")],
    "alias", [vi("x", TensorProto.FLOAT, [2])], [vi("same", TensorProto.FLOAT, [2]), vi("view", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(c, "c"), numpy_helper.from_array(np.array([2, 3], np.int64), "shape")])
save(helper.make_model(g8, opset_imports=[helper.make_opsetid("", 17)]), "alias")

# 9. a CNN block the fusion pass rewrites: Conv -> BatchNormalization -> Relu (BN folded into the
# weights, ReLU in the kernel), Conv -> Clip(0, 6) (ReLU6), a residual Add, MaxPool and
# GlobalAveragePool reading the channels-last results, and a conv output that is also a graph
# output (so it must come back row-major). NumPy computes it step by step in float64.
def conv_ref(x, w, b, stride, pad):
    n, c, h, wd = x.shape
    oc, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, oc, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return y + b[None, :, None, None]


def maxpool_ref(x, k, s, p):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    return np.max([xp[:, :, i:i + s * oh:s, j:j + s * ow:s] for i in range(k) for j in range(k)], axis=0)


x9 = rng.standard_normal((2, 3, 13, 11)).astype(np.float32)
w1 = rng.standard_normal((24, 3, 3, 3)).astype(np.float32) * 0.3
b1 = rng.standard_normal(24).astype(np.float32)
gam, bet = rng.uniform(0.5, 2, 24).astype(np.float32), rng.standard_normal(24).astype(np.float32)
mu, var = rng.standard_normal(24).astype(np.float32), rng.uniform(0.2, 3, 24).astype(np.float32)
w2 = rng.standard_normal((24, 24, 3, 3)).astype(np.float32) * 0.1
b2 = rng.standard_normal(24).astype(np.float32)
w3 = rng.standard_normal((16, 24, 1, 1)).astype(np.float32) * 0.2
b3 = np.zeros(16, np.float32)
g9 = helper.make_graph(
    [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1], strides=[2, 2]),
     helper.make_node("BatchNormalization", ["c1", "gam", "bet", "mu", "var"], ["n1"], name="bn1", epsilon=1e-3),
     helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
     helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
     helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"], name="relu6"),
     helper.make_node("Add", ["r1", "r2"], ["res"], name="residual"),
     helper.make_node("MaxPool", ["res"], ["mp"], name="pool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
     helper.make_node("Conv", ["mp", "w3", "b3"], ["c3"], name="conv3"),
     helper.make_node("GlobalAveragePool", ["c3"], ["gap"], name="gap")],
    "cnn_block", [vi("x", TensorProto.FLOAT, ["N", 3, 13, 11])],
    [vi("gap", TensorProto.FLOAT, ["N", 16, 1, 1]), vi("c3", TensorProto.FLOAT, ["N", 16, 4, 3])],
    [numpy_helper.from_array(a, nm) for a, nm in [(w1, "w1"), (b1, "b1"), (gam, "gam"), (bet, "bet"), (mu, "mu"), (var, "var"),
                                                  (w2, "w2"), (b2, "b2"), (w3, "w3"), (b3, "b3"),
                                                  (np.array(0, np.float32), "lo"), (np.array(6, np.float32), "hi")]])
save(helper.make_model(g9, opset_imports=[helper.make_opsetid("", 17)]), "cnn_block")
xd = x9.astype(np.float64)
c1 = conv_ref(xd, w1.astype(np.float64), b1.astype(np.float64), 2, 1)
n1 = (c1 - mu[None, :, None, None]) / np.sqrt(var[None, :, None, None].astype(np.float64) + 1e-3) * gam[None, :, None, None] \
    + bet[None, :, None, None]
r1 = np.maximum(n1, 0)
r2 = np.clip(conv_ref(r1, w2.astype(np.float64), b2.astype(np.float64), 1, 1), 0, 6)
mp = maxpool_ref(r1 + r2, 3, 2, 1)
c3 = conv_ref(mp, w3.astype(np.float64), b3.astype(np.float64), 1, 0)
npy("cnn_block_x", x9)
npy("cnn_block_gap", c3.mean(axis=(2, 3), keepdims=True).astype(np.float32))
npy("cnn_block_c3", c3.astype(np.float32))

# 9b. inference with symbolic dims: batch / seq / H / W flow through matmul, a reshape to a shape
#    computed from Shape (Shape -> Gather -> Unsqueeze -> Concat), transpose, conv, pools,
#    reductions, slices; test_loader.c compares the inferred types with infer_symbolic.txt
W9 = rng.standard_normal((16, 32)).astype(np.float32)
B9 = rng.standard_normal((32,)).astype(np.float32)
WC9 = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)


def i64(name, v):
    return numpy_helper.from_array(np.array(v, np.int64), name)


g9 = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["mm"], name="mm"),
     helper.make_node("Add", ["mm", "bias"], ["lin"], name="bias"),
     helper.make_node("Shape", ["x"], ["sh"], name="shape"),
     helper.make_node("Gather", ["sh", "zero"], ["b0"], name="batch_of", axis=0),
     helper.make_node("Gather", ["sh", "one_scalar"], ["s0"], name="seq_of", axis=0),
     helper.make_node("Unsqueeze", ["b0", "axes0"], ["ub"], name="ub"),
     helper.make_node("Unsqueeze", ["s0", "axes0"], ["us"], name="us"),
     helper.make_node("Concat", ["ub", "us", "heads"], ["newshape"], name="newshape", axis=0),
     helper.make_node("Reshape", ["lin", "newshape"], ["split_heads"], name="split_heads"),
     helper.make_node("Transpose", ["split_heads"], ["bhsd"], name="bhsd", perm=[0, 2, 1, 3]),
     helper.make_node("Reshape", ["bhsd", "keep0_rest"], ["flat"], name="flat"),
     helper.make_node("Softmax", ["flat"], ["probs"], name="softmax", axis=-1),
     helper.make_node("Conv", ["img", "wc"], ["conv"], name="conv", strides=[2, 2], pads=[1, 1, 1, 1]),
     helper.make_node("MaxPool", ["conv"], ["pool"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("AveragePool", ["img"], ["same"], name="same_pool", kernel_shape=[3, 3], strides=[2, 2],
                      auto_pad="SAME_UPPER"),
     helper.make_node("GlobalAveragePool", ["pool"], ["gap"], name="gap"),
     helper.make_node("Flatten", ["gap"], ["feat"], name="feat", axis=1),
     helper.make_node("ReduceMean", ["x"], ["xmean"], name="xmean", axes=[1], keepdims=0),
     helper.make_node("Concat", ["feat", "xmean"], ["both"], name="both", axis=1),
     helper.make_node("Slice", ["x", "one", "big", "one"], ["tail"], name="tail"),
     helper.make_node("Cast", ["sh"], ["shf"], name="shf", to=TensorProto.FLOAT),
     helper.make_node("Greater", ["tail", "zerof"], ["pos"], name="pos"),
     helper.make_node("Where", ["pos", "tail", "zerof"], ["relu"], name="relu"),
     helper.make_node("ArgMax", ["relu"], ["best"], name="best", axis=2, keepdims=1)],
    "infer_symbolic",
    [vi("x", TensorProto.FLOAT, ["batch", "seq", 16]), vi("img", TensorProto.FLOAT, ["batch", 3, "H", "W"])],
    [vi("probs", TensorProto.FLOAT, None), vi("both", TensorProto.FLOAT, None), vi("best", TensorProto.INT64, None),
     vi("same", TensorProto.FLOAT, None), vi("shf", TensorProto.FLOAT, None)],
    [numpy_helper.from_array(W9, "w"), numpy_helper.from_array(B9, "bias"), numpy_helper.from_array(WC9, "wc"),
     i64("zero", 0), i64("one_scalar", 1), i64("one", [1]), i64("axes0", [0]), i64("heads", [4, 8]),
     i64("keep0_rest", [0, -1]), i64("big", [2**62]), numpy_helper.from_array(np.array(0, np.float32), "zerof")])
save(helper.make_model(g9, opset_imports=[helper.make_opsetid("", 17)]), "infer_symbolic")

# 10. value_info that contradicts what the ops make: a wrong dim and a wrong type, both named at load
g10 = helper.make_graph(
    [helper.make_node("Add", ["x", "x"], ["s"], name="add"),
     helper.make_node("Relu", ["s"], ["r"], name="relu"),
     helper.make_node("Neg", ["r"], ["y"], name="neg")],
    "value_info_conflict", [vi("x", TensorProto.FLOAT, [2, 3])], [vi("y", TensorProto.FLOAT, [2, 3])],
    value_info=[vi("s", TensorProto.FLOAT, [2, 4]), vi("r", TensorProto.INT64, [2, 3])])
save(helper.make_model(g10, opset_imports=[helper.make_opsetid("", 17)]), "value_info_conflict")

# 11. an intermediate of a type its reader does not take (Sin of ArgMax's int64), with an unknown
#     attribute elsewhere: one message lists both
g11 = helper.make_graph(
    [helper.make_node("ArgMax", ["x"], ["am"], name="argmax", axis=1),
     helper.make_node("Sin", ["am"], ["s"], name="sin"),
     helper.make_node("Relu", ["x"], ["r"], name="relu_attr", sharpness=3)],
    "bad_intermediate", [vi("x", TensorProto.FLOAT, [2, 3])],
    [vi("s", TensorProto.INT64, None), vi("r", TensorProto.FLOAT, [2, 3])])
save(helper.make_model(g11, opset_imports=[helper.make_opsetid("", 17)]), "bad_intermediate")

# 12. dead nodes: a chain nobody reads (Exp -> Log) beside the one that makes the output
g12 = helper.make_graph(
    [helper.make_node("Exp", ["x"], ["e"], name="exp"),
     helper.make_node("Log", ["e"], ["unused"], name="log"),
     helper.make_node("Neg", ["x"], ["y"], name="neg")],
    "dead", [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, [2])])
save(helper.make_model(g12, opset_imports=[helper.make_opsetid("", 17)]), "dead")

# 13. what inference cannot derive (NonZero's count) comes from value_info, which here is wrong:
#     a run with opts.check_infer must notice (the check can fail)
g13 = helper.make_graph(
    [helper.make_node("NonZero", ["x"], ["nz"], name="nonzero"),
     helper.make_node("Identity", ["nz"], ["y"], name="id")],
    "wrong_value_info", [vi("x", TensorProto.FLOAT, [4])], [vi("y", TensorProto.INT64, None)],
    value_info=[vi("nz", TensorProto.INT64, [1, 3])])
save(helper.make_model(g13, opset_imports=[helper.make_opsetid("", 17)]), "wrong_value_info")

# 14. free dims without a name (Paddle writes "?" for each): each is a size of its own
g14 = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="relu"),
     helper.make_node("Reshape", ["r", "keep0_rest"], ["flat"], name="flat")],
    "infer_unnamed", [vi("x", TensorProto.FLOAT, ["?", 3, None])], [vi("flat", TensorProto.FLOAT, None)],
    [i64("keep0_rest", [0, -1])])
save(helper.make_model(g14, opset_imports=[helper.make_opsetid("", 17)]), "infer_unnamed")

# 15. classifier heads as Gemm: transB 0 with C [1, N], transB 1 with C [N] (both become FusedLinear)
xg = rng.standard_normal((3, 6)).astype(np.float32)
bg, cg = rng.standard_normal((6, 5)).astype(np.float32), rng.standard_normal((1, 5)).astype(np.float32)
btg, cg2 = rng.standard_normal((5, 6)).astype(np.float32), rng.standard_normal(5).astype(np.float32)
g15 = helper.make_graph(
    [helper.make_node("Gemm", ["x", "b", "c"], ["y"], name="head"),
     helper.make_node("Gemm", ["x", "bt", "c2"], ["y2"], name="head_t", transB=1)],
    "gemm_heads", [vi("x", TensorProto.FLOAT, ["N", 6])], [vi("y", TensorProto.FLOAT, ["N", 5]), vi("y2", TensorProto.FLOAT, ["N", 5])],
    [numpy_helper.from_array(a, nm) for a, nm in [(bg, "b"), (cg, "c"), (btg, "bt"), (cg2, "c2")]])
save(helper.make_model(g15, opset_imports=[helper.make_opsetid("", 13)]), "gemm_heads")
npy("gemm_heads_x", xg)
npy("gemm_heads_y", (xg.astype(np.float64) @ bg + cg).astype(np.float32))
npy("gemm_heads_y2", (xg.astype(np.float64) @ btg.T.astype(np.float64) + cg2).astype(np.float32))

# 16. FFN patterns and linear epilogues (graph_fuse_ffn.c): odd T = 7 (x [2, 7, 33]), D = 33,
# F = 70; references in float64 from the float32 weights. test_ffn_fuse.c loads each with
# the FFN rewrite forced (tk_onnx_opts.fuse_ffn ALWAYS: these sizes are below AUTO's) and
# with no_fuse, and counts the nodes left.
import math  # noqa: E402

D, F = 33, 70
xf = rng.standard_normal((2, 7, D)).astype(np.float32)
npy("ffn_x", xf)
x64 = xf.astype(np.float64)
erf = np.vectorize(math.erf)


def w(*shape, scale=0.3):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def gelu_erf(v):
    return 0.5 * v * (1.0 + erf(v / math.sqrt(2.0)))


def gelu_tanh(v):
    return 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def ffn_model(name, act_nodes, act_ref, extra_outputs=(), opset=17, residual=True, domains=()):
    """MatMul + b1 -> act_nodes (reading 'h1', writing 'a') -> MatMul + b2 [+ x]."""
    w1, b1, w2, b2 = w(D, F), w(F), w(F, D), w(D)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["m1"], name="fc1"), helper.make_node("Add", ["m1", "b1"], ["h1"], name="fc1_bias")]
    nodes += act_nodes
    nodes += [helper.make_node("MatMul", ["a", "w2"], ["m2"], name="fc2"),
              helper.make_node("Add", ["m2", "b2"], ["y0" if residual else "y"], name="fc2_bias")]
    if residual:
        nodes.append(helper.make_node("Add", ["y0", "x"], ["y"], name="residual"))
    outs = [vi("y", TensorProto.FLOAT, [2, 7, D])] + [vi(o, TensorProto.FLOAT, None) for o in extra_outputs]
    g = helper.make_graph(nodes, name, [vi("x", TensorProto.FLOAT, [2, 7, D])], outs,
                          [numpy_helper.from_array(a, nm) for a, nm in [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2")]])
    ops = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    save(helper.make_model(g, opset_imports=ops), name)
    h = x64 @ w1 + b1
    y = act_ref(h) @ w2 + b2 + (x64 if residual else 0)
    npy(name + "_y", y.astype(np.float32))
    return h


c = lambda nm, v: numpy_helper.from_array(np.array(v, np.float32), nm)  # noqa: E731
ffn_model("ffn_relu", [helper.make_node("Relu", ["h1"], ["a"])], lambda h: np.maximum(h, 0))
# PyTorch 1.x's F.gelu: x·(erf(x/√2) + 1)·0.5 (the FusedGelu rewrite, then the FFN)
erf_nodes = [helper.make_node("Constant", [], ["sq2"], value=c("sq2", math.sqrt(2.0))),
             helper.make_node("Constant", [], ["one"], value=c("one", 1.0)),
             helper.make_node("Constant", [], ["half"], value=c("half", 0.5)),
             helper.make_node("Div", ["h1", "sq2"], ["e0"]), helper.make_node("Erf", ["e0"], ["e1"]),
             helper.make_node("Add", ["e1", "one"], ["e2"]), helper.make_node("Mul", ["h1", "e2"], ["e3"]),
             helper.make_node("Mul", ["e3", "half"], ["a"])]
ffn_model("ffn_gelu_erf", erf_nodes, gelu_erf, residual=False)
ffn_model("ffn_gelu_onnx", [helper.make_node("Gelu", ["h1"], ["a"])], gelu_erf, opset=20)
ffn_model("ffn_gelu_tanh", [helper.make_node("Gelu", ["h1"], ["a"], approximate="tanh")], gelu_tanh, opset=20)
# gelu(approximate='tanh') as PyTorch 1.13 exports it below opset 20 (x³ as x·(x·x)), and
# with x³ as Pow(x, 3) as other exporters write it: FusedGelu (tanh), then the FFN
def tanh_gelu_nodes(pow_cube):
    cube = ([helper.make_node("Constant", [], ["three"], value=c("three", 3.0)), helper.make_node("Pow", ["h1", "three"], ["t1"])]
            if pow_cube else [helper.make_node("Mul", ["h1", "h1"], ["t0"]), helper.make_node("Mul", ["h1", "t0"], ["t1"])])
    return cube + [helper.make_node("Constant", [], ["k0"], value=c("k0", 0.044715)), helper.make_node("Mul", ["k0", "t1"], ["t2"]),
                   helper.make_node("Add", ["h1", "t2"], ["t3"]),
                   helper.make_node("Constant", [], ["k1"], value=c("k1", math.sqrt(2.0 / math.pi))),
                   helper.make_node("Mul", ["k1", "t3"], ["t4"]), helper.make_node("Tanh", ["t4"], ["t5"]),
                   helper.make_node("Constant", [], ["k2"], value=c("k2", 1.0)), helper.make_node("Add", ["k2", "t5"], ["t6"]),
                   helper.make_node("Mul", ["h1", "t6"], ["t7"]), helper.make_node("Constant", [], ["k3"], value=c("k3", 0.5)),
                   helper.make_node("Mul", ["k3", "t7"], ["a"])]


ffn_model("ffn_gelu_tanh_expanded", tanh_gelu_nodes(False), gelu_tanh)
ffn_model("ffn_gelu_tanh_pow", tanh_gelu_nodes(True), gelu_tanh, residual=False)
# the tanh expansion on its own (no linear to absorb it): one FusedGelu node
g_tg = helper.make_graph(tanh_gelu_nodes(False), "gelu_tanh_alone", [vi("h1", TensorProto.FLOAT, [2, 7, D])],
                         [vi("a", TensorProto.FLOAT, [2, 7, D])])
save(helper.make_model(g_tg, opset_imports=[helper.make_opsetid("", 17)]), "gelu_tanh_alone")
npy("gelu_tanh_alone_y", gelu_tanh(x64).astype(np.float32))
ffn_model("ffn_fastgelu", [helper.make_node("FastGelu", ["h1"], ["a"], domain="com.microsoft")], gelu_tanh,
          domains=["com.microsoft"])
# the negative case: the hidden activation is also a graph output (a second reader): no FusedFfn
ffn_model("ffn_relu_shared", [helper.make_node("Relu", ["h1"], ["a"])], lambda h: np.maximum(h, 0), extra_outputs=["a"])

# SwiGLU as LLaMA exports it: silu(x·W1) ⊙ (x·W3) · W2, no biases, then the residual
w1, w3, w2 = w(D, F), w(D, F), w(F, D)
g16 = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w1"], ["g"], name="gate"), helper.make_node("Sigmoid", ["g"], ["gs"]),
     helper.make_node("Mul", ["g", "gs"], ["silu"]), helper.make_node("MatMul", ["x", "w3"], ["u"], name="up"),
     helper.make_node("Mul", ["silu", "u"], ["hu"]), helper.make_node("MatMul", ["hu", "w2"], ["dn"], name="down"),
     helper.make_node("Add", ["x", "dn"], ["y"], name="residual")],
    "ffn_swiglu", [vi("x", TensorProto.FLOAT, [2, 7, D])], [vi("y", TensorProto.FLOAT, [2, 7, D])],
    [numpy_helper.from_array(a, nm) for a, nm in [(w1, "w1"), (w3, "w3"), (w2, "w2")]])
save(helper.make_model(g16, opset_imports=[helper.make_opsetid("", 17)]), "ffn_swiglu")
gg = x64 @ w1
npy("ffn_swiglu_y", (x64 + (gg * sigmoid(gg) * (x64 @ w3)) @ w2).astype(np.float32))

# linear epilogues: one x, a head per activation, some with a residual (x itself, or a
# broadcast [N] constant after the activation); N = D where x is the residual
heads = [("sig", "Sigmoid", sigmoid, None), ("tanh", "Tanh", np.tanh, "x"), ("relu", "Relu", lambda v: np.maximum(v, 0), "x"),
         ("silu", None, lambda v: v * sigmoid(v), "x"), ("gelu", "Gelu", gelu_erf, "rc"), ("plain", None, None, "x")]
nodes, inits, outs = [], [], []
rc = w(D)
inits.append(numpy_helper.from_array(rc, "rc"))
for nm, op, ref, res in heads:
    wk, bk = w(D, D), w(D)
    inits += [numpy_helper.from_array(wk, "w_" + nm), numpy_helper.from_array(bk, "b_" + nm)]
    nodes += [helper.make_node("MatMul", ["x", "w_" + nm], ["m_" + nm]), helper.make_node("Add", ["m_" + nm, "b_" + nm], ["l_" + nm])]
    cur = "l_" + nm
    if nm == "silu":
        nodes += [helper.make_node("Sigmoid", [cur], ["s_" + nm]), helper.make_node("Mul", ["s_" + nm, cur], ["a_" + nm])]
        cur = "a_" + nm
    elif op == "Gelu":
        nodes.append(helper.make_node("Gelu", [cur], ["a_" + nm], domain="com.microsoft"))
        cur = "a_" + nm
    elif op:
        nodes.append(helper.make_node(op, [cur], ["a_" + nm]))
        cur = "a_" + nm
    if res:
        nodes.append(helper.make_node("Add", [res, cur] if nm == "tanh" else [cur, res], ["y_" + nm]))
    else:
        nodes.append(helper.make_node("Identity", [cur], ["y_" + nm]))
    outs.append(vi("y_" + nm, TensorProto.FLOAT, [2, 7, D]))
    v = x64 @ wk + bk
    v = ref(v) if ref else v
    v = v + (x64 if res == "x" else rc if res == "rc" else 0)
    npy("epilogues_" + nm, v.astype(np.float32))
g17 = helper.make_graph(nodes, "epilogues", [vi("x", TensorProto.FLOAT, [2, 7, D])], outs, inits)
save(helper.make_model(g17, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]), "epilogues")

# 18. MobileNetV2's inverted residual with ReLU6: Conv 1×1 -> BN -> Clip(0, 6), depthwise Conv 3×3/2
# -> BN -> Clip(0, 6), Conv 1×1 -> BN -> Clip(max 3 only, an open lower side). graph_fuse folds each BN
# and puts each Clip into the conv kernels' store (tk_conv_opts.clamp); test_loader.c runs it fused and
# not against NumPy. Two files: opset 10 (Clip's bounds as attributes) and opset 13 (constant inputs,
# the missing min as an empty name). Its own generator, so the draws above keep their values.
rng18 = np.random.default_rng(27)
C18, E18, P18 = 16, 48, 24


def bn18(c):
    return (rng18.uniform(0.5, 2, c).astype(np.float32), rng18.standard_normal(c).astype(np.float32),
            rng18.standard_normal(c).astype(np.float32), rng18.uniform(0.2, 3, c).astype(np.float32))


x18 = rng18.standard_normal((2, C18, 11, 9)).astype(np.float32)
we = (rng18.standard_normal((E18, C18, 1, 1)) * 0.5).astype(np.float32)
wd = (rng18.standard_normal((E18, 1, 3, 3)) * 0.6).astype(np.float32)
wp = (rng18.standard_normal((P18, E18, 1, 1)) * 0.3).astype(np.float32)
be = rng18.standard_normal(E18).astype(np.float32)
bns = [bn18(E18), bn18(E18), bn18(P18)]


def bn_ref(v, p):
    g_, b_, m_, s_ = (a.astype(np.float64)[None, :, None, None] for a in p)
    return (v - m_) / np.sqrt(s_ + 1e-5) * g_ + b_


def dw_ref(x, w, stride, pad):
    n, c, h, wd_ = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - 3) // stride + 1, (wd_ + 2 * pad - 3) // stride + 1
    y = np.zeros((n, c, oh, ow))
    for i in range(3):
        for j in range(3):
            y += xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride] * w[None, :, 0, i, j, None, None]
    return y


h18 = np.clip(bn_ref(conv_ref(x18.astype(np.float64), we.astype(np.float64), be.astype(np.float64), 1, 0), bns[0]), 0, 6)
h18 = np.clip(bn_ref(dw_ref(h18, wd.astype(np.float64), 2, 1), bns[1]), 0, 6)
y18 = np.minimum(bn_ref(conv_ref(h18, wp.astype(np.float64), np.zeros(P18), 1, 0), bns[2]), 3)
npy("relu6_block_x", x18)
npy("relu6_block_y", y18.astype(np.float32))
for opset in (10, 13):
    def clip(name, inp, out, lo, hi):
        if opset < 11:
            kw = {"max": hi} if lo is None else {"min": lo, "max": hi}
            return [helper.make_node("Clip", [inp], [out], name=name, **kw)], []
        return ([helper.make_node("Clip", [inp, "" if lo is None else name + "_lo", name + "_hi"], [out], name=name)],
                ([] if lo is None else [numpy_helper.from_array(np.array(lo, np.float32), name + "_lo")])
                + [numpy_helper.from_array(np.array(hi, np.float32), name + "_hi")])
    nodes, inits = [], []
    for k, (conv, inp, w_, b_, attrs) in enumerate([("expand", "x", "we", "be", {}),
                                                    ("dw", "a0", "wd", None, {"group": E18, "strides": [2, 2], "pads": [1, 1, 1, 1]}),
                                                    ("project", "a1", "wp", None, {})]):
        nodes.append(helper.make_node("Conv", [inp, w_] + ([b_] if b_ else []), ["c%d" % k], name=conv, **attrs))
        g_, b2_, m_, s_ = bns[k]
        nodes.append(helper.make_node("BatchNormalization", ["c%d" % k, "g%d" % k, "b%d" % k, "m%d" % k, "v%d" % k], ["n%d" % k],
                                      name="bn%d" % k, epsilon=1e-5))
        inits += [numpy_helper.from_array(a, nm % k) for a, nm in [(g_, "g%d"), (b2_, "b%d"), (m_, "m%d"), (s_, "v%d")]]
        cn, ci = clip("relu6_%d" % k if k < 2 else "clip_max", "n%d" % k, "a%d" % k if k < 2 else "y",
                      None if k == 2 else 0.0, 3.0 if k == 2 else 6.0)
        nodes += cn
        inits += ci
    inits += [numpy_helper.from_array(a, nm) for a, nm in [(we, "we"), (be, "be"), (wd, "wd"), (wp, "wp")]]
    g18 = helper.make_graph(nodes, "relu6_block", [vi("x", TensorProto.FLOAT, [2, C18, 11, 9])],
                            [vi("y", TensorProto.FLOAT, [2, P18, 6, 5])], inits)
    save(helper.make_model(g18, opset_imports=[helper.make_opsetid("", opset)]), "relu6_block_opset%d" % opset)


# 19. tk_onnx_opts.bf16 (tkrun --bf16): the dense convs with K = C·KH·KW >= 256 run in bf16, the others
# in f32. Conv 3×3 32 -> 40 (K 288) -> Relu, Conv 3×3/2 40 -> 24 (K 360) with its bias, a depthwise
# 3×3 (f32), a 1×1 24 -> 16 (K 24, f32), a residual Add and GlobalAveragePool. Odd sizes (9×10).
x19 = rng.standard_normal((2, 32, 9, 10)).astype(np.float32)
w19a = (rng.standard_normal((40, 32, 3, 3)) * 0.08).astype(np.float32)
b19a = rng.standard_normal(40).astype(np.float32) * 0.1
w19b = (rng.standard_normal((24, 40, 3, 3)) * 0.08).astype(np.float32)
b19b = rng.standard_normal(24).astype(np.float32) * 0.1
w19d = (rng.standard_normal((24, 1, 3, 3)) * 0.3).astype(np.float32)
w19p = (rng.standard_normal((16, 24, 1, 1)) * 0.2).astype(np.float32)
g19 = helper.make_graph(
    [helper.make_node("Conv", ["x", "wa", "ba"], ["ca"], name="dense_a", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["ca"], ["ra"], name="relu_a"),
     helper.make_node("Conv", ["ra", "wb", "bb"], ["cb"], name="dense_b", pads=[1, 1, 1, 1], strides=[2, 2]),
     helper.make_node("Conv", ["cb", "wd"], ["cd"], name="depthwise", pads=[1, 1, 1, 1], group=24),
     helper.make_node("Add", ["cb", "cd"], ["s"], name="residual"),
     helper.make_node("Conv", ["s", "wp"], ["y"], name="narrow"),
     helper.make_node("GlobalAveragePool", ["y"], ["gap"], name="gap")],
    "bf16_convs", [vi("x", TensorProto.FLOAT, [2, 32, 9, 10])],
    [vi("y", TensorProto.FLOAT, [2, 16, 5, 5]), vi("gap", TensorProto.FLOAT, [2, 16, 1, 1])],
    [numpy_helper.from_array(a, nm) for a, nm in [(w19a, "wa"), (b19a, "ba"), (w19b, "wb"), (b19b, "bb"), (w19d, "wd"), (w19p, "wp")]])
save(helper.make_model(g19, opset_imports=[helper.make_opsetid("", 17)]), "bf16_convs")
ra = np.maximum(conv_ref(x19.astype(np.float64), w19a.astype(np.float64), b19a.astype(np.float64), 1, 1), 0)
cb = conv_ref(ra, w19b.astype(np.float64), b19b.astype(np.float64), 2, 1)
cdw = np.zeros_like(cb)
cbp = np.pad(cb, ((0, 0), (0, 0), (1, 1), (1, 1)))
for i in range(3):
    for j in range(3):
        cdw += cbp[:, :, i:i + cb.shape[2], j:j + cb.shape[3]] * w19d[None, :, 0, i, j, None, None].astype(np.float64)
y19 = conv_ref(cb + cdw, w19p.astype(np.float64), np.zeros(16), 1, 0)
npy("bf16_convs_x", x19)
npy("bf16_convs_y", y19.astype(np.float32))
npy("bf16_convs_gap", y19.mean(axis=(2, 3), keepdims=True).astype(np.float32))
