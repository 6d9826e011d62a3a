#!/usr/bin/env python3
"""ort_peer.py MODEL SHAPE DTYPE THREADS RUNS — ONNX Runtime's latency on one
model, in its best CPU configuration for this machine: all graph
optimisations, intra-op threads = THREADS, one inter-op thread, and spinning
both on and off (the faster is reported: on two cores spinning can help or
hurt). Prints one JSON line: median and min ms, load ms, peak RSS (MiB, the
whole Python process).
"""
import json
import resource
import sys
import time

import numpy as np
import onnxruntime as ort

model, shape, dtype, threads, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
dims = [int(d) for d in shape.split("x")]
rng = np.random.default_rng(1)
x = rng.integers(0, 90, dims).astype(np.int64) if dtype == "int64" else rng.standard_normal(dims).astype(np.float32)
best = None
for spin in ("1", "0"):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.add_session_config_entry("session.intra_op.allow_spinning", spin)
    t0 = time.perf_counter()
    sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    load_ms = (time.perf_counter() - t0) * 1e3
    name = sess.get_inputs()[0].name
    for _ in range(3):
        sess.run(None, {name: x})
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        sess.run(None, {name: x})
        ts.append((time.perf_counter() - t0) * 1e3)
    r = {"median_ms": float(np.median(ts)), "min_ms": float(min(ts)), "load_ms": load_ms, "spinning": spin == "1"}
    if best is None or r["median_ms"] < best["median_ms"]:
        best = r
best["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
best["ort"] = ort.__version__
print(json.dumps(best))
