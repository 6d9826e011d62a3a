#!/usr/bin/env python3
"""gen_plan_models.py OUT_DIR — small ONNX models for the memory plan's tests
(test_plan.c), made at test time with the onnx package; expected outputs
computed here with NumPy and written beside as .npy.

  plan_chain   8 layers of Mul, Add, Relu on x[N, 64]: 23 intermediates of
               the same size, never more than two alive at once, so a plan
               must reuse memory; run at N = 3 and N = 5 (two plans)
  plan_views   values read only through views (Reshape, Transpose of a
               Reshape, Squeeze of an Unsqueeze) while a chain of new values
               of the same size is made: a plan that ended the bases' lives
               at their last direct reader would give their memory away
  plan_escape  a Conv whose output has its weight's byte size, then a chain of
               that size: the conv's weight layout (HWIO), made on first use
               and kept on the weight, is allocated while the conv's output
               place is armed; it must not take it, or a later value
               overwrites the kept layout
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(27)
D = 64


def save(graph, name):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))


def npy(name, a):
    np.save(os.path.join(OUT, name + ".npy"), a)


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def weights(n):
    return [rng.standard_normal((D,)).astype(np.float32) for _ in range(n)]


# ------------------------------------------------------------ plan_chain
LAYERS = 8
mul_w, add_b = weights(LAYERS), weights(LAYERS)
nodes, inits = [], []
h = "x"
for i in range(LAYERS):
    out = "y" if i == LAYERS - 1 else f"h{i}"
    nodes += [helper.make_node("Mul", [h, f"w{i}"], [f"m{i}"], name=f"mul{i}"),
              helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"], name=f"add{i}"),
              helper.make_node("Relu", [f"a{i}"], [out], name=f"relu{i}")]
    inits += [numpy_helper.from_array(mul_w[i], f"w{i}"), numpy_helper.from_array(add_b[i], f"b{i}")]
    h = out
save(helper.make_graph(nodes, "plan_chain", [vi("x", ["N", D])], [vi("y", ["N", D])], inits), "plan_chain")


def chain(x):
    for i in range(LAYERS):
        x = np.maximum(x * mul_w[i] + add_b[i], np.float32(0))
    return x


for n in (3, 5):
    x = rng.standard_normal((n, D)).astype(np.float32)
    npy(f"plan_chain_x{n}", x)
    npy(f"plan_chain_y{n}", chain(x))

# ------------------------------------------------------------ plan_views
wa, wb, wc = weights(3)
CHAIN = ["Neg", "Relu", "Sigmoid", "Neg", "Tanh", "Relu"]
nodes = [
    helper.make_node("Mul", ["x", "wa"], ["a"], name="make_a"),
    helper.make_node("Reshape", ["a", "s3"], ["va"], name="view_a"),            # a's only direct reader
    helper.make_node("Add", ["x", "wb"], ["b"], name="make_b"),
    helper.make_node("Reshape", ["b", "s3"], ["b3"], name="view_b"),
    helper.make_node("Transpose", ["b3"], ["vb"], name="transpose_b", perm=[0, 2, 1]),
    helper.make_node("Sub", ["x", "wc"], ["c"], name="make_c"),
    helper.make_node("Unsqueeze", ["c", "ax1"], ["c3"], name="unsqueeze_c"),
    helper.make_node("Squeeze", ["c3", "ax1"], ["vc"], name="squeeze_c"),
]
prev = "x"
for i, op in enumerate(CHAIN):   # new values of a's size, made while only views of a, b, c are alive
    nodes.append(helper.make_node(op, [prev], [f"t{i}"], name=f"chain{i}"))
    prev = f"t{i}"
nodes += [
    helper.make_node("Reshape", ["va", "s2"], ["ra"], name="back_a"),
    helper.make_node("Reshape", ["vb", "s2"], ["rb"], name="back_b"),
    helper.make_node("Add", ["ra", "rb"], ["s0"], name="sum0"),
    helper.make_node("Add", ["s0", "vc"], ["s1"], name="sum1"),
    helper.make_node("Add", ["s1", prev], ["y"], name="sum2"),
]
inits = [numpy_helper.from_array(wa, "wa"), numpy_helper.from_array(wb, "wb"), numpy_helper.from_array(wc, "wc"),
         numpy_helper.from_array(np.array([-1, 8, 8], np.int64), "s3"),
         numpy_helper.from_array(np.array([-1, D], np.int64), "s2"),
         numpy_helper.from_array(np.array([1], np.int64), "ax1")]
save(helper.make_graph(nodes, "plan_views", [vi("x", ["N", D])], [vi("y", ["N", D])], inits), "plan_views")

x = rng.standard_normal((3, D)).astype(np.float32)
t = x
for op in CHAIN:
    t = {"Neg": lambda v: -v, "Relu": lambda v: np.maximum(v, np.float32(0)), "Tanh": np.tanh,
         "Sigmoid": lambda v: (1 / (1 + np.exp(-v.astype(np.float64)))).astype(np.float32)}[op](t)
va = (x * wa).reshape(-1, 8, 8)
vb = (x + wb).reshape(-1, 8, 8).transpose(0, 2, 1)
y = va.reshape(-1, D) + vb.reshape(-1, D) + (x - wc) + t
npy("plan_views_x", x)
npy("plan_views_y", y.astype(np.float32))
# ------------------------------------------------------------ plan_escape
wconv = rng.standard_normal((4, 1, 3, 3)).astype(np.float32)
nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),   # [1, 4, 3, 3]: 36 floats, as the weight
         helper.make_node("Neg", ["c"], ["n"], name="neg"),
         helper.make_node("Relu", ["n"], ["r"], name="relu"),
         helper.make_node("Sigmoid", ["r"], ["y"], name="sigmoid")]
save(helper.make_graph(nodes, "plan_escape", [vi("x", [1, 1, 5, 5])], [vi("y", [1, 4, 3, 3])],
                       [numpy_helper.from_array(wconv, "w")]), "plan_escape")
x = rng.standard_normal((1, 1, 5, 5)).astype(np.float32)
c = np.zeros((1, 4, 3, 3), np.float64)
for o in range(4):
    for i in range(3):
        for j in range(3):
            c[0, o, i, j] = np.sum(wconv[o, 0].astype(np.float64) * x[0, 0, i:i + 3, j:j + 3])
npy("plan_escape_x", x)
npy("plan_escape_y", (1 / (1 + np.exp(-np.maximum(-c, 0)))).astype(np.float32))
print("gen_plan_models: plan_chain, plan_views, plan_escape")
