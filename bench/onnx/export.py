#!/usr/bin/env python3
"""export.py OUT_DIR — the bench's models: the architectures of
tests/onnx/gen_real_models.py (resnet18, mobilenet_v2, squeezenet1_1, a
transformer encoder, a decoder LM; random seeded weights) exported by
PyTorch at opset 17 with a symbolic batch dim, so one file serves batch 1
and 8; plus a ~100 MB MLP for the load-time goal. Writes OUT_DIR/<name>.onnx
and OUT_DIR/models.txt (name, input shape with B for the batch, dtype).
"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "onnx"))
sys.argv, OUT = sys.argv[:1] + ["/dev/null"], sys.argv[1]
import gen_real_models  # noqa: E402  (its models() generator; its main() is not run)

warnings.simplefilter("ignore")
os.makedirs(OUT, exist_ok=True)
lines = []
for name, model, x, _, _ in gen_real_models.models():
    path = os.path.join(OUT, name + ".onnx")
    model.eval()
    if not os.path.exists(path):
        torch.onnx.export(model, (x,), path, opset_version=17, input_names=["input"], output_names=["output"],
                          dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}}, do_constant_folding=True)
    shape = "x".join(["B"] + [str(d) for d in x.shape[1:]])
    lines.append(f"{name} {shape} {'int64' if x.dtype == torch.int64 else 'float32'}")
big = os.path.join(OUT, "mlp_100mb.onnx")
if not os.path.exists(big):
    torch.manual_seed(5)
    mlp = torch.nn.Sequential(torch.nn.Linear(2048, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
                              torch.nn.Linear(4096, 2048))
    torch.onnx.export(mlp.eval(), (torch.randn(1, 2048),), big, opset_version=17, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": {0: "batch"}})
lines.append("mlp_100mb Bx2048 float32")
with open(os.path.join(OUT, "models.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"export: {len(lines)} models in {OUT}")
