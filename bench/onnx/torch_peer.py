#!/usr/bin/env python3
"""torch_peer.py NAME SHAPE DTYPE THREADS RUNS — PyTorch eager on the same
architecture and weights (tests/onnx/gen_real_models.py's models()), under
torch.inference_mode. Prints one JSON line with the median and min ms."""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "onnx"))
name, shape, dtype, threads, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
sys.argv = sys.argv[:1] + ["/dev/null"]
import gen_real_models  # noqa: E402

torch.set_num_threads(threads)
dims = [int(d) for d in shape.split("x")]
for n, model, x, _, _ in gen_real_models.models():
    if n != name:
        continue
    model.eval()
    x = torch.randint(0, 90, dims) if dtype == "int64" else torch.randn(*dims)
    with torch.inference_mode():
        for _ in range(3):
            model(x)
        ts = []
        for _ in range(runs):
            t0 = time.perf_counter()
            model(x)
            ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    print(json.dumps({"median_ms": ts[len(ts) // 2], "min_ms": ts[0], "torch": torch.__version__}))
    break
else:
    print(json.dumps({"error": "no such model"}))
