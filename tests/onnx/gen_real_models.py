#!/usr/bin/env python3
"""gen_real_models.py OUT_DIR — real architectures exported by PyTorch at test
time (Debian's python3-torch 1.13 and python3-torchvision 0.14; weights random
but seeded, no model hub), written in the node suite's layout so
tk_onnx_suite judges them the same way:

    OUT_DIR/test_<model>_opset<N>/model.onnx
    OUT_DIR/test_<model>_opset<N>/test_data_set_0/input_0.pb, output_0.pb
    OUT_DIR/test_<model>_opset<N>/meta.txt      rtol / atol

Expected outputs are PyTorch's (eager, f32). Opsets: 13 and 17 (the newest
torch 1.13 writes). Models: torchvision's resnet18, mobilenet_v2 and
squeezenet1_1 (batch 1, 224x224), a 2-layer transformer encoder (d 64, 4
heads) and a small decoder-only LM (causal attention written as exporters
see it: MatMul -> scale -> mask -> Softmax -> MatMul).
"""
import math
import os
import sys
import warnings

import numpy as np
import torch
from onnx import numpy_helper

warnings.simplefilter("ignore")
OUT = sys.argv[1]
ONLY = sys.argv[2:]   # optional model names
OPSETS = (13, 17)


class DecoderLM(torch.nn.Module):
    """Token embedding, 2 pre-norm blocks of causal self-attention + GELU MLP, a head."""

    def __init__(self, vocab=97, d=64, heads=4, layers=2, ctx=32):
        super().__init__()
        self.heads = heads
        self.emb = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(ctx, d) * 0.02)
        self.blocks = torch.nn.ModuleList()
        for _ in range(layers):
            self.blocks.append(torch.nn.ModuleDict({
                "ln1": torch.nn.LayerNorm(d), "qkv": torch.nn.Linear(d, 3 * d), "proj": torch.nn.Linear(d, d),
                "ln2": torch.nn.LayerNorm(d), "fc1": torch.nn.Linear(d, 4 * d), "fc2": torch.nn.Linear(4 * d, d)}))
        self.ln = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.register_buffer("mask", torch.triu(torch.full((ctx, ctx), float("-inf")), diagonal=1))

    def forward(self, tokens):
        b, t = tokens.shape
        x = self.emb(tokens) + self.pos[:t]
        mask = self.mask[:t, :t]
        for blk in self.blocks:
            h = blk["ln1"](x)
            q, k, v = blk["qkv"](h).split(x.shape[-1], dim=-1)
            hd = x.shape[-1] // self.heads
            q = q.view(b, t, self.heads, hd).transpose(1, 2)
            k = k.view(b, t, self.heads, hd).transpose(1, 2)
            v = v.view(b, t, self.heads, hd).transpose(1, 2)
            att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(hd) + mask, dim=-1)
            y = (att @ v).transpose(1, 2).reshape(b, t, -1)
            x = x + blk["proj"](y)
            x = x + blk["fc2"](torch.nn.functional.gelu(blk["fc1"](blk["ln2"](x))))
        return self.head(self.ln(x))


def models():
    import torchvision
    torch.manual_seed(0)
    img = torch.randn(1, 3, 224, 224)
    yield "resnet18", torchvision.models.resnet18(weights=None), img, 1e-3, 1e-4
    torch.manual_seed(1)
    yield "mobilenet_v2", torchvision.models.mobilenet_v2(weights=None), img, 1e-3, 1e-4
    torch.manual_seed(2)
    yield "squeezenet1_1", torchvision.models.squeezenet1_1(weights=None), img, 1e-3, 1e-4
    torch.manual_seed(3)
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True, dropout=0.0)
    yield "transformer_encoder", torch.nn.TransformerEncoder(layer, num_layers=2), torch.randn(2, 10, 64), 1e-3, 1e-4
    torch.manual_seed(4)
    yield "decoder_lm", DecoderLM(), torch.randint(0, 97, (1, 16)), 1e-3, 1e-4


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, model, x, rtol, atol in models():
        if ONLY and name not in ONLY:
            continue
        model.eval()
        with torch.no_grad():
            y = model(x)
        for opset in OPSETS:
            d = os.path.join(OUT, f"test_{name}_opset{opset}")
            if os.path.exists(os.path.join(d, "meta.txt")):
                continue
            os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
            torch.onnx.export(model, (x,), os.path.join(d, "model.onnx"), opset_version=opset,
                              input_names=["input"], output_names=["output"], do_constant_folding=True)
            for which, a in (("input", x), ("output", y)):
                t = numpy_helper.from_array(a.numpy())
                with open(os.path.join(d, "test_data_set_0", f"{which}_0.pb"), "wb") as f:
                    f.write(t.SerializeToString())
            with open(os.path.join(d, "meta.txt"), "w") as f:
                f.write(f"rtol {rtol}\natol {atol}\n")
        print(f"gen_real_models: {name}")


if __name__ == "__main__":
    main()
