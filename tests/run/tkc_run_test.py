#!/usr/bin/env python3
"""tkc_run_test.py TKC ROOT GROUP — `tkc run` as an oracle: its options,
its pass rule, and its failures, one ctest per GROUP (help, npy, dist,
reference, expect, check, timing). Python's standard library only: .npy files
are written and read here with struct (numpy is not assumed).

Every assertion is one a broken `tkc run` would fail: a wrong kernel must
exit 1 and name its worst element, a malformed file must exit 2 with a
message that says what is wrong, a value must arrive bit for bit."""
import ast
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

TKC, ROOT, GROUP = sys.argv[1], sys.argv[2], sys.argv[3]
ORACLE = os.path.join(ROOT, "tests", "run", "oracle.tk")
GEMM = os.path.join(ROOT, "stdlib-kernels", "gemm.tk")
TMP = tempfile.mkdtemp(prefix="tkc_run_test_")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def tkc(*args, env=None, want=None):
    """Runs tkc; returns (rc, stdout, stderr, parsed JSON or None)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([TKC, *args], capture_output=True, text=True, env=e, timeout=300)
    j = None
    if "--json" in args and p.stdout.strip():
        try:
            j = json.loads(p.stdout.strip().splitlines()[-1])
        except ValueError:
            check(False, f"tkc {' '.join(args)}: stdout is not JSON: {p.stdout[:300]}")
    for bad in ("Sanitizer", "Segmentation", "core dumped", "Assertion"):
        check(bad not in p.stderr, f"tkc {' '.join(args)}: stderr mentions {bad}: {p.stderr[:500]}")
    if want is not None:
        check(p.returncode == want, f"tkc {' '.join(args)}: exit {p.returncode}, want {want}; stderr: {p.stderr.strip()[:400]}")
    return p.returncode, p.stdout, p.stderr, j


def path(name):
    return os.path.join(TMP, name)


# ---------------------------------------------------------------- .npy files

def npy_bytes(descr, shape, data, version=(1, 0), fortran=False, header=None):
    if header is None:
        shp = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, "True" if fortran else "False", shp)
    lenfmt = "<H" if version[0] == 1 else "<I"
    pre = 8 + struct.calcsize(lenfmt)
    total = (pre + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - pre - len(header) - 1) + "\n"
    return b"\x93NUMPY" + bytes(version) + struct.pack(lenfmt, len(header)) + header.encode() + data


def write_npy(name, descr, shape, values=None, raw=None, **kw):
    fmt = {"<f4": "f", "<f8": "d", "<u2": "H", "<f2": "e", "<i4": "i", ">f4": "f"}[descr]
    if raw is None:
        raw = struct.pack(("<" if descr[0] != ">" else ">") + fmt * len(values), *values)
    p = path(name)
    with open(p, "wb") as f:
        f.write(npy_bytes(descr, shape, raw, **kw))
    return p


def read_npy(p):
    """(descr, shape, values) of a file tkc wrote."""
    with open(p, "rb") as f:
        b = f.read()
    assert b[:6] == b"\x93NUMPY", p
    hlen = struct.unpack("<H", b[8:10])[0]
    h = ast.literal_eval(b[10:10 + hlen].decode())
    data = b[10 + hlen:]
    fmt = {"<f4": "f", "<f8": "d", "<u2": "H", "<f2": "e"}[h["descr"]]
    n = len(data) // struct.calcsize(fmt)
    return h["descr"], tuple(h["shape"]), list(struct.unpack("<" + fmt * n, data)), data


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


# ---------------------------------------------------------------- groups

def group_help():
    rc, out, err, _ = tkc("run", "--help", want=0)
    check(err == "", f"tkc run --help wrote to stderr: {err[:200]}")
    for opt in ("--kernel", "--size", "--set", "--target", "--generic", "-g", "--dist", "--seed", "--input", "--output-dir",
                "--check", "--reference", "--expect", "--atol", "--rtol", "--threads", "--repeat", "--warmup", "--cold",
                "--times", "--json", "--help", "uniform:", "normal:", "ints:", "<u2", "p90 - p10", "exit status",
                "|x - ref| <= atol + rtol*|ref|", "rtol = 2*eps + 8*sqrt(D)*2^-24", "atol = rtol * s", "RMS"):
        check(opt in out, f"tkc run --help does not mention {opt}")
    rc2, out2, _, _ = tkc("help", "run", want=0)
    check(out2 == out, "tkc help run differs from tkc run --help")
    _, top, _, _ = tkc("--help", want=0)
    check("tkc help run" in top, "tkc --help does not mention `tkc help run`")
    tkc("help", "nonsense", want=2)
    # --help wins over anything else on the line, even a missing file
    tkc("run", "no-such-file.tk", "--help", want=0)


def group_npy():
    k = ["run", ORACLE, "--size", "M=3,N=5", "--json", "--repeat", "1"]
    vals = [0.5, -1.25, 3.0e-39, -0.0, 1e30, 2.0, 7.0, -8.5, 0.1, 0.2, 0.3, 4.0, 5.0, 6.0, 1.0]
    x = write_npy("x.npy", "<f4", (3, 5), vals)
    out = path("out_f32")
    rc, _, _, j = tkc(*k, "--kernel", "copy_f32", "--input", f"X={x}", "--output-dir", out, "--check", want=0)
    if check(j is not None and j["correct"] is True, "copy_f32 from a file did not pass its check"):
        d, shp, _, data = read_npy(os.path.join(out, "Y.npy"))
        check(d == "<f4" and shp == (3, 5), f"Y.npy is {d} {shp}, want <f4 (3, 5)")
        check(data == struct.pack("<15f", *vals), "Y.npy is not bit for bit the input")
        check(read_npy(os.path.join(out, "X.npy"))[3] == data, "X.npy is not the input")
    for v in ((2, 0), (3, 0)):
        xv = write_npy(f"x{v[0]}.npy", "<f4", (3, 5), vals, version=v)
        rc, _, _, j = tkc(*k, "--kernel", "copy_f32", "--input", f"X={xv}", "--output-dir", path(f"out{v[0]}"), want=0)
        check(read_npy(path(f"out{v[0]}/Y.npy"))[3] == struct.pack("<15f", *vals), f"a version {v[0]}.0 file was not read right")
    # f64 into an f32 tensor: rounded to f32
    x8 = write_npy("x8.npy", "<f8", (3, 5), [0.1 * i for i in range(15)])
    tkc(*k, "--kernel", "copy_f32", "--input", f"X={x8}", "--output-dir", path("out8"), want=0)
    got = read_npy(path("out8/Y.npy"))[2]
    check(got == [f32(0.1 * i) for i in range(15)], f"<f8 input not rounded to f32: {got[:4]}")
    # bf16 bit patterns in and out: NaN, -inf, a subnormal, ordinary values
    bits = [0x3f80, 0xbf80, 0x7fc0, 0xff80, 0x0001, 0x4049, 0x3c00, 0x8000, 0x42f7, 0x0000, 0x3f81, 0xc2c8, 0x7f7f, 0x3e80, 0x4000]
    xb = write_npy("xb.npy", "<u2", (3, 5), bits)
    rc, _, _, j = tkc(*k, "--kernel", "copy_bf16", "--input", f"X={xb}", "--output-dir", path("outb"), "--check", want=0)
    d, shp, got, _ = read_npy(path("outb/Y.npy"))
    check(d == "<f4", f"a bf16 tensor was written as {d}, want <f4")
    want = [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits]
    check(all((math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(got, want)), f"bf16 bits did not round-trip: {got}")
    check(j is not None and j["nan_outputs"] == 1, f"nan_outputs {j and j.get('nan_outputs')}, want 1 (NaN meets NaN)")
    # floats into a bf16 tensor: round to nearest, ties to even
    ties = [1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20] + [1.0] * 12
    xt = write_npy("xt.npy", "<f8", (3, 5), ties)
    tkc(*k, "--kernel", "copy_bf16", "--input", f"X={xt}", "--output-dir", path("outt"), want=0)
    got = read_npy(path("outt/Y.npy"))[2][:3]
    check(got == [1.0, 1 + 2 ** -6, 1 + 2 ** -7], f"f64 → bf16 is not round-to-nearest-even: {got}")
    # f16: <f2 in, <f2 out, the same bits; <f4 into f16 rounds
    h = [0.5, -2.0, 65504.0, 6e-8, 1.0] * 3
    xh = write_npy("xh.npy", "<f2", (3, 5), h)
    tkc(*k, "--kernel", "copy_f16", "--input", f"X={xh}", "--output-dir", path("outh"), "--check", want=0)
    d, _, _, data = read_npy(path("outh/Y.npy"))
    check(d == "<f2" and data == struct.pack("<15e", *h), f"f16 did not round-trip as <f2 (got {d})")
    xh4 = write_npy("xh4.npy", "<f4", (3, 5), [1 + 2 ** -11] + [0.0] * 14)
    tkc(*k, "--kernel", "copy_f16", "--input", f"X={xh4}", "--output-dir", path("outh4"), want=0)
    check(read_npy(path("outh4/Y.npy"))[2][0] == 1.0, "f32 → f16 tie did not round to even")

    # malformed and mismatched files: exit 2, a message that says what is wrong
    good = struct.pack("<15f", *vals)
    cases = {
        "text": (b"hello, world\n", "not a .npy file"),
        "empty": (b"", "not a .npy file"),
        "short_magic": (b"\x93NUMPY\x01\x00", "truncated"),
        "huge_header": (b"\x93NUMPY\x01\x00\xff\xff{}", "does not fit"),
        "version4": (b"\x93NUMPY\x04\x00" + b"\x00" * 60, "version 4"),
        "fortran": (npy_bytes("<f4", (3, 5), good, fortran=True), "Fortran"),
        "bigendian": (npy_bytes(">f4", (3, 5), good), "big-endian"),
        "int32": (npy_bytes("<i4", (3, 5), good), "dtype '<i4' is not supported"),
        "short_data": (npy_bytes("<f4", (3, 5), good[:-4]), "needs 60 bytes of data, the file has 56"),
        "long_data": (npy_bytes("<f4", (3, 5), good + b"\0\0\0\0"), "the file has 64"),
        "no_shape": (npy_bytes("<f4", (3, 5), good, header="{'descr': '<f4', 'fortran_order': False, }"), "required"),
        "bad_tuple": (npy_bytes("<f4", (3, 5), good, header="{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5}"), "malformed"),
        "alpha_dim": (npy_bytes("<f4", (3, 5), good, header="{'descr': '<f4', 'fortran_order': False, 'shape': (3, x)}"), "malformed"),
        "unterminated": (npy_bytes("<f4", (3, 5), good, header="{'descr': '<f4"), "malformed"),
        "overflow": (npy_bytes("<f4", (3, 5), good, header="{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999, 99999999999)}"), "overflows"),
        "wrong_shape": (npy_bytes("<f4", (5, 3), good), "does not match tensor X's shape (3, 5)"),
        "wrong_rank": (npy_bytes("<f4", (15,), good), "the file's shape (15,) does not match"),
        "bits_for_f32": (npy_bytes("<u2", (3, 5), b"\0\0" * 15), "bit patterns"),
    }
    for name, (blob, phrase) in cases.items():
        p = path(name + ".npy")
        with open(p, "wb") as f:
            f.write(blob)
        rc, _, err, _ = tkc(*k, "--kernel", "copy_f32", "--input", f"X={p}", want=2)
        check(phrase in err, f"malformed file {name}: message {err.strip()!r} does not say {phrase!r}")
        check(p in err or name == "x", f"malformed file {name}: message does not name the file: {err.strip()!r}")
    rc, _, err, _ = tkc(*k, "--kernel", "copy_f32", "--input", "X=" + path("absent.npy"), want=2)
    check("cannot read" in err, f"a missing file: {err.strip()!r}")
    # names that are not tensors of the kernel
    for opt, val in (("--input", f"Z={x}"), ("--expect", f"Z={x}"), ("--dist", "Z=uniform:0,1")):
        rc, _, err, _ = tkc(*k, "--kernel", "copy_f32", opt, val, want=2)
        check("has no tensor parameter 'Z'" in err and "X Y" in err, f"{opt} Z: {err.strip()!r}")
    rc, _, err, _ = tkc(*k, "--kernel", "add_scalar", "--input", f"s={x}", want=2)
    check("scalar parameter" in err, f"--input of a scalar: {err.strip()!r}")
    rc, _, err, _ = tkc(*k, "--kernel", "copy_f32", "--input", f"X={x}", "--input", f"X={x}", want=2)
    check("given twice" in err, f"--input X twice: {err.strip()!r}")
    blocker = path("a_file")
    open(blocker, "w").close()
    rc, _, err, _ = tkc(*k, "--kernel", "copy_f32", "--output-dir", os.path.join(blocker, "sub"), want=2)
    check("--output-dir" in err, f"an --output-dir that cannot be made: {err.strip()!r}")


def group_dist():
    k = ["run", ORACLE, "--kernel", "copy_f32", "--size", "M=64,N=64", "--repeat", "1", "--json"]

    def values(*extra, name="X"):
        d = path("dist%d" % len(os.listdir(TMP)))
        tkc(*k, "--output-dir", d, *extra, want=0)
        return read_npy(os.path.join(d, name + ".npy"))[2]

    v = values("--dist", "X=ints:0,10")
    check(all(x == int(x) and 0 <= x <= 10 for x in v), "ints:0,10 gave a value outside 0..10 or not an integer")
    check(set(v) == set(float(i) for i in range(11)), f"ints:0,10 did not give every value 0..10: {sorted(set(v))}")
    v = values("--dist", "*=uniform:2,3")
    check(all(2 <= x < 3 for x in v), "uniform:2,3 gave a value outside [2, 3)")
    v = values("--dist", "X=normal:5,2")
    mean = sum(v) / len(v)
    std = math.sqrt(sum((x - mean) ** 2 for x in v) / len(v))
    check(abs(mean - 5) < 0.2 and abs(std - 2) < 0.2, f"normal:5,2 gave mean {mean:.3f}, std {std:.3f}")
    v = values()
    check(all(-1 <= x < 1 for x in v) and min(v) < -0.9 and max(v) > 0.9, "the default is not uniform:-1,1")
    # a tensor's own --dist beats `*`, in either order
    for order in (("--dist", "X=ints:1,1", "--dist", "*=ints:7,7"), ("--dist", "*=ints:7,7", "--dist", "X=ints:1,1")):
        check(set(values(*order)) == {1.0}, f"--dist X did not beat --dist * ({order})")
    # the whole flow, exactly: A = 1, B = 2, so every element of C = A·B is 2·K
    d = path("dist_gemm")
    tkc("run", ORACLE, "--kernel", "gemm_ref", "--size", "M=20,N=30,K=40", "--dist", "*=ints:2,2", "--dist", "A=ints:1,1",
        "--output-dir", d, "--check", "--json", "--repeat", "1", want=0)
    check(set(read_npy(os.path.join(d, "C.npy"))[2]) == {80.0}, "C = A·B of ones and twos is not 80 everywhere")
    # seeds: the same seed the same values, another seed others; each tensor its own stream
    a, b, c = values("--seed", "5"), values("--seed", "5"), values("--seed", "6")
    check(a == b and a != c, "--seed does not determine the values")
    y = write_npy("y64.npy", "<f4", (64, 64), [0.0] * 4096)
    check(values("--input", f"Y={y}") == values(), "giving Y from a file changed X's random values")
    for bad in ("X=uniform:1,0", "X=poisson:1", "X=ints:0.5,2", "X=normal:0", "X=normal:0,-1", "X", "X=uniform:a,b"):
        rc, _, err, _ = tkc(*k, "--dist", bad, want=2)
        check("--dist" in err, f"--dist {bad}: {err.strip()!r}")


def group_reference():
    size = ["--size", "M=64,N=64,K=4096", "--repeat", "2", "--json"]
    # the stdlib kernels at K = 4096 pass against plain references with the default rule
    rc, _, _, j = tkc("run", GEMM, "--kernel", "gemm_f32", *size, "--reference", f"{ORACLE}:gemm_ref", want=0)
    if check(j is not None and j["correct"] is True, "gemm_f32 K=4096 failed against gemm_ref"):
        c = [t for t in j["tensors"] if t["name"] == "C"][0]
        check(c["depth"] == 4096 and c["bounds"] is False and c["output"] is True, f"C's depth/bounds/output: {c}")
        check(j["reference"] == f"{ORACLE}:gemm_ref" and "reference" in j["checked_against"], "the JSON does not name the reference")
        check(abs(c["rtol"] / (2 * 2 ** -23 + 8 * 64 * 2 ** -24) - 1) < 1e-7, f"rtol {c['rtol']} is not 2·eps + 8·sqrt(D)·2^-24")
        check(abs(c["atol"] / (c["rtol"] * c["scale"]) - 1) < 1e-7, "atol is not rtol × scale")
        check(c["max_ratio"] < 1 and j["worst"]["ratio"] == c["max_ratio"], "max_ratio / worst disagree on a pass")
    tkc("run", GEMM, "--kernel", "gemm_bf16", *size, "--reference", f"{ORACLE}:gemm_bf16_ref", want=0)
    # kernels with real bugs fail with the default rule, name their worst element, and are still timed
    for kernel, ref, sz, rows in (("gemm_skip_k", "gemm_ref", "M=64,N=64,K=4096", 64), ("gemm_bf16_skip_k", "gemm_bf16_ref", "M=64,N=64,K=4096", 64),
                                  ("gemm_floor_grid", "gemm_ref", "M=100,N=64,K=64", 36)):
        rc, _, err, j = tkc("run", ORACLE, "--kernel", kernel, "--size", sz, "--reference", f"{ORACLE}:{ref}", "--repeat", "2", "--json", want=1)
        if not check(j is not None and j["correct"] is False, f"{kernel}: not reported incorrect"):
            continue
        w = j["worst"]
        check(w is not None and w["tensor"] == "C" and len(w["at"]) == 2, f"{kernel}: worst element {w}")
        check(w["abs_err"] > w["allowed"] and w["ratio"] > 1, f"{kernel}: the worst element is within what is allowed: {w}")
        check(w["index"] == w["at"][0] * 64 + w["at"][1], f"{kernel}: index {w['index']} is not at {w['at']}")
        c = [t for t in j["tensors"] if t["name"] == "C"][0]
        check(c["bad"] >= 0.99 * rows * 64, f"{kernel}: {c['bad']} bad elements, want (nearly) all {rows * 64} the bug touches")
        if kernel == "gemm_floor_grid":
            check(w["at"][0] >= 64, f"gemm_floor_grid: worst at {w['at']}, want a row past 63 (never written)")
        check(j["ms"] is not None and j["ms"] > 0 and j["samples"] == 2, f"{kernel}: a failed check was not timed (ms {j['ms']})")
        check("check failed" in (j["error"] or ""), f"{kernel}: error {j['error']}")
    # --atol/--rtol override the rule (here: loose enough to let the bug through)
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "gemm_skip_k", *size, "--reference", f"{ORACLE}:gemm_ref", "--atol", "100", want=0)
    check(j is not None and [t for t in j["tensors"] if t["name"] == "C"][0]["atol"] == 100, "--atol 100 was not used")
    # a reference that does not fit
    rc, _, err, _ = tkc("run", GEMM, "--kernel", "gemm_bf16", *size, "--reference", f"{ORACLE}:gemm_ref", want=2)
    check("parameter A" in err and "gl<f32, M, K>" in err, f"a reference of other types: {err.strip()!r}")
    rc, _, err, _ = tkc("run", GEMM, "--kernel", "gemm_f32", *size, "--reference", f"{ORACLE}:nope", want=2)
    check("no kernel named 'nope'" in err, f"an unknown reference kernel: {err.strip()!r}")
    rc, _, err, _ = tkc("run", GEMM, "--kernel", "gemm_f32", *size, "--reference", path("absent.tk"), want=2)
    check("cannot read" in err, f"a missing reference file: {err.strip()!r}")


def group_expect():
    d = path("exp")
    common = ["--size", "M=40,N=24,K=64", "--repeat", "1", "--json"]
    tkc("run", ORACLE, "--kernel", "gemm_ref", *common, "--output-dir", d, want=0)
    A, B, C = (os.path.join(d, n + ".npy") for n in "ABC")
    inputs = ["--input", f"A={A}", "--input", f"B={B}"]
    rc, _, _, j = tkc("run", GEMM, "--kernel", "gemm_f32", *common, *inputs, "--expect", f"C={C}", want=0)
    if check(j is not None and j["correct"] is True, "gemm_f32 does not match gemm_ref's output file"):
        t = [t for t in j["tensors"] if t["name"] == "C"]
        check(len(t) == 1 and t[0]["against"] == C and len(j["tensors"]) == 1, f"--expect compared {j['tensors']}")
        check(j["checked_against"].startswith("expected"), f"checked_against {j['checked_against']}")
    # one wrong element in the expected file: found, and named exactly
    descr, shape, vals, _ = read_npy(C)
    vals[77] += 0.5
    wrong = write_npy("C_wrong.npy", "<f4", shape, vals)
    rc, _, _, j = tkc("run", GEMM, "--kernel", "gemm_f32", *common, *inputs, "--expect", f"C={wrong}", want=1)
    if check(j is not None and j["worst"] is not None, "a wrong --expect file gave no worst element"):
        w = j["worst"]
        check(w["index"] == 77 and w["at"] == [77 // 24, 77 % 24], f"worst element {w}, want index 77 at [3, 5]")
        check(f32(w["reference"]) == f32(vals[77]), f"worst reference {w['reference']}, want {vals[77]}")
        check([t for t in j["tensors"] if t["name"] == "C"][0]["bad"] == 1, "more or fewer than one bad element")
    # with --reference too: the file decides for C
    rc, _, _, j = tkc("run", GEMM, "--kernel", "gemm_f32", *common, *inputs, "--reference", f"{ORACLE}:gemm_ref", "--expect", f"C={wrong}", want=1)
    check(j is not None and [t for t in j["tensors"] if t["name"] == "C"][0]["against"] == wrong, "--expect did not override --reference for C")
    # bf16 bit patterns as expected values
    bits = [0x3f80 + i for i in range(32)]
    xb = write_npy("eb.npy", "<u2", (2, 16), bits)
    kb = ["run", ORACLE, "--kernel", "copy_bf16", "--size", "M=2,N=16", "--repeat", "1", "--json", "--input", f"X={xb}"]
    tkc(*kb, "--expect", f"Y={xb}", want=0)
    # (one ulp is within the rule's 2·eps for a bf16 tensor; a flipped sign is not)
    xw = write_npy("ebw.npy", "<u2", (2, 16), bits[:5] + [bits[5] ^ 0x8000] + bits[6:])
    rc, _, _, j = tkc(*kb, "--expect", f"Y={xw}", want=1)
    check(j is not None and j["worst"]["index"] == 5 and j["worst"]["at"] == [0, 5], f"a wrong bf16 element was not found at 5: {j and j['worst']}")
    # NaN must meet NaN, inf the same inf
    inf, nan = float("inf"), float("nan")
    xs = [1.0, inf, -inf, nan] + [2.0] * 12
    xf = write_npy("nx.npy", "<f4", (1, 16), xs)
    kf = ["run", ORACLE, "--kernel", "copy_f32", "--size", "M=1,N=16", "--repeat", "1", "--json", "--input", f"X={xf}"]
    tkc(*kf, "--expect", f"Y={xf}", want=0)
    for i, v in ((0, nan), (1, -inf), (2, 3e38), (3, 0.0)):
        e = write_npy(f"nx{i}.npy", "<f4", (1, 16), xs[:i] + [v] + xs[i + 1:])
        rc, _, _, j = tkc(*kf, "--expect", f"Y={e}", want=1)
        check(j is not None and j["worst"]["index"] == i and j["worst"]["ratio"] == "inf", f"expected {v} at {i}: worst {j and j['worst']}")
    rc, _, err, _ = tkc("run", GEMM, "--kernel", "gemm_f32", *common, *inputs, "--expect", f"C={A}", want=2)
    check("does not match tensor C's shape (40, 24)" in err, f"an --expect of the wrong shape: {err.strip()!r}")


def group_check():
    # plain --check: the interpreter's bounds join the rule; a copy is exact, so its allowance is 0
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=33,N=17", "--check", "--json", "--repeat", "1", want=0)
    if check(j is not None and j["correct"] is True, "copy_f32 failed its own check"):
        y = [t for t in j["tensors"] if t["name"] == "Y"][0]
        check(y["bounds"] is True and y["max_abs_err"] == 0 and y["checked"] == 33 * 17, f"copy's Y: {y}")
        check(j["worst"]["allowed"] == 0, f"an exact copy was allowed {j['worst']['allowed']}")
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "gemm_ref", "--size", "M=70,N=40,K=300", "--check", "--json", "--repeat", "1", want=0)
    check(j is not None and j["correct"] is True and j["bounds_note"] is None, "gemm_ref failed its own check")
    # a correct SwiGLU FFN at a real model's sizes passes: the tolerance grows with the depth (D + F products per output)
    ffn = os.path.join(ROOT, "stdlib-kernels", "ffn.tk")
    for kernel in ("ffn_swiglu_bf16", "ffn_swiglu_f32"):
        rc, _, _, j = tkc("run", ffn, "--kernel", kernel, "--size", "T=17,D=1024,F=2816", "--check", "--json", "--repeat", "1", want=0)
        if check(j is not None and j["correct"] is True, f"{kernel} at D=1024, F=2816 failed its own check"):
            y = [t for t in j["tensors"] if t["name"] == "Y"][0]
            check(y["depth"] >= 1024 + 2816 and y["bad"] == 0 and y["checked"] == 17 * 1024, f"{kernel}'s Y: {y}")
    # a running sum over 6000 rows (acc = acc + x in a loop): its depth is the rows, so the
    # correct kernel passes its own check (at depth 1 it failed: 17 of 80 sums off by up to
    # 0.011, allowed 0.0021), and the one that drops a row still fails against it
    for kernel, want, ref in (("colsum_running", 0, ()), ("colsum_skip_row", 1, ("--reference", ORACLE + ":colsum_running"))):
        rc, _, _, j = tkc("run", ORACLE, "--kernel", kernel, "--size", "R=6000,C=80", "--dist", "X=uniform:0,1", "--check", *ref,
                          "--json", "--repeat", "1", want=want)
        if check(j is not None, f"{kernel}: no JSON"):
            y = [t for t in j["tensors"] if t["name"] == "Y"][0]
            check(y["depth"] == 6000 and (y["bad"] == 0) == (want == 0), f"{kernel}'s Y: {y}")
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "add_scalar", "--size", "M=16,N=16", "--set", "s=0.25", "--check", "--json", "--repeat", "1", want=0)
    check(j is not None and j["correct"] is True, "add_scalar with --set failed its own check")
    # an f32 output that passed through bf16 is judged with bf16's epsilon; one that did not, with f32's
    for kernel, eps in (("through_bf16", 2 ** -7), ("add_scalar", 2 ** -23)):
        rc, _, _, j = tkc("run", ORACLE, "--kernel", kernel, "--size", "M=16,N=32", "--check", "--json", "--repeat", "1", want=0)
        if check(j is not None, f"{kernel}: no JSON"):
            y = [t for t in j["tensors"] if t["name"] == "Y"][0]
            check(abs(y["rtol"] / (2 * eps + 8 * 2 ** -24) - 1) < 1e-7 and y["depth"] == 1, f"{kernel}: rtol {y['rtol']}, depth {y['depth']}")
    tkc("run", ORACLE, "--kernel", "add_scalar", "--size", "M=16,N=16", "--set", "s=abc", want=2)
    tkc("run", ORACLE, "--kernel", "add_scalar", "--size", "M=16,N=16", "--set", "q=1", want=2)
    # overrides: the rule is what was given, the bounds step aside
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "gemm_ref", "--size", "M=70,N=40,K=300", "--check", "--atol", "0", "--rtol", "0", "--json", "--repeat", "1")
    if check(j is not None, "no JSON with --atol 0 --rtol 0"):
        c = [t for t in j["tensors"] if t["name"] == "C"][0]
        check(c["atol"] == 0 and c["rtol"] == 0 and c["bounds"] is False, f"--atol 0 --rtol 0 gave {c}")
        check(rc == (1 if c["bad"] else 0), f"exit {rc} with {c['bad']} bad elements")
    tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=4,N=4", "--atol", "1", want=2)   # needs a check
    # without --check nothing is compared
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=4,N=4", "--json", "--repeat", "1", want=0)
    check(j is not None and j["correct"] is None and "tensors" not in j, "correct is not null without --check")


def group_timing():
    cache = path("cache")
    env = {"TK_CACHE_DIR": cache, "TK_PEAK_GFLOPS_F32": "", "TK_PEAK_GFLOPS_BF16": ""}
    k = ["run", ORACLE, "--kernel", "gemm_ref", "--size", "M=64,N=64,K=256", "--json", "--repeat", "5", "--times", "--threads", "1"]
    rc, _, _, j = tkc(*k, env=env, want=0)
    if check(j is not None, "no JSON"):
        t = j["times_ms"]
        check(len(t) == 5 and j["samples"] == 5 and all(x > 0 for x in t), f"times_ms {t}")
        check(j["min_ms"] == min(t) or abs(j["min_ms"] - min(t)) < 2e-6, f"min_ms {j['min_ms']} is not min(times_ms) {min(t)}")
        s = sorted(t)
        check(abs(j["ms"] - s[2]) < 2e-6, f"ms {j['ms']} is not the median {s[2]}")
        check(abs(j["spread_ms"] - (j["p90_ms"] - j["p10_ms"])) < 2e-6 and j["p10_ms"] <= j["ms"] <= j["p90_ms"], "spread is not p90 - p10")
        p10 = s[0] + 0.4 * (s[1] - s[0])
        check(abs(j["p10_ms"] - p10) < 2e-6, f"p10 {j['p10_ms']}, want {p10}")
        check(j["bytes"] == 64 * 256 * 4 * 2 + 64 * 64 * 4, f"bytes {j['bytes']}: A and B loaded once, C stored once")
        check(abs(j["gbps"] - j["bytes"] / (j["ms"] * 1e6)) < 1e-3 * j["gbps"] + 1e-3, "gbps is not bytes / ms")
        check("measured" in j["peak_basis"] and "probe" in j["peak_basis"] and j["peak_gflops"] > 0, f"first run's peak: {j['peak_basis']}")
        check(any(n.startswith("peak-") for n in os.listdir(cache)), "the probed peak was not cached")
        rc, _, _, j2 = tkc(*k, env=env, want=0)
        check(j2 is not None and "cached" in j2["peak_basis"] and j2["peak_gflops"] == j["peak_gflops"], f"second run's peak: {j2 and j2['peak_basis']}")
    rc, _, _, j = tkc(*k[:-1], "2", env={"TK_PEAK_GFLOPS_F32": "50"}, want=0)
    if check(j is not None, "no JSON"):
        check(j["peak_gflops"] == 100 and "TK_PEAK_GFLOPS_F32" in j["peak_basis"], f"the override: {j['peak_gflops']} {j['peak_basis']}")
        check(abs(j["pct_peak"] - j["gflops"]) < 0.02, f"pct_peak {j['pct_peak']} is not gflops / 100 GFLOP/s")
    # no mma: no peak, but bytes and bandwidth
    rc, out, _, _ = tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=128,N=128", "--repeat", "3", want=0)
    check("GB/s" in out and "GFLOP/s" not in out, f"copy's text report: {out}")
    rc, _, _, j = tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=128,N=128", "--repeat", "3", "--json", want=0)
    check(j is not None and "peak_gflops" not in j and j["bytes"] == 2 * 128 * 128 * 4 and j["gbps"] > 0, f"copy's JSON: {j}")
    for bad in (("--repeat", "0"), ("--threads", "x"), ("--warmup", "-1")):
        tkc("run", ORACLE, "--kernel", "copy_f32", "--size", "M=4,N=4", *bad, want=2)


GROUPS = {"help": group_help, "npy": group_npy, "dist": group_dist, "reference": group_reference, "expect": group_expect,
          "check": group_check, "timing": group_timing}
GROUPS[GROUP]()
print(f"tkc_run_{GROUP}: " + (f"{len(failures)} failure(s)" if failures else "ok"))
sys.exit(1 if failures else 0)
