#!/usr/bin/env python3
"""same_outputs.py DIR_A DIR_B NAME[:bf16][:sum]... — are the named tensors that
two `tkc run --output-dir` runs wrote the same, within a tolerance? (`tkc run`
writes bf16 tensors widened to f32: `:bf16` says which ones were bf16.) `:sum`
compares the sums over the first axis instead: ffn.tk's _part kernels split
the hidden columns into slices by their chunk width, which differs per target,
and only the slices' sum (what ffn_partial_sum adds up) is the same.

Used by emu_run.sh `configs`: one stdlib kernel run at its CPU configuration on
the host and at its GPU configuration on the emulation target, on the same
seeded inputs. The CPU configuration is checked against double-precision C
references by the stdlib tests, so agreement here checks the GPU
configuration's tiling (warps, query tiles, key steps) independently of the
interpreter, which runs the same TIR as the kernel.

Tolerance: |a - b| <= 1e-5 * max|a| + 1e-6 for f32 tensors; for bf16 tensors
2^-6 * max|a|, four ulps of bf16 at the largest magnitude (the two
configurations round probabilities to bf16 against different running maxima,
so outputs differ by a few roundings; a tiling mistake is off by O(max|a|)). Plain Python: no NumPy needed.
"""
import array
import math
import struct
import sys


def load(path):
    try:
        data = open(path, 'rb').read()
    except OSError as e:
        sys.exit(f"{path}: cannot read it ({e.strerror}): did the kernel write that output?")
    if data[:6] != b'\x93NUMPY':
        sys.exit(f"{path}: not a .npy file")
    hlen = struct.unpack('<H', data[8:10])[0]
    header = data[10:10 + hlen].decode()
    body = data[10 + hlen:]
    shape = tuple(int(d) for d in header.split("'shape':")[1].split('(')[1].split(')')[0].split(',') if d.strip())
    if "'<f4'" in header:
        return list(array.array('f', body)), 'f32', shape
    if "'<u2'" in header or "'<i2'" in header or 'bfloat16' in header or "'V2'" in header:
        return [struct.unpack('<f', struct.pack('<I', h << 16))[0] for h in array.array('H', body)], 'bf16', shape
    sys.exit(f"{path}: element type not handled: {header}")


def sum_first_axis(values, shape):
    """values (row-major, `shape`) summed over axis 0, in double precision"""
    n = shape[0] if shape else 1
    inner = len(values) // n if n else 0
    return [math.fsum(values[s * inner + i] for s in range(n)) for i in range(inner)]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    a_dir, b_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for spec in names:
        name, *mods = spec.split(':')
        a, kind, shape = load(f"{a_dir}/{name}.npy")
        kind = 'bf16' if 'bf16' in mods else kind
        b, _, _ = load(f"{b_dir}/{name}.npy")
        if 'sum' in mods:
            a, b = sum_first_axis(a, shape), sum_first_axis(b, shape)
        if len(a) != len(b):
            sys.exit(f"{name}: {len(a)} elements against {len(b)}")
        top = max((abs(x) for x in a if not math.isnan(x)), default=0.0)
        tol = 2.0 ** -6 * top if kind == 'bf16' else 1e-5 * top + 1e-6
        worst, wrong = 0.0, 0
        for x, y in zip(a, b):
            if math.isnan(x) or math.isnan(y):
                wrong += not (math.isnan(x) and math.isnan(y))
                continue
            d = abs(x - y)
            worst = max(worst, d)
            wrong += d > tol
        print(f"{name}: {len(a)} {kind} elements, max |diff| {worst:.3g} (tolerance {tol:.3g}), {wrong} beyond it")
        bad += wrong
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
