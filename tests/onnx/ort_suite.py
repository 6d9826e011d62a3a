#!/usr/bin/env python3
"""ort_suite.py SUITE_DIR [--json OUT] — ONNX Runtime on the node suite that
gen_node_suite.py wrote, judged by the same rule as our runner (suite_runner.c):
every output's dtype and shape equal, values within the case's rtol/atol
(|a - e| <= atol + rtol * |e|, NaN matching NaN), every data set.

Prints "ort: PASS of TOTAL" and, with --json, a per-case report
{case: "pass" | "fail: why" | "unsupported: why"}. This is the peer's count
the issue compares ours with, measured on the same files in the same run.
"""
import json
import os
import sys
import warnings

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper


def load_value(path):
    data = open(path, "rb").read()
    for cls, conv in ((onnx.TensorProto, numpy_helper.to_array), (onnx.SequenceProto, numpy_helper.to_list),
                      (onnx.OptionalProto, numpy_helper.to_optional)):
        p = cls()
        try:
            p.ParseFromString(data)
        except Exception:
            continue
        if cls is onnx.TensorProto and (p.data_type or p.dims):
            return conv(p)
        if cls is onnx.SequenceProto and p.elem_type:
            return conv(p)
        if cls is onnx.OptionalProto:
            return conv(p)
    return numpy_helper.to_array(onnx.TensorProto.FromString(data))


def close(e, a, rtol, atol):
    if isinstance(e, list):
        return isinstance(a, list) and len(a) == len(e) and all(close(x, y, rtol, atol) for x, y in zip(e, a))
    if e is None:
        return a is None
    a = np.asarray(a)
    e = np.asarray(e)
    if a.dtype != e.dtype or a.shape != e.shape:
        return False
    if e.dtype.kind in "fc":
        ea, aa = e.astype(np.float64), a.astype(np.float64)
        both_nan = np.isnan(ea) & np.isnan(aa)
        ok = np.abs(aa - ea) <= atol + rtol * np.abs(ea)
        ok |= both_nan | (ea == aa)   # equal infinities
        return bool(ok.all())
    if e.dtype.kind in "OUS":
        return bool((e == a).all())
    return bool((e == a).all())


def run_case(d):
    meta = dict(l.split(" ", 1) for l in open(os.path.join(d, "meta.txt")).read().splitlines()[:2])
    rtol, atol = float(meta["rtol"]), float(meta["atol"])
    so = ort.SessionOptions()
    so.log_severity_level = 4
    try:
        sess = ort.InferenceSession(os.path.join(d, "model.onnx"), so, providers=["CPUExecutionProvider"])
    except Exception as e:
        return "unsupported: " + str(e).splitlines()[0][:200]
    model = onnx.load(os.path.join(d, "model.onnx"))
    in_names = [i.name for i in model.graph.input]
    sets = sorted(x for x in os.listdir(d) if x.startswith("test_data_set_"))
    for s in sets:
        ds = os.path.join(d, s)
        feeds = {}
        for i, name in enumerate(in_names):
            p = os.path.join(ds, f"input_{i}.pb")
            if os.path.exists(p):
                feeds[name] = load_value(p)
        try:
            outs = sess.run(None, feeds)
        except Exception as e:
            return "fail: run: " + str(e).splitlines()[0][:200]
        for i, a in enumerate(outs):
            p = os.path.join(ds, f"output_{i}.pb")
            if not os.path.exists(p):
                continue
            if not close(load_value(p), a, rtol, atol):
                return f"fail: output {i} differs"
    return "pass"


def main():
    suite = sys.argv[1]
    out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    warnings.simplefilter("ignore")
    report = {}
    for name in sorted(os.listdir(suite)):
        d = os.path.join(suite, name)
        if os.path.isdir(d):
            with np.errstate(all="ignore"):
                try:
                    report[name] = run_case(d)
                except Exception as e:
                    report[name] = "fail: " + type(e).__name__ + ": " + str(e)[:200]
    npass = sum(v == "pass" for v in report.values())
    print(f"ort {ort.__version__}: {npass} of {len(report)} node cases pass")
    if out:
        json.dump(report, open(out, "w"), indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
