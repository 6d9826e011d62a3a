#!/usr/bin/env python3
"""gen_contrib_cases.py OUT_DIR ERR_DIR — cases for the com.microsoft contrib
ops (runtime/onnx/ops/op_contrib*.c) in the node suite's layout (see
gen_node_suite.py), so tk_onnx_suite runs them.

Each case is a one-node model on odd shapes with random inputs; the expected
outputs come from ONNX Runtime's CPU kernels (the ops are ONNX Runtime's own,
and onnx's reference does not have them), which share no code with TileKit;
for the few ops its CPU build lacks, from float64 numpy formulas (NUMPY), and
for input forms it lacks, from ONNX Runtime on the equivalent plain form (REF).
Float cases allow rtol 1e-4 / atol 1e-5 (ONNX Runtime sums in f32 in its own
order); the 4-bit matmul 1e-4 / 1e-4. A case ONNX Runtime itself refuses is
a bug in this file: it stops with ONNX Runtime's message.

ERR_DIR gets models each op must refuse (an attribute value it does not
have, shapes that do not fit): each must end in an error naming the node, at
load or at run, never a result or a crash.
"""
import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

rng = np.random.default_rng(20261205)
LOOSE = "rtol 1e-4\natol 1e-5\n"
NBITS = "rtol 1e-4\natol 1e-4\n"
OPSETS = {"": 17, "com.microsoft": 1}
OLD_ONNX = {"": 16, "com.microsoft": 1}   # cases named opset16_*: an ONNX-domain op of ONNX Runtime's from before ONNX had it
HALF = "rtol 5e-3\natol 5e-3\n"
EXACT = "rtol 0\natol 0\n"   # the QLinear ops: the same quantized values as ONNX Runtime
QSTEP = "rtol 0\natol 1\n"   # QLinearAveragePool: ONNX Runtime's averages round one step apart at some half-way values
REF = {}   # case name -> (node, inputs) ONNX Runtime runs instead (a form its CPU kernel lacks)
NUMPY = {}   # case name -> outputs from a plain float64 formula (ops ONNX Runtime's CPU build lacks)


def gelu64(x):
    from math import erf, sqrt
    return x * 0.5 * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def ints(lo, hi, *shape, dtype=np.int64):
    return rng.integers(lo, hi, size=shape).astype(dtype)


def ms(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, domain="com.microsoft", **attrs)


def inputs_for(n):
    return [f"x{i}" for i in range(n)]


def compact(node, inputs):
    """The node reading only the inputs it names, renamed x0, x1, ... in order
    (the suite's input_i.pb is graph input i), and those inputs."""
    used = sorted({int(i[1:]) for i in node.input if i})
    rename = {f"x{j}": f"x{k}" for k, j in enumerate(used)}
    node.input[:] = [rename.get(i, i) for i in node.input]
    return node, [inputs[j] for j in used]


def make(name, node, inputs, opsets=None):
    in_vi = [helper.make_tensor_value_info(f"x{i}", helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
             for i, v in enumerate(inputs)]
    out_vi = [onnx.ValueInfoProto(name=o) for o in node.output if o]
    graph = helper.make_graph([node], name, in_vi, out_vi)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in (opsets or OPSETS).items()])
    model.ir_version = 10
    return model


def run_ort(model, inputs):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {f"x{i}": v for i, v in enumerate(inputs)})


def nibbles(codes, bits):
    """codes [..., n] (n a multiple of 8 / bits) packed low bits first into u8."""
    per = 8 // bits
    c = codes.reshape(*codes.shape[:-1], -1, per).astype(np.uint8)
    out = np.zeros(c.shape[:-1], np.uint8)
    for i in range(per):
        out |= (c[..., i] << (i * bits)).astype(np.uint8)
    return out


def nbits_inputs(m, k, n, bits, block, zp=None, bias=False, lead=()):
    kb = (k + block - 1) // block
    codes = ints(0, 1 << bits, n, kb, block, dtype=np.uint8)
    b = nibbles(codes, bits)
    scales = (rng.uniform(0.01, 0.1, size=(n * kb,))).astype(np.float32)
    ins = [f32(*lead, m, k), b, scales]
    if zp == "packed":
        zrow = (kb * bits + 7) // 8
        zc = ints(0, 1 << bits, n, zrow * (8 // bits), dtype=np.uint8)
        ins.append(nibbles(zc, bits).reshape(-1))
    elif zp == "float":
        ins.append(rng.uniform(0, (1 << bits) - 1, size=(n * kb,)).astype(np.float32))
    elif bias:
        ins.append(None)
    if bias:
        ins += [None, f32(n)]
    return ins


def cases():
    b, s, l, h = 2, 5, 7, 24
    key_mask = np.ones((b, l), np.int32)
    key_mask[0, 5:] = 0
    key_mask[1, :2] = 0
    mask3 = ints(0, 2, b, s, s, dtype=np.int32)
    mask3[:, :, 0] = 1
    yield "fused_matmul_alpha", ms("FusedMatMul", ["x0", "x1"], ["y0"], alpha=0.5), [f32(3, 5, 7), f32(7, 6)]
    yield "fused_matmul_trans_a", ms("FusedMatMul", ["x0", "x1"], ["y0"], transA=1), [f32(2, 7, 5), f32(7, 9)]
    yield "fused_matmul_trans_b", ms("FusedMatMul", ["x0", "x1"], ["y0"], transB=1, alpha=1.3), [f32(4, 3, 7), f32(1, 6, 7)]
    yield "fused_matmul_both", ms("FusedMatMul", ["x0", "x1"], ["y0"], transA=1, transB=1), [f32(7, 5), f32(9, 7)]
    yield "fast_gelu_bias", ms("FastGelu", ["x0", "x1"], ["y0"]), [f32(2, 3, 33, scale=2), f32(33)]
    yield "fast_gelu", ms("FastGelu", ["x0"], ["y0"]), [f32(5, 17, scale=3)]
    yield "bias_gelu", ms("BiasGelu", ["x0", "x1"], ["y0"]), [f32(3, 7, 19, scale=2), f32(19)]
    yield "quick_gelu", ms("QuickGelu", ["x0"], ["y0"]), [f32(4, 37, scale=3)]
    yield "quick_gelu_alpha", ms("QuickGelu", ["x0"], ["y0"], alpha=1.0), [f32(3, 11)]
    x, bias, skip = f32(2, 3, 32), f32(32), f32(2, 3, 32)
    NUMPY["bias_add"] = [(x.astype(np.float64) + bias + skip).astype(np.float32)]
    yield "bias_add", ms("BiasAdd", inputs_for(3), ["y0"]), [x, bias, skip]
    x, bias = f32(2, 9, 40, scale=2), f32(40)
    hb = x.astype(np.float64) + bias
    NUMPY["bias_split_gelu"] = [(hb[..., :20] * gelu64(hb[..., 20:])).astype(np.float32)]
    yield "bias_split_gelu", ms("BiasSplitGelu", inputs_for(2), ["y0"]), [x, bias]
    yield "f16_fused_matmul", ms("FusedMatMul", ["x0", "x1"], ["y0"], transB=1), [f32(3, 9).astype(np.float16), f32(5, 9).astype(np.float16)]
    yield "f16_fast_gelu_bias", ms("FastGelu", ["x0", "x1"], ["y0"]), [f32(3, 17).astype(np.float16), f32(17).astype(np.float16)]
    yield "f16_skip_layer_norm", ms("SkipLayerNormalization", inputs_for(4), ["y0"]), \
        [f32(2, 3, 24).astype(np.float16), f32(2, 3, 24).astype(np.float16), f32(24).astype(np.float16), f32(24).astype(np.float16)]
    yield "f16_mha", ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=2), [f32(2, 3, 16).astype(np.float16)] * 3
    yield "f16_matmul_nbits", ms("MatMulNBits", inputs_for(3), ["y0"], K=32, N=6, bits=4, block_size=16), \
        [v.astype(np.float16) if v.dtype == np.float32 else v for v in nbits_inputs(3, 32, 6, 4, 16)]
    yield "skip_layer_norm_all", ms("SkipLayerNormalization", inputs_for(5), ["y0", "y1", "y2", "y3"], epsilon=1e-5), \
        [f32(2, 5, 24), f32(2, 5, 24), f32(24), f32(24), f32(24)]
    yield "skip_layer_norm_bcast_skip", ms("SkipLayerNormalization", inputs_for(3), ["y0"]), [f32(3, 5, 20), f32(5, 20), f32(20)]
    yield "skip_layer_norm_bias_no_beta", ms("SkipLayerNormalization", ["x0", "x1", "x2", "", "x3"], ["y0", "", "", "y3"]), \
        [f32(2, 3, 33), f32(2, 3, 33), f32(33), f32(33)]
    yield "skip_simplified_layer_norm", ms("SkipSimplifiedLayerNormalization", inputs_for(4), ["y0", "", "y2", "y3"], epsilon=1e-6), \
        [f32(3, 4, 20), f32(3, 4, 20), f32(20), f32(20)]
    yield "skip_simplified_layer_norm_plain", ms("SkipSimplifiedLayerNormalization", inputs_for(3), ["y0"]), [f32(2, 7, 13), f32(2, 7, 13), f32(13)]
    yield "opset16_layer_norm", helper.make_node("LayerNormalization", inputs_for(3), ["y0", "y1", "y2"], epsilon=1e-3), \
        [f32(3, 4, 17), f32(17), f32(17)]
    yield "opset16_layer_norm_axis", helper.make_node("LayerNormalization", inputs_for(2), ["y0"], axis=1), [f32(2, 3, 7), f32(3, 7)]
    yield "simplified_layer_norm", helper.make_node("SimplifiedLayerNormalization", ["x0", "x1"], ["y0"]), [f32(2, 3, 21), f32(21)]
    yield "simplified_layer_norm_axis", helper.make_node("SimplifiedLayerNormalization", ["x0", "x1"], ["y0", "y1"], axis=1, epsilon=1e-3), \
        [f32(2, 3, 7), f32(3, 7)]
    ids = ints(0, 11, b, s, dtype=np.int32)
    seg = ints(0, 2, b, s, dtype=np.int32)
    emask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)
    yield "embed_layer_norm", ms("EmbedLayerNormalization", inputs_for(8), ["y0", "y1", "y2"], epsilon=1e-5), \
        [ids, seg, f32(11, 16), f32(9, 16), f32(2, 16), f32(16), f32(16), emask]
    yield "embed_layer_norm_no_segment", ms("EmbedLayerNormalization", ["x0", "", "x1", "x2", "", "x3", "x4"], ["y0", "y1"]), \
        [ids, f32(11, 16), f32(9, 16), f32(16), f32(16)]
    yield "embed_layer_norm_position_ids", ms("EmbedLayerNormalization", ["x0", "x1", "x2", "x3", "x4", "x5", "x6", "", "x7"], ["y0", "y1"]), \
        [ids, seg, f32(11, 16), f32(9, 16), f32(2, 16), f32(16), f32(16), ints(0, 9, b, s, dtype=np.int32)]
    yield "mha_basic", ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=3), [f32(b, s, h), f32(b, l, h), f32(b, l, h)]
    yield "mha_bias_key_padding", ms("MultiHeadAttention", inputs_for(5), ["y0"], num_heads=3), \
        [f32(b, s, h), f32(b, l, h), f32(b, l, h), f32(3 * h), key_mask]
    # every key of batch 0 masked: ONNX Runtime adds mask_filter_value, so the row is softmax of its plain scores
    yield "mha_all_keys_masked", ms("MultiHeadAttention", ["x0", "x1", "x2", "", "x3"], ["y0"], num_heads=3), \
        [f32(b, s, h), f32(b, l, h), f32(b, l, h), np.stack([np.zeros(l, np.int32), np.ones(l, np.int32)])]
    yield "mha_attention_bias_scale", ms("MultiHeadAttention", ["x0", "x1", "x2", "", "", "x3"], ["y0"], num_heads=3, scale=0.3), \
        [f32(b, s, h), f32(b, l, h), f32(b, l, h), f32(1, 3, s, l)]
    yield "mha_past_causal", ms("MultiHeadAttention", ["x0", "x1", "x2", "", "", "", "x3", "x4"], ["y0", "y1", "y2"], num_heads=2,
                                unidirectional=1), [f32(b, 3, 16), f32(b, 3, 16), f32(b, 3, 16), f32(b, 2, 4, 8), f32(b, 2, 4, 8)]
    # ONNX Runtime's CPU kernel has no packed QKV: the expected output is its unpacked form's
    qkv = f32(b, s, 3, 3, 8)
    REF["mha_packed_qkv"] = (ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=3),
                             [np.ascontiguousarray(qkv[:, :, :, i, :]).reshape(b, s, h) for i in range(3)])
    yield "mha_packed_qkv", ms("MultiHeadAttention", ["x0"], ["y0"], num_heads=3), [qkv]
    q, kv = f32(b, s, h), f32(b, l, 3, 2, 8)
    REF["mha_packed_kv"] = (ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=3),
                            [q] + [np.ascontiguousarray(kv[:, :, :, i, :]).reshape(b, l, h) for i in range(2)])
    yield "mha_packed_kv", ms("MultiHeadAttention", ["x0", "x1"], ["y0"], num_heads=3), [q, kv]
    yield "mha_bnsh_kv", ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=3), [f32(b, s, h), f32(b, 3, l, 8), f32(b, 3, l, 8)]
    yield "mha_value_head_size", ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=3), [f32(b, s, h), f32(b, l, h), f32(b, l, 30)]
    yield "mha_mask_and_past_present", ms("MultiHeadAttention", ["x0", "x1", "x2", "x3", "x4", "", "x5", "x6"], ["y0", "y1", "y2"],
                                          num_heads=2), \
        [f32(b, 3, 16), f32(b, 3, 16), f32(b, 3, 16), f32(48), np.array([[1, 1, 1, 0, 1, 1, 1], [1] * 7], np.int32),
         f32(b, 2, 4, 8), f32(b, 2, 4, 8)]
    x, wq, bq = f32(b, s, 12), f32(12, 36, scale=0.5), f32(36)
    yield "attention_basic", ms("Attention", inputs_for(3), ["y0"], num_heads=3), [x, wq, bq]
    yield "attention_no_bias", ms("Attention", ["x0", "x1"], ["y0"], num_heads=2), [x, wq]
    yield "attention_mask_2d", ms("Attention", inputs_for(4), ["y0"], num_heads=3), [x, wq, bq, np.array([[1, 1, 0, 1, 0], [1] * 5], np.int32)]
    yield "attention_mask_end", ms("Attention", inputs_for(4), ["y0"], num_heads=3), [x, wq, bq, np.array([3, 5], np.int32)]
    yield "attention_mask_end_start", ms("Attention", inputs_for(4), ["y0"], num_heads=3), [x, wq, bq, np.array([4, 5, 1, 2], np.int32)]
    yield "attention_mask_3d", ms("Attention", inputs_for(4), ["y0"], num_heads=3), [x, wq, bq, mask3]
    yield "attention_bias_input", ms("Attention", ["x0", "x1", "x2", "", "", "x3"], ["y0"], num_heads=3), [x, wq, bq, f32(b, 3, s, s)]
    yield "attention_past_unidirectional", ms("Attention", ["x0", "x1", "x2", "", "x3"], ["y0", "y1"], num_heads=3, unidirectional=1), \
        [f32(b, 3, 12), wq, bq, f32(2, b, 3, 4, 4)]
    # query 0 sees only key 0, which the mask hides: ONNX Runtime leaves future keys out and adds the filter to key 0
    yield "attention_unidirectional_row_masked", ms("Attention", inputs_for(4), ["y0"], num_heads=3, unidirectional=1), \
        [x, wq, bq, np.array([[0, 1, 1, 1, 1], [1, 1, 0, 1, 1]], np.int32)]
    yield "attention_qkv_hidden_sizes", ms("Attention", inputs_for(3), ["y0"], num_heads=3, qkv_hidden_sizes=[12, 12, 18]), \
        [x, f32(12, 42, scale=0.5), f32(42)]
    yield "attention_mask_filter_scale", ms("Attention", inputs_for(4), ["y0"], num_heads=3, mask_filter_value=-1e4, scale=0.25), \
        [x, wq, bq, np.array([[1, 1, 1, 1, 0], [0, 1, 1, 1, 1]], np.int32)]
    gqa = dict(num_heads=4, kv_num_heads=2)
    i32 = lambda *v: np.array(v, np.int32)
    yield "gqa_prompt", ms("GroupQueryAttention", inputs_for(7), ["y0", "y1", "y2"], **gqa), \
        [f32(b, s, 32), f32(b, s, 16), f32(b, s, 16), f32(b, 2, 0, 8), f32(b, 2, 0, 8), i32(s - 1, s - 1), np.array(s, np.int32)]
    yield "gqa_prompt_no_past", ms("GroupQueryAttention", ["x0", "x1", "x2", "", "", "x3", "x4"], ["y0"], **gqa, scale=0.2), \
        [f32(b, s, 32), f32(b, s, 16), f32(b, s, 16), i32(s - 1, s - 1), np.array(s, np.int32)]
    yield "gqa_decode_ragged_past", ms("GroupQueryAttention", inputs_for(7), ["y0", "y1", "y2"], **gqa), \
        [f32(b, 1, 32), f32(b, 1, 16), f32(b, 1, 16), f32(b, 2, 6, 8), f32(b, 2, 6, 8), i32(4, 2), np.array(5, np.int32)]
    rc = rng.uniform(-1, 1, size=(2, 16, 8)).astype(np.float32)   # ONNX Runtime rotates heads of a multiple of 16 only
    # (ONNX Runtime takes S > 1 after a past for batch 1 only)
    yield "gqa_packed_rotary", ms("GroupQueryAttention", ["x0", "", "", "x1", "x2", "x3", "x4", "x5", "x6"], ["y0", "y1", "y2"],
                                  do_rotary=1, **gqa), \
        [f32(1, 3, 128), f32(1, 2, 4, 16), f32(1, 2, 4, 16), i32(6), np.array(7, np.int32), rc[0], rc[1]]
    yield "large_gqa_prompt_rotary", ms("GroupQueryAttention", ["x0", "x1", "x2", "", "", "x3", "x4", "x5", "x6"], ["y0", "y1", "y2"],
                                        num_heads=8, kv_num_heads=2, do_rotary=1), \
        [f32(2, 41, 128), f32(2, 41, 32), f32(2, 41, 32), i32(40, 40), np.array(41, np.int32)] + \
        list(rng.uniform(-1, 1, size=(2, 64, 8)).astype(np.float32))
    cache = rng.uniform(-1, 1, size=(2, 16, 8)).astype(np.float32)
    yield "rotary_3d", ms("RotaryEmbedding", inputs_for(4), ["y0"], num_heads=2), [f32(b, s, 32), ints(0, 16, b, s), cache[0], cache[1]]
    yield "rotary_3d_no_num_heads", ms("RotaryEmbedding", inputs_for(4), ["y0"]), [f32(b, s, 32), ints(0, 16, b, s), cache[0], cache[1]]
    yield "rotary_4d_interleaved", ms("RotaryEmbedding", inputs_for(4), ["y0"], interleaved=1), \
        [f32(b, 3, s, 16), ints(0, 16, b, s), cache[0], cache[1]]
    yield "rotary_offset", ms("RotaryEmbedding", inputs_for(4), ["y0"], num_heads=2), [f32(b, s, 32), np.array([3], np.int64), cache[0], cache[1]]
    yield "rotary_partial", ms("RotaryEmbedding", inputs_for(4), ["y0"], num_heads=2, rotary_embedding_dim=8), \
        [f32(1, 4, 32), ints(0, 10, 1, 4), cache[0, :10, :4], cache[1, :10, :4]]
    yield "matmul_nbits_4", ms("MatMulNBits", inputs_for(3), ["y0"], K=48, N=10, bits=4, block_size=16), nbits_inputs(3, 48, 10, 4, 16)
    yield "matmul_nbits_4_zp_bias", ms("MatMulNBits", ["x0", "x1", "x2", "x3", "", "x5"], ["y0"], K=64, N=7, bits=4, block_size=32), \
        nbits_inputs(5, 64, 7, 4, 32, zp="packed", bias=True, lead=(2,))
    yield "matmul_nbits_4_partial_block", ms("MatMulNBits", ["x0", "x1", "x2", "x3"], ["y0"], K=40, N=9, bits=4, block_size=16), \
        nbits_inputs(3, 40, 9, 4, 16, zp="packed")
    yield "matmul_nbits_4_float_zp", ms("MatMulNBits", inputs_for(4), ["y0"], K=32, N=6, bits=4, block_size=16), \
        nbits_inputs(4, 32, 6, 4, 16, zp="float")
    yield "matmul_nbits_8", ms("MatMulNBits", ["x0", "x1", "x2", "x3"], ["y0"], K=64, N=5, bits=8, block_size=32), \
        nbits_inputs(3, 64, 5, 8, 32, zp="packed")
    # work large enough to be split over threads (run_family_cases.sh compares 1 and 2 threads bit for bit)
    yield "large_mha_causal_mask", ms("MultiHeadAttention", inputs_for(5), ["y0"], num_heads=4, unidirectional=1), \
        [f32(2, 67, 64), f32(2, 67, 64), f32(2, 67, 64), f32(192), (rng.uniform(size=(2, 67)) > 0.2).astype(np.int32)]
    yield "large_attention", ms("Attention", inputs_for(4), ["y0", "y1"], num_heads=4), \
        [f32(3, 45, 48), f32(48, 144, scale=0.3), f32(144), np.array([45, 30, 7], np.int32)]
    yield "large_skip_layer_norm", ms("SkipLayerNormalization", inputs_for(5), ["y0", "y1", "y2", "y3"]), \
        [f32(4, 67, 96), f32(4, 67, 96), f32(96), f32(96), f32(96)]
    yield "large_matmul_nbits", ms("MatMulNBits", ["x0", "x1", "x2", "x3"], ["y0"], K=256, N=96, bits=4, block_size=64), \
        nbits_inputs(33, 256, 96, 4, 64, zp="packed")
    yield "large_dynamic_quantize_matmul", ms("DynamicQuantizeMatMul", inputs_for(3), ["y0"]), \
        [f32(37, 129), ints(-128, 128, 129, 71, dtype=np.int8), rng.uniform(0.01, 0.05, size=71).astype(np.float32)]
    yield "matmul_integer_to_float", ms("MatMulIntegerToFloat", inputs_for(7), ["y0"]), \
        [ints(0, 256, 2, 5, 11, dtype=np.uint8), ints(-128, 128, 11, 6, dtype=np.int8), np.array(0.02, np.float32),
         rng.uniform(0.01, 0.05, size=6).astype(np.float32), np.array(131, np.uint8), ints(-3, 3, 6, dtype=np.int8), f32(6)]
    yield "matmul_integer_to_float_plain", ms("MatMulIntegerToFloat", inputs_for(4), ["y0"]), \
        [ints(0, 256, 7, 9, dtype=np.uint8), ints(0, 256, 9, 4, dtype=np.uint8), np.array(0.1, np.float32), np.array(0.03, np.float32)]
    yield "fused_conv_relu_z", ms("FusedConv", inputs_for(4), ["y0"], activation="Relu", pads=[1, 1, 1, 1], strides=[2, 2]), \
        [f32(2, 3, 9, 7), f32(5, 3, 3, 3), f32(5), f32(2, 5, 5, 4)]
    yield "fused_conv_leaky_group", ms("FusedConv", inputs_for(2), ["y0"], activation="LeakyRelu", activation_params=[0.2], group=2), \
        [f32(1, 4, 6, 5), f32(6, 2, 2, 3)]
    yield "fused_conv_clip", ms("FusedConv", inputs_for(3), ["y0"], activation="Clip", activation_params=[-0.5, 0.7], dilations=[2, 1]), \
        [f32(1, 2, 8, 6), f32(3, 2, 3, 2), f32(3)]
    yield "fused_gemm_hard_sigmoid", ms("FusedGemm", inputs_for(3), ["y0"], activation="HardSigmoid", activation_alpha=0.3,
                                        activation_beta=0.4, transB=1, alpha=0.7, beta=0.5), [f32(5, 7), f32(3, 7), f32(3)]
    yield "fused_gemm_tanh", ms("FusedGemm", inputs_for(2), ["y0"], activation="Tanh", transA=1), [f32(7, 5), f32(7, 4)]
    x, wg, bg = f32(2, 3, 9), f32(9, 5), f32(5)
    z = x.astype(np.float64) @ wg + bg
    NUMPY["gemm_fast_gelu"] = [(0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))).astype(np.float32)]
    yield "gemm_fast_gelu", ms("GemmFastGelu", inputs_for(3), ["y0"]), [x, wg, bg]
    yield "quantize_linear_axis", ms("QuantizeLinear", inputs_for(3), ["y0"], axis=1), \
        [f32(2, 3, 4, scale=4), np.array([0.05, 0.1, 0.2], np.float32), np.array([0, 10, 250], np.uint8)]
    yield "dequantize_linear", ms("DequantizeLinear", inputs_for(3), ["y0"]), \
        [ints(-128, 128, 3, 5, dtype=np.int8), np.array(0.07, np.float32), np.array(-3, np.int8)]
    yield "trilu_lower_k", ms("Trilu", inputs_for(2), ["y0"], upper=0), [f32(2, 5, 7), np.array(1, np.int64)]
    yield "matmul_bnb4_fp4", ms("MatMulBnb4", inputs_for(3), ["y0"], K=64, N=5, block_size=32, quant_type=0), \
        [f32(3, 64), ints(0, 256, 160, dtype=np.uint8), rng.uniform(0.5, 2, 10).astype(np.float32)]
    yield "matmul_bnb4_nf4_odd", ms("MatMulBnb4", inputs_for(3), ["y0"], K=33, N=7, block_size=16, quant_type=1), \
        [f32(2, 4, 33), ints(0, 256, (33 * 7 + 1) // 2, dtype=np.uint8), rng.uniform(0.5, 2, 15).astype(np.float32)]
    yield "gather_block_quantized_4_zp", ms("GatherBlockQuantized", inputs_for(4), ["y0"], bits=4, block_size=16), \
        [ints(0, 256, 11, 32, dtype=np.uint8), np.array([[3, 0, 10], [7, -2, 3]], np.int64), rng.uniform(0.01, 0.1, (11, 4)).astype(np.float32),
         ints(0, 256, 11, 2, dtype=np.uint8)]
    yield "gather_block_quantized_8", ms("GatherBlockQuantized", inputs_for(3), ["y0"], bits=8, block_size=16, quantize_axis=-1), \
        [ints(0, 256, 7, 40, dtype=np.uint8), np.array([6, 1, 1, 0], np.int32), rng.uniform(0.01, 0.1, (7, 3)).astype(np.float32)]
    yield "gather_block_quantized_f16", ms("GatherBlockQuantized", inputs_for(3), ["y0"], bits=4, block_size=32), \
        [ints(0, 256, 5, 48, dtype=np.uint8), np.array([[4], [2]], np.int64), rng.uniform(0.01, 0.1, (5, 3)).astype(np.float16)]
    sc = lambda v: np.array(v, np.float32)
    u8 = lambda v: np.array(v, np.uint8)
    i8 = lambda v: np.array(v, np.int8)
    yield "qlinear_add_broadcast", ms("QLinearAdd", inputs_for(8), ["y0"]), \
        [ints(0, 256, 2, 3, 5, dtype=np.uint8), sc(0.05), u8(120), ints(0, 256, 5, dtype=np.uint8), sc(0.03), u8(7), sc(0.08), u8(128)]
    yield "qlinear_mul_i8", ms("QLinearMul", inputs_for(8), ["y0"]), \
        [ints(-128, 128, 3, 7, dtype=np.int8), sc(0.04), i8(3), ints(-128, 128, 3, 7, dtype=np.int8), sc(0.02), i8(-5), sc(0.05), i8(1)]
    # many values, so some fall on half-way points where the rounding formula shows
    qa, qb = ints(0, 256, 40, 50, dtype=np.uint8), ints(0, 256, 40, 50, dtype=np.uint8)
    yield "large_qlinear_add", ms("QLinearAdd", inputs_for(8), ["y0"]), [qa, sc(0.05), u8(120), qb, sc(0.03), u8(7), sc(0.08), u8(128)]
    yield "large_qlinear_mul", ms("QLinearMul", inputs_for(8), ["y0"]), [qa, sc(0.05), u8(120), qb, sc(0.03), u8(7), sc(0.08), u8(128)]
    yield "large_qlinear_global_average_pool", ms("QLinearGlobalAveragePool", inputs_for(5), ["y0"]), \
        [ints(0, 256, 2, 64, 9, 7, dtype=np.uint8), sc(0.02), u8(100), sc(0.01), u8(90)]
    yield "large_qlinear_sigmoid", ms("QLinearSigmoid", inputs_for(5), ["y0"]), \
        [ints(0, 256, 3, 50, 40, dtype=np.uint8), sc(0.06), u8(128), sc(1 / 256), u8(0)]
    qgemm_in = [ints(0, 256, 37, 45, dtype=np.uint8), sc(0.02), u8(110), ints(-128, 128, 45, 29, dtype=np.int8), sc(0.01), i8(0),
                ints(-2000, 2000, 29, dtype=np.int32), sc(0.15), u8(100)]
    yield "large_qlinear_qgemm", ms("QGemm", inputs_for(9), ["y0"], alpha=0.9), qgemm_in
    yield "qlinear_qgemm_float_out_trans_b", ms("QGemm", inputs_for(6), ["y0"], transB=1), \
        [ints(0, 256, 5, 13, dtype=np.uint8), sc(0.02), u8(110), ints(0, 256, 7, 13, dtype=np.uint8), sc(0.03), u8(128)]
    yield "qlinear_qgemm_per_column_i8", ms("QGemm", inputs_for(9), ["y0"], transA=1), \
        [ints(-128, 128, 13, 6, dtype=np.int8), sc(0.05), i8(-3), ints(-128, 128, 13, 8, dtype=np.int8),
         rng.uniform(0.005, 0.02, 8).astype(np.float32), np.zeros(8, np.int8), ints(-500, 500, 6, 8, dtype=np.int32), sc(0.2), i8(5)]
    yield "qlinear_average_pool_pads", ms("QLinearAveragePool", inputs_for(5), ["y0"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]), \
        [ints(0, 256, 2, 3, 9, 7, dtype=np.uint8), sc(0.02), u8(100), sc(0.015), u8(90)]
    yield "qlinear_average_pool_nhwc", ms("QLinearAveragePool", inputs_for(5), ["y0"], kernel_shape=[2, 3], channels_last=1,
                                          strides=[2, 1], pads=[0, 1, 1, 1]), \
        [ints(-128, 128, 2, 7, 8, 5, dtype=np.int8), sc(0.03), i8(-2), sc(0.02), i8(3)]
    qs = ints(0, 256, 4, 7, 33, dtype=np.uint8)
    yield "qlinear_softmax", ms("QLinearSoftmax", inputs_for(5), ["y0"], opset=13), [qs, sc(0.05), u8(128), sc(1 / 256), u8(0)]
    yield "qlinear_softmax_axis1", ms("QLinearSoftmax", inputs_for(5), ["y0"], opset=13, axis=1), [qs, sc(0.05), u8(128), sc(1 / 256), u8(0)]
    yield "qlinear_softmax_opset11_flat", ms("QLinearSoftmax", inputs_for(5), ["y0"], opset=11, axis=1), [qs, sc(0.05), u8(128), sc(1 / 256), u8(0)]
    yield "qlinear_sigmoid", ms("QLinearSigmoid", inputs_for(5), ["y0"]), [ints(0, 256, 3, 11, dtype=np.uint8), sc(0.06), u8(128), sc(1 / 256), u8(0)]
    yield "qlinear_leaky_relu_i8", ms("QLinearLeakyRelu", inputs_for(5), ["y0"], alpha=0.1), \
        [ints(-128, 128, 2, 9, dtype=np.int8), sc(0.05), i8(-4), sc(0.04), i8(10)]
    yield "qlinear_global_average_pool", ms("QLinearGlobalAveragePool", inputs_for(5), ["y0"]), \
        [ints(0, 256, 2, 3, 5, 7, dtype=np.uint8), sc(0.02), u8(100), sc(0.01), u8(90)]
    yield "qlinear_global_average_pool_nhwc", ms("QLinearGlobalAveragePool", inputs_for(5), ["y0"], channels_last=1), \
        [ints(0, 256, 2, 5, 7, 3, dtype=np.uint8), sc(0.02), u8(100), sc(0.015), u8(80)]
    yield "qlinear_concat", ms("QLinearConcat", inputs_for(11), ["y0"], axis=1), \
        [sc(0.05), u8(128), ints(0, 256, 2, 3, 4, dtype=np.uint8), sc(0.04), u8(120), ints(0, 256, 2, 1, 4, dtype=np.uint8), sc(0.06),
         u8(130), ints(0, 256, 2, 2, 4, dtype=np.uint8), sc(0.05), u8(128)]
    a = f32(3, 13)
    yield "dynamic_quantize_matmul_u8", ms("DynamicQuantizeMatMul", inputs_for(5), ["y0"]), \
        [a, ints(0, 256, 13, 7, dtype=np.uint8), np.array([0.02], np.float32), np.array([121], np.uint8), f32(7)]
    yield "dynamic_quantize_matmul_i8_per_column", ms("DynamicQuantizeMatMul", inputs_for(3), ["y0"]), \
        [f32(2, 4, 13), ints(-128, 128, 13, 7, dtype=np.int8), rng.uniform(0.01, 0.05, size=7).astype(np.float32)]
    yield "dynamic_quantize_matmul_positive_a", ms("DynamicQuantizeMatMul", inputs_for(4), ["y0"]), \
        [np.abs(f32(5, 11)), ints(-128, 128, 11, 3, dtype=np.int8), np.array(0.03, np.float32), ints(-5, 5, 3, dtype=np.int8)]


def error_cases():
    """(name, node, inputs): each must be refused naming the node."""
    yield "fused_matmul_trans_batch", ms("FusedMatMul", ["x0", "x1"], ["y0"], transBatchA=1), [f32(2, 3, 4), f32(3, 4, 5)]
    yield "fused_matmul_shapes", ms("FusedMatMul", ["x0", "x1"], ["y0"]), [f32(3, 4), f32(5, 6)]
    yield "skip_layer_norm_skip_shape", ms("SkipLayerNormalization", inputs_for(3), ["y0"]), [f32(2, 3, 8), f32(2, 4, 8), f32(8)]
    yield "mha_heads_do_not_divide", ms("MultiHeadAttention", inputs_for(3), ["y0"], num_heads=5), [f32(2, 3, 24), f32(2, 3, 24), f32(2, 3, 24)]
    yield "mha_mask_shape", ms("MultiHeadAttention", inputs_for(5), ["y0"], num_heads=3), \
        [f32(2, 3, 24), f32(2, 4, 24), f32(2, 4, 24), f32(72), np.ones((2, 9), np.int32)]
    yield "attention_do_rotary", ms("Attention", inputs_for(3), ["y0"], num_heads=3, do_rotary=1), [f32(2, 5, 12), f32(12, 36), f32(36)]
    yield "attention_weights_shape", ms("Attention", inputs_for(3), ["y0"], num_heads=3), [f32(2, 5, 12), f32(10, 36), f32(36)]
    yield "rotary_position_out_of_range", ms("RotaryEmbedding", inputs_for(4), ["y0"], num_heads=2), \
        [f32(1, 3, 16), np.array([[0, 1, 99]], np.int64), f32(8, 4), f32(8, 4)]
    yield "gqa_local_window", ms("GroupQueryAttention", inputs_for(7), ["y0"], num_heads=2, kv_num_heads=1, local_window_size=3), \
        [f32(1, 2, 8), f32(1, 2, 4), f32(1, 2, 4), f32(1, 1, 0, 4), f32(1, 1, 0, 4), np.array([1], np.int32), np.array(2, np.int32)]
    yield "gqa_seqlens_past_buffer", ms("GroupQueryAttention", inputs_for(7), ["y0"], num_heads=2, kv_num_heads=1), \
        [f32(1, 2, 8), f32(1, 2, 4), f32(1, 2, 4), f32(1, 1, 3, 4), f32(1, 1, 3, 4), np.array([9], np.int32), np.array(10, np.int32)]
    yield "fused_conv_activation", ms("FusedConv", inputs_for(2), ["y0"], activation="Softsign"), [f32(1, 2, 4, 4), f32(2, 2, 3, 3)]
    yield "qlinear_add_per_channel_scale", ms("QLinearAdd", inputs_for(8), ["y0"]), \
        [np.zeros((2, 3), np.uint8), np.ones(3, np.float32), np.zeros(3, np.uint8), np.zeros((2, 3), np.uint8), np.array(1, np.float32),
         np.array(0, np.uint8), np.array(1, np.float32), np.array(0, np.uint8)]
    yield "rotary_packed_batching", ms("RotaryEmbedding", inputs_for(4), ["y0"], is_packed_batching=1), \
        [f32(1, 3, 16), np.array([[0, 1, 2]], np.int64), f32(8, 4), f32(8, 4)]
    yield "matmul_nbits_bits_3", ms("MatMulNBits", inputs_for(3), ["y0"], K=32, N=4, bits=3, block_size=32), \
        [f32(2, 32), np.zeros((4, 1, 12), np.uint8), np.ones(4, np.float32)]
    yield "matmul_nbits_b_shape", ms("MatMulNBits", inputs_for(3), ["y0"], K=32, N=4, bits=4, block_size=16), \
        [f32(2, 32), np.zeros((4, 1, 8), np.uint8), np.ones(8, np.float32)]
    yield "embed_layer_norm_id_out_of_range", ms("EmbedLayerNormalization", ["x0", "", "x1", "x2", "", "x3", "x4"], ["y0"]), \
        [np.array([[1, 50]], np.int32), f32(11, 8), f32(9, 8), f32(8), f32(8)]
    yield "dynamic_quantize_matmul_b_type", ms("DynamicQuantizeMatMul", inputs_for(3), ["y0"]), \
        [f32(2, 3), f32(3, 4), np.array([0.1], np.float32)]


def write_case(out, name, model, inputs, outputs, meta_head):
    d = os.path.join(out, f"test_contrib_{name}")
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
    return os.path.basename(d)


def main():
    out, err_out = sys.argv[1], sys.argv[2]
    for d in (out, err_out):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    names = []
    for name, node, inputs in cases():
        node, inputs = compact(node, inputs)
        model = make(name, node, inputs, OLD_ONNX if name.startswith("opset16") else None)
        try:
            if name in NUMPY:
                outputs = NUMPY[name]
            elif name in REF:
                rnode, rinputs = compact(*REF[name])
                outputs = run_ort(make(name, rnode, rinputs), rinputs)
            else:
                outputs = run_ort(model, inputs)
        except Exception as e:
            sys.exit(f"gen_contrib_cases: ONNX Runtime refuses case {name}: {e}")
        tol = QSTEP if "average_pool" in name else EXACT if "qlinear" in name else HALF if name.startswith("f16") else NBITS if "matmul_nbits" in name else LOOSE
        names.append(write_case(out, name, model, inputs, outputs, tol))
    with open(os.path.join(out, "expect.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    for name, node, inputs in error_cases():
        node, inputs = compact(node, inputs)
        write_case(err_out, name, make(name, node, inputs), inputs, [], LOOSE)
    print(f"gen_contrib_cases: {len(names)} cases in {out}, {len(list(error_cases()))} error cases in {err_out}")


if __name__ == "__main__":
    main()
