#!/usr/bin/env python3
"""gen_node_suite.py OUT_DIR — the ONNX backend node suite, written at test time.

The onnx wheel no longer ships the node test data, but
onnx.backend.test.case.node.collect_testcases() builds every case (model,
inputs, expected outputs) in Python. This writes them in the layout the
suite always had, which tk_onnx_suite (tests/onnx/suite_runner.c) and
ort_suite.py read:

    OUT_DIR/<case>/model.onnx
    OUT_DIR/<case>/test_data_set_<k>/input_<i>.pb, output_<i>.pb
    OUT_DIR/<case>/meta.txt     rtol, atol, and the kind of each value

A value that is not a tensor (a sequence, an optional) is written as the
matching ONNX proto (SequenceProto / OptionalProto) with its kind in
meta.txt, so a runner can say "unsupported" instead of guessing. An
existing OUT_DIR/stamp with the same onnx version is left alone.
"""
import os
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases


def value_proto(v):
    # some cases (casts to the float8/int4 types) give their values as protos already
    for cls, kind in ((onnx.TensorProto, "tensor"), (onnx.SequenceProto, "sequence"), (onnx.OptionalProto, "optional")):
        if isinstance(v, cls):
            return kind, v
    if isinstance(v, np.ndarray) or np.isscalar(v):
        return "tensor", numpy_helper.from_array(np.asarray(v))
    if isinstance(v, list):
        return "sequence", numpy_helper.from_list(v)
    if v is None:
        return "optional", numpy_helper.from_optional(None)
    if isinstance(v, dict):
        return "map", numpy_helper.from_dict(v)
    raise TypeError(type(v))


def main():
    out = sys.argv[1]
    stamp = os.path.join(out, "stamp")
    want = "onnx " + onnx.__version__ + "\n"
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    os.makedirs(out, exist_ok=True)
    warnings.simplefilter("ignore")
    with np.errstate(all="ignore"):
        cases = collect_testcases()
    n = 0
    for case in cases:
        d = os.path.join(out, case.name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        kinds = []
        for k, (inputs, outputs) in enumerate(case.data_sets or []):
            ds = os.path.join(d, f"test_data_set_{k}")
            os.makedirs(ds, exist_ok=True)
            for which, values in (("input", inputs), ("output", outputs)):
                for i, v in enumerate(values):
                    try:
                        kind, proto = value_proto(v)
                    except Exception as e:   # a value numpy_helper cannot express
                        kind, proto = "unwritable:" + type(e).__name__, None
                    kinds.append(f"{k} {which} {i} {kind}")
                    if proto is not None:
                        with open(os.path.join(ds, f"{which}_{i}.pb"), "wb") as f:
                            f.write(proto.SerializeToString())
        with open(os.path.join(d, "meta.txt"), "w") as f:
            f.write(f"rtol {case.rtol!r}\natol {case.atol!r}\n")
            for line in kinds:
                f.write(line + "\n")
        n += 1
    with open(stamp, "w") as f:
        f.write(want)
    print(f"gen_node_suite: {n} cases of onnx {onnx.__version__} in {out}")


if __name__ == "__main__":
    main()
