#!/usr/bin/env python3
"""gpu_rpg.py — random programs within what the GPU lowering takes today, run on
the emulation target and checked against the interpreter.

The differential test's generator (tests/gen/rpg.c) draws from the whole
language, so almost none of its programs lower for GPUs yet (tk_difftest's
emu-sm80 configuration skips them). Until it does, this generator draws from
the GPU subset only, so that the lowering meets shapes nobody wrote by hand:
1, 2 or 4 warps; per-warp tiles of 16..64 rows and 16..64 columns; K steps of
16 or 32; A and B loaded straight from global memory or staged through shared
tiles with sync(); bf16, f16 or f32 operands (f32: tf32 products split in two);
mma_ab, or mma_abt / mma_atb / mma_atbt with operands in the layouts whose
transposes stay in their lanes, or A loaded as a row tile of Aᵀ and turned
by transpose() (its elements cross lanes, through shared memory); a random chain of
element-wise maps, comparisons, where, fma, row and column reductions and
broadcasts (rv vectors in the tile's row or column distribution, or in both,
which replicates them), masks and tril/triu on the accumulator; sometimes a
reduced vector stored to memory; sometimes a second product of the converted
result (an accumulator turned into an A operand, as attention does);
sometimes the result restaged through a shared tile (each warp stores its
part, another warp reads it, or one warp reads its own back as a col tile);
ragged sizes (half of the time with K and N multiples of 8, so that staged
tiles are copied asynchronously).

    gpu_rpg.py TKC --first S --count N [--ptxas PTXAS] [--keep DIR]

Each program runs with `tkc run --target=sm_80-emu --check` (must print
`correct   yes`) — odd seeds on `sm_90a-emu` instead, where staged tiles of
whole KiB arrive by the TMA and products whose B a warpgroup reads alike
become wgmma; with --ptxas its sm_90a PTX must also assemble. The exit
status is the number of failures (capped at 100); every failure prints the
program and the command that reproduces it."""
import argparse
import os
import random
import shutil
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


# steps on the tile x that use vectors: (name, lines, new x); R, C are the tile's dims
def vector_steps(R, C):
    steps = [
        ("softmax-rows", lambda x, i: [f"    rv<f32, {R}> m{i} = row_max({x});",
                                       f"    rt<f32, {R}, {C}> e{i} = exp(sub_row({x}, m{i}));"]),
        ("norm-rows", lambda x, i: [f"    rv<f32, {R}> q{i} = row_sum({x} * {x}) * 0.125 + 1.0;",
                                    f"    rt<f32, {R}, {C}> e{i} = div_row({x}, q{i});"]),
        ("cols", lambda x, i: [f"    rv<f32, {C}> c{i} = col_max({x}) + col_sum({x}) * 0.25;",
                               f"    rt<f32, {R}, {C}> e{i} = sub_col({x}, c{i});"]),
        ("col-min", lambda x, i: [f"    rt<f32, {R}, {C}> e{i} = mul_col({x}, col_min({x}) * 0.5 + 2.0);"]),
        ("total", lambda x, i: [f"    f32 t{i} = row_sum(row_sum({x})) * 0.001;",
                                f"    rt<f32, {R}, {C}> e{i} = {x} + t{i};"]),
        ("mask-rows", lambda x, i: [f"    rt<f32, {R}, {C}> e{i} = mask_rows({x}, M - {{ROW0}}, -2.5);"]),
        ("mask-cols", lambda x, i: [f"    rt<f32, {R}, {C}> e{i} = mask_cols({x}, N - block.x * {C}, 0.0);"]),
        ("tril", lambda x, i: [f"    rt<f32, {R}, {C}> e{i} = tril({x}, {{ROW0}} - block.x * {C}, -1.0);"]),
        ("triu", lambda x, i: [f"    rt<f32, {R}, {C}> e{i} = triu({x}, 3, 0.5);"]),
    ]
    if R == C:   # one vector as rows and as columns: replicated, moved by shuffles (weighted: rare shapes)
        steps += 3 * [("rows-as-cols", lambda x, i: [f"    rv<f32, {R}> v{i} = row_max({x});",
                                                     f"    rt<f32, {R}, {C}> e{i} = add_col(add_row({x}, v{i}), v{i} * 0.5);"])]
    return steps


def program(seed):
    r = random.Random(seed)
    W = r.choice([1, 2, 4])
    BM = r.choice([16, 32, 48, 64])
    BN = r.choice([16, 32, 64])
    BK = r.choice([16, 32])
    staged = r.random() < 0.5
    second = r.random() < 0.3
    BD = r.choice([16, 32])
    steps = MAPS + vector_steps(BM, BN)
    chain = [r.choice(steps) for _ in range(r.randint(0, 3))]
    # the transposed forms take A as [K][M] in col layout and B as [N][K] in row layout:
    # the layouts whose transposes are lane-local on sm_80 (mma_atb with a row A is not)
    form = r.choice(["ab", "ab", "abt", "atb", "atbt"])
    ta, tb = form in ("atb", "atbt"), form in ("abt", "atbt")
    T = r.choice(["bf16", "bf16", "f16", "f32"])   # f32 operands: tf32 products split in two
    # A as a row tile of Aᵀ, turned by transpose(): a layout that crosses lanes (shared memory)
    tr = form == "ab" and not staged and r.random() < 0.3
    if ta:   # a transposed A is read whole per block: one warp
        W = 1
    ebytes = 4 if T == "f32" else 2
    staged_bytes = (BM * W * BK + BK * BN) * ebytes if staged else 0
    rows = f"block.y * {W} + warp.id" if W > 1 else "block.y"
    row0 = f"(block.y * {W} + warp.id) * {BM}" if W > 1 else f"block.y * {BM}"
    vstore = r.random() < 0.3
    # the result goes through a shared tile: stored by each warp, read back by
    # another (W > 1) or by itself as a col tile, whose elements sit in other lanes
    # a block's shared memory also holds each warp's scratch for the transposed A (seed 674023)
    scratch_bytes = W * BM * BK * ebytes if tr else 0
    restage = r.random() < 0.3 and staged_bytes + scratch_bytes + BM * W * BN * 4 <= 49152
    params = (f"gl<{T}, {'K, M' if ta or tr else 'M, K'}> A, gl<{T}, {'N, K' if tb else 'K, N'}> B, gl<f32, M, N> C, f32 s")
    if second:
        params += f", gl<{T}, N, D> V, gl<f32, M, D> O"
    if vstore:
        params += ", gl<f32, X, M> R"
    src = [f"// gpu_rpg seed {seed}: warps {W}, tile {BM}x{BN}, K step {BK}, mma_{form}, "
           f"{'shared' if staged else 'direct'}{', A transposed' if tr else ''}, {T} operands, "
           f"steps {[m[0] for m in chain]}{', second product' if second else ''}"
           f"{', row sums stored' if vstore else ''}{', restaged through shared memory' if restage else ''}",
           f"kernel g{seed}({params})",
           f"    grid(cdiv(N, {BN}), cdiv(M, {BM * W})) warps({W})",
           "{"]
    a_tile = f"rt<{T}, {BK}, {BM}, col>" if ta else f"rt<{T}, {BK}, {BM}>" if tr else f"rt<{T}, {BM}, {BK}>"
    b_tile = f"rt<{T}, {BN}, {BK}>" if tb else f"rt<{T}, {BK}, {BN}, col>"
    if staged:
        src += [f"    st<{T}, {BK}, {BM * W}> As;" if ta else f"    st<{T}, {BM * W}, {BK}> As;",
                f"    st<{T}, {BN}, {BK}> Bs;" if tb else f"    st<{T}, {BK}, {BN}> Bs;"]
    if restage:
        src += [f"    st<f32, {BM * W}, {BN}> Cs;"]
    src += [f"    rt<f32, {BM}, {BN}> acc = zeros();", f"    for (k in 0 .. cdiv(K, {BK})) {{"]
    if staged:   # a load of a whole shared tile may leave out its coordinates
        whole = r.random() < 0.5
        a_src = "As" if W == 1 and whole else f"As, {'warp.id' if W > 1 else '0'}, 0"
        if ta:
            a_src = "As" if whole else "As, 0, 0"
        b_src = "Bs" if whole else "Bs, 0, 0"
        src += ["        As = load(A, k, block.y);" if ta else "        As = load(A, block.y, k);",
                "        Bs = load(B, block.x, k);" if tb else "        Bs = load(B, k, block.x);", "        sync();",
                f"        {a_tile} a = load({a_src});",
                f"        {b_tile} b = load({b_src});"]
    else:
        src += [f"        {a_tile} a = load(A, {'k, block.y' if ta else 'k, ' + rows if tr else rows + ', k'});",
                f"        {b_tile} b = load(B, {'block.x, k' if tb else 'k, block.x'});"]
    src += [f"        mma_{form}(acc, {'transpose(a)' if tr else 'a'}, b);"]
    if staged:
        src += ["        sync();"]
    src += ["    }"]
    x = "acc"
    for i, (name, f) in enumerate(chain):
        if any(name == m[0] for m in MAPS):
            src += [f"    let e{i} = {f(x)};"]
        else:
            src += [line.replace("{ROW0}", row0) for line in f(x, i)]
        x = f"e{i}"
    if restage:
        other = f"{W - 1} - warp.id" if W > 1 else "0"
        src += [f"    store(Cs, {x}, {'warp.id' if W > 1 else '0'}, 0);", "    sync();",
                f"    rt<f32, {BM}, {BN}{'' if W > 1 else ', col'}> y = load(Cs, {other}, 0);",
                f"    store(C, y, {'block.y * ' + str(W) + ' + ' + other if W > 1 else 'block.y'}, block.x);"]
    else:
        src += [f"    store(C, {x}, {rows}, block.x);"]
    if vstore:   # each block column writes its own row of R: the lanes that hold a row write it once
        src += [f"    store(R, row_sum({x}), block.x, {rows});"]
    if second:   # one block column (N ≤ BN): every block owns whole rows of O
        src += [f"    rt<{T}, {BM}, {BN}> p = convert<{T}>({x});",
                f"    rt<{T}, {BN}, {BD}, col> v = load(V, 0, 0);",
                f"    rt<f32, {BM}, {BD}> o = zeros();",
                "    mma_ab(o, p, v);",
                f"    store(O, o, {rows}, 0);"]
    src += ["}"]
    M = r.randint(1, 3 * BM * W)
    N = r.randint(1, BN) if second else r.randint(1, 2 * BN + 7)
    K = r.randint(1, 3 * BK)
    if r.random() < 0.5:   # rows of whole 16-byte chunks: staged tiles go by cp.async or the TMA, not element by element
        K, N = -(-K // 8) * 8, min(-(-N // 8) * 8, BN) if second else -(-N // 8) * 8
    sizes = f"M={M},K={K},N={N}" + (f",D={r.randint(1, BD)}" if second else "")
    if vstore:
        sizes += f",X={-(-N // BN)}"
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
    work = o.keep or tempfile.mkdtemp(prefix="gpu_rpg_")
    os.makedirs(work, exist_ok=True)
    try:
        return run_all(o, work)
    finally:
        if not o.keep:
            shutil.rmtree(work, ignore_errors=True)


def run_all(o, work):
    failures = 0
    for seed in range(o.first, o.first + o.count):
        name, src, sizes, s = program(seed)
        path = os.path.join(work, f"{name}.tk")
        with open(path, "w") as f:
            f.write(src)
        target = "sm_90a-emu" if seed % 2 else "sm_80-emu"
        cmd = [o.tkc, "run", path, f"--target={target}", "--size", sizes, "--set", f"s={s}", "--check", "--repeat", "1"]
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
