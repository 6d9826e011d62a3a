#!/usr/bin/env python3
"""gen_inputs.py GEN — the generator's input options do what the cases say:
X.pick=A:B gives only (and both of) those values, T.lo/T.hi bound one tensor,
the other tensors keep the case's range, outputs start random (so a
missing store is seen), and T.nan_rows=N fills rows N.. with NaN. Reads the data file (format: tests/cross/gen.c)."""
import math
import os
import struct
import subprocess
import sys
import tempfile

gen = sys.argv[1]
failures = 0


def check(what, ok):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    failures += not ok


def read_data(path):
    """{param name: list of initial values} of the first case (f32 tensors)."""
    with open(path, "rb") as f:
        b = f.read()
    assert b[:8] == b"TKCROSS2"
    pos = 12

    def u32():
        nonlocal pos
        pos += 4
        return struct.unpack_from("<I", b, pos - 4)[0]

    def i64():
        nonlocal pos
        pos += 8
        return struct.unpack_from("<q", b, pos - 8)[0]

    def string():
        nonlocal pos
        n = u32()
        pos += n
        return b[pos - n:pos].decode()

    string(), string(), string()          # kernel, description, xfail
    for _ in range(u32()):
        i64()                             # sizes
    tensors = {}
    for _ in range(u32()):
        name = string()
        kind, typ = b[pos], b[pos + 1]
        pos += 2
        if kind == 1:                     # scalar
            pos += u32()
            continue
        assert typ == 0, "f32 tensors only"
        rank = u32()
        for _ in range(rank):
            i64()
        count = i64()
        pos += 8 + 8 + 4                  # rtol, atol, ulps
        has_bounds = b[pos]
        pos += 1
        tensors[name] = list(struct.unpack_from("<%df" % count, b, pos))
        pos += 4 * count + 8 * count      # initial contents, expected contents
        pos += 8 * count if has_bounds else 0   # per-element bounds (tol=bounds)
    return tensors


with tempfile.TemporaryDirectory() as tmp:
    os.mkdir(os.path.join(tmp, "k"))
    with open(os.path.join(tmp, "k", "a.tk"), "w") as f:
        # does nothing: the interpreter's final contents are the initial ones
        f.write("kernel inputs(gl<f32, N> X, gl<f32, N> gamma, gl<f32, N> B, gl<f32, N> Y) { }\n")
    with open(os.path.join(tmp, "cases.txt"), "w") as f:
        f.write("a.tk inputs N=4000 - lo=-3,hi=-2,X.pick=0:-inf,gamma.lo=0.5,gamma.hi=2\n")
    data = os.path.join(tmp, "d.dat")
    subprocess.run([gen, "--oracle=interp", "--manifest", os.path.join(tmp, "cases.txt"), "--kernels",
                    os.path.join(tmp, "k"), "--data", data, "--registry", os.path.join(tmp, "r.c")], check=True)
    t = read_data(data)
    check("X.pick=0:-inf: only 0 and -inf", set(t["X"]) == {0.0, -math.inf})
    check("X.pick=0:-inf: both, about half each", 1500 < t["X"].count(0.0) < 2500)
    check("gamma.lo=0.5,gamma.hi=2: within [0.5, 2]", all(0.5 <= v <= 2 for v in t["gamma"]))
    check("gamma: spread over the range", min(t["gamma"]) < 0.6 and max(t["gamma"]) > 1.9)
    check("B keeps the case's lo=-3,hi=-2", all(-3 <= v <= -2 for v in t["B"]) and len(set(t["B"])) > 1000)
    check("the output Y starts random, not zero", all(-3 <= v <= -2 for v in t["Y"]) and len(set(t["Y"])) > 1000)

    # Z.nan_rows=2: rows 2.. (second-to-last axis) of every [R, C] plane are NaN, rows 0..1 are not
    os.mkdir(os.path.join(tmp, "k2"))
    with open(os.path.join(tmp, "k2", "b.tk"), "w") as f:
        f.write("kernel rows(gl<f32, A, R, C> Z) { }\n")
    with open(os.path.join(tmp, "cases2.txt"), "w") as f:
        f.write("b.tk rows A=2,R=5,C=3 - Z.nan_rows=2\n")
    subprocess.run([gen, "--oracle=interp", "--manifest", os.path.join(tmp, "cases2.txt"), "--kernels",
                    os.path.join(tmp, "k2"), "--data", data, "--registry", os.path.join(tmp, "r2.c")], check=True)
    z = read_data(data)["Z"]
    check("Z.nan_rows=2: NaN exactly in rows 2.. of each plane",
          len(z) == 30 and all(math.isnan(v) == ((i // 3) % 5 >= 2) for i, v in enumerate(z)))

print("gen_inputs: %s" % ("all passed" if not failures else "%d failed" % failures))
sys.exit(1 if failures else 0)
