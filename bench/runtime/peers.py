#!/usr/bin/env python3
"""peers.py CASE N THREADS REPS — the same cases as runtime_bench.c with NumPy
and PyTorch eager, one JSON object per line (seconds per op, min and median).
The bf16 cases (OP_bf16) run PyTorch alone (NumPy has no bf16)."""
import json
import sys
import time

import numpy as np
import torch


def timeit(fn, reps, inner=1):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        ts.append((time.perf_counter() - t0) / inner)
    ts.sort()
    return ts[0], ts[len(ts) // 2]


def main():
    case, n, threads, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    bf16 = case.endswith("_bf16")
    base = case[:-5] if bf16 else case
    name = f"{base}_{'bf16' if bf16 else 'f32'}_{n}_t{threads}"
    out = []
    if bf16:
        # NumPy has no bf16: PyTorch alone
        ta, tb = torch.randn(n).bfloat16(), torch.randn(n).bfloat16()
        fns = {"add": lambda: ta + tb, "mul": lambda: ta * tb, "exp": lambda: ta.exp(),
               "gelu": lambda: torch.nn.functional.gelu(ta), "sum": lambda: ta.sum()}
        streams = {"add": 3, "mul": 3, "exp": 2, "gelu": 2, "sum": 1}[base]
        mn, md = timeit(fns[base], reps)
        out.append({"impl": "torch", "case": name, "min_s": mn, "median_s": md, "bytes": 2 * streams * n, "flops": n})
    elif case in ("sum0", "sumrow"):
        a = np.random.randn(n, n).astype(np.float32)
        ta = torch.from_numpy(a)
        dim = 0 if case == "sum0" else 1
        fns = {"numpy": lambda: a.sum(axis=dim), "torch": lambda: ta.sum(dim=dim)}
        for impl, fn in fns.items():
            if impl == "numpy" and threads > 1:
                continue  # NumPy's reductions are single-threaded
            mn, md = timeit(fn, reps)
            out.append({"impl": impl, "case": name, "min_s": mn, "median_s": md, "bytes": 4 * n * n, "flops": n * n})
    elif case in ("add", "sum", "tiny"):
        a, b = np.random.randn(n).astype(np.float32), np.random.randn(n).astype(np.float32)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        inner = 100000 if case == "tiny" else 1
        if case == "sum":
            fns = {"numpy": lambda: a.sum(), "torch": lambda: ta.sum()}
            nbytes = 4 * n
        else:
            fns = {"numpy": lambda: a + b, "torch": lambda: ta + tb}
            nbytes = 12 * n
        for impl, fn in fns.items():
            if impl == "numpy" and threads > 1:
                continue  # NumPy's element-wise ops are single-threaded
            mn, md = timeit(fn, reps, inner)
            out.append({"impl": impl, "case": name, "min_s": mn, "median_s": md, "bytes": nbytes, "flops": n})
    elif case.startswith("conv_"):
        # runtime_bench.c's CONVS: x [N, C, H, W], w, options
        F = torch.nn.functional
        x = {"conv_grouped": (128, 56, 56), "conv_dilated": (256, 28, 28), "conv_transpose": (256, 28, 28)}[case]
        x = torch.randn(n, *x)
        if case == "conv_grouped":
            w = torch.randn(128, 4, 3, 3)
            fn, macs = (lambda: F.conv2d(x, w, padding=1, groups=32)), n * 56 * 56 * 128 * 4 * 9
        elif case == "conv_dilated":
            w = torch.randn(256, 256, 3, 3)
            fn, macs = (lambda: F.conv2d(x, w, padding=2, dilation=2)), n * 28 * 28 * 256 * 256 * 9
        else:
            w = torch.randn(256, 128, 2, 2)
            fn, macs = (lambda: F.conv_transpose2d(x, w, stride=2)), n * 28 * 28 * 256 * 128 * 4
        with torch.no_grad():
            mn, md = timeit(fn, reps)
        out.append({"impl": "torch", "case": name, "min_s": mn, "median_s": md, "bytes": 0, "flops": 2 * macs})
    elif case == "matmul":
        a, b = torch.randn(n, n), torch.randn(n, n)
        mn, md = timeit(lambda: a @ b, reps)
        out.append({"impl": "torch", "case": name, "min_s": mn, "median_s": md, "bytes": 0, "flops": 2 * n ** 3})
    for o in out:
        print(json.dumps(o))


if __name__ == "__main__":
    main()
