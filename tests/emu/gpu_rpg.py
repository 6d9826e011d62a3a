#!/usr/bin/env python3
"""gpu_rpg.py — random programs within what the GPU lowering takes today, run on
the emulation target and checked against the interpreter.

The differential test's generator (tests/gen/rpg.c) draws from the whole
language, so almost none of its programs lower for GPUs yet (tk_difftest's
emu-sm80 configuration skips them). Until it does, this generator draws from
the GPU subset only, so that the lowering meets shapes nobody wrote by hand:
1, 2 or 4 warps; per-warp tiles of 16..64 rows and 16..64 columns; K steps of
16 or 32; A and B loaded straight from global memory or staged through shared
tiles with sync(); a random chain of element-wise maps, comparisons, where and
fma on the accumulator; sometimes a second product of the converted result (an
accumulator turned into an A operand, as attention does); ragged sizes.

    gpu_rpg.py TKC --first S --count N [--ptxas PTXAS] [--keep DIR]

Each program runs with `tkc run --target=sm_80-emu --check` (must print
`correct   yes`); with --ptxas its sm_90a PTX must also assemble. The exit
status is the number of failures (capped at 100); every failure prints the
program and the command that reproduces it."""
import argparse
import os
import random
import subprocess
import sys
import tempfile

MAPS = [
    ("relu", lambda x: f"relu({x})"),
    ("exp", lambda x: f"exp({x} * 0.125)"),
    ("tanh", lambda x: f"tanh({x})"),
    ("sigmoid", lambda x: f"sigmoid({x})"),
    ("scale", lambda x: f"{x} * s"),
    ("shift", lambda x: f"{x} + s"),
    ("where", lambda x: f"where({x} > 0.25, {x}, {x} * 0.5)"),
    ("fma", lambda x: f"fma({x}, 0.5, s)"),
    ("abs", lambda x: f"abs({x})"),
    ("neg", lambda x: f"-{x}"),
    ("max", lambda x: f"max({x}, 0.0 - s)"),
]


def program(seed):
    r = random.Random(seed)
    W = r.choice([1, 2, 4])
    BM = r.choice([16, 32, 48, 64])
    BN = r.choice([16, 32, 64])
    BK = r.choice([16, 32])
    staged = r.random() < 0.5
    second = r.random() < 0.3
    BD = r.choice([16, 32])
    chain = [r.choice(MAPS) for _ in range(r.randint(0, 3))]
    rows = f"block.y * {W} + warp.id" if W > 1 else "block.y"
    params = "gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C, f32 s"
    if second:
        params += ", gl<bf16, N, D> V, gl<f32, M, D> O"
    src = [f"// gpu_rpg seed {seed}: warps {W}, tile {BM}x{BN}, K step {BK}, "
           f"{'shared' if staged else 'direct'}, maps {[m[0] for m in chain]}{', second product' if second else ''}",
           f"kernel g{seed}({params})",
           f"    grid(cdiv(N, {BN}), cdiv(M, {BM * W})) warps({W})",
           "{"]
    if staged:
        src += [f"    st<bf16, {BM * W}, {BK}> As;", f"    st<bf16, {BK}, {BN}> Bs;"]
    src += [f"    rt<f32, {BM}, {BN}> acc = zeros();", f"    for (k in 0 .. cdiv(K, {BK})) {{"]
    if staged:   # a load of a whole shared tile may leave out its coordinates
        whole = r.random() < 0.5
        a_src = "As" if W == 1 and whole else f"As, {'warp.id' if W > 1 else '0'}, 0"
        b_src = "Bs" if whole else "Bs, 0, 0"
        src += ["        As = load(A, block.y, k);", "        Bs = load(B, k, block.x);", "        sync();",
                f"        rt<bf16, {BM}, {BK}> a = load({a_src});",
                f"        rt<bf16, {BK}, {BN}, col> b = load({b_src});"]
    else:
        src += [f"        rt<bf16, {BM}, {BK}> a = load(A, {rows}, k);",
                f"        rt<bf16, {BK}, {BN}, col> b = load(B, k, block.x);"]
    src += ["        mma_ab(acc, a, b);"]
    if staged:
        src += ["        sync();"]
    src += ["    }"]
    x = "acc"
    for i, (_, f) in enumerate(chain):
        src += [f"    let e{i} = {f(x)};"]
        x = f"e{i}"
    src += [f"    store(C, {x}, {rows}, block.x);"]
    if second:   # one block column (N ≤ BN): every block owns whole rows of O
        src += [f"    rt<bf16, {BM}, {BN}> p = convert<bf16>({x});",
                f"    rt<bf16, {BN}, {BD}, col> v = load(V, 0, 0);",
                f"    rt<f32, {BM}, {BD}> o = zeros();",
                "    mma_ab(o, p, v);",
                f"    store(O, o, {rows}, 0);"]
    src += ["}"]
    M = r.randint(1, 3 * BM * W)
    N = r.randint(1, BN) if second else r.randint(1, 2 * BN + 7)
    K = r.randint(1, 3 * BK)
    sizes = f"M={M},K={K},N={N}" + (f",D={r.randint(1, BD)}" if second else "")
    s = r.choice(["0.5", "-0.75", "1.25"])
    return f"g{seed}", "\n".join(src) + "\n", sizes, s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tkc")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--ptxas")
    ap.add_argument("--keep")
    o = ap.parse_args()
    failures = 0
    work = o.keep or tempfile.mkdtemp(prefix="gpu_rpg_")
    os.makedirs(work, exist_ok=True)
    for seed in range(o.first, o.first + o.count):
        name, src, sizes, s = program(seed)
        path = os.path.join(work, f"{name}.tk")
        with open(path, "w") as f:
            f.write(src)
        cmd = [o.tkc, "run", path, "--target=sm_80-emu", "--size", sizes, "--set", f"s={s}", "--check", "--repeat", "1"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        ok = p.returncode == 0 and "\ncorrect   yes" in "\n" + p.stdout
        why = "" if ok else (p.stdout + p.stderr).strip().splitlines()[-3:]
        if ok and o.ptxas:
            ptx = os.path.join(work, f"{name}.ptx")
            q = subprocess.run([o.tkc, "--target=sm_90a", "--emit=ptx", path, "-o", ptx], capture_output=True, text=True)
            a = q.returncode == 0 and subprocess.run([o.ptxas, "-arch=sm_90a", ptx, "-o", os.devnull],
                                                     capture_output=True, text=True).returncode == 0
            if not a:
                ok, why = False, ["ptxas rejected the PTX (or tkc could not write it)", q.stderr.strip()]
        print(f"{'ok  ' if ok else 'FAIL'} seed {seed}: {src.splitlines()[0][3:]} at {sizes}")
        if not ok:
            failures += 1
            print("\n".join(why))
            print(src)
            print("rerun:", " ".join(cmd))
    print(f"gpu_rpg: {o.count} programs from seed {o.first}, {failures} failed")
    return min(failures, 100)


if __name__ == "__main__":
    sys.exit(main())
