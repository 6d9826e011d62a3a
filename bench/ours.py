"""ours.py — running TileKit's own kernels (stdlib-kernels/*.tk) for a case.

Each case maps to one or more of our kernels (the plain gemm, the pre-packed
one, the small-M one, ...). We do not hard-code their size-variable names:
the kernel's signature is read from the .tk file, and the case's sizes are bound
to it by the position of each tensor parameter (A[M,K] B[K,N] C[M,N] for a
gemm, and so on). A dimension that is a `const` in the file must equal the
case's size, otherwise the kernel does not fit the case and we say so.

A kernel is timed by `tkc run FILE --kernel K --size ... --threads N --repeat R
--warmup W --times --json [--cold]`: it JIT-compiles (cached on disk after the first
time), fills the tensors (every page touched), runs once untimed plus W warm-up
launches, then R timed launches.
"""

import json
import math
import os
import re
import subprocess

_SIG_CACHE = {}


def _split_top(text):
    """Splits a list on commas outside <...> and (...)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def read_tk(path):
    """{"consts": {NAME: int}, "kernels": {NAME: [param, ...]}} for a .tk file, where a
    param is {"name", "kind": "gl"|"scalar", "elem", "dims": [str]}; None if the file
    does not exist."""
    if path in _SIG_CACHE:
        return _SIG_CACHE[path]
    if not os.path.exists(path):
        return None
    src = open(path, encoding="utf-8").read()
    src_nocomment = re.sub(r"//[^\n]*", "", src)
    consts = {m.group(1): int(m.group(2)) for m in re.finditer(r"\bconst\s+(\w+)\s*=\s*(\d+)\s*;", src_nocomment)}
    kernels = {}
    for m in re.finditer(r"\bkernel\s+(\w+)\s*(?:<[^>]*>)?\s*\(", src_nocomment):   # generic kernels too
        i, depth = m.end(), 1
        while i < len(src_nocomment) and depth:
            depth += {"(": 1, ")": -1}.get(src_nocomment[i], 0)
            i += 1
        params = []
        for p in _split_top(src_nocomment[m.end():i - 1]):
            g = re.match(r"gl\s*<\s*(.*?)\s*>\s*(\w+)$", p, re.S)
            if g:
                fields = _split_top(g.group(1))
                dims = [d for d in fields[1:] if d not in ("row", "col", "packed")]
                params.append({"name": g.group(2), "kind": "gl", "elem": fields[0], "dims": dims})
            else:
                words = p.split()
                params.append({"name": words[-1], "kind": "scalar", "elem": words[0], "dims": []})
        kernels[m.group(1)] = params
    info = {"consts": consts, "kernels": kernels}
    _SIG_CACHE[path] = info
    return info


def base_name(kernel):
    """The kernel of an instance name: 'conv2d_1x1_nhwc_f32<64,256,64>' → 'conv2d_1x1_nhwc_f32'."""
    return kernel.split("<", 1)[0].strip()


def bind_sizes(info, kernel, tensors):
    """Binds a case's sizes to a kernel's size variables. `tensors` lists, for each
    tensor parameter in order, its dimensions' values. Returns (sizes dict, None)
    or (None, why it does not fit)."""
    params = [p for p in info["kernels"][base_name(kernel)] if p["kind"] == "gl"]
    if len(params) != len(tensors):
        return None, f"{kernel} has {len(params)} tensor parameters, the harness expects {len(tensors)}"
    sizes, deferred = {}, []
    for p, want in zip(params, tensors):
        if len(p["dims"]) != len(want):
            return None, f"{kernel}: {p['name']} has rank {len(p['dims'])}, the harness expects {len(want)}"
        for dim, value in zip(p["dims"], want):
            if re.fullmatch(r"\d+", dim):
                fixed = int(dim)
            elif dim in info["consts"]:
                fixed = info["consts"][dim]
            elif re.fullmatch(r"[A-Za-z_]\w*", dim):
                if sizes.get(dim, value) != value:
                    return None, f"{kernel}: size {dim} would be both {sizes[dim]} and {value}"
                sizes[dim] = value
                continue
            else:   # an expression of sizes (e.g. B * H): checked once every name is bound
                deferred.append((p["name"], dim, value))
                continue
            if fixed != value:
                return None, f"{kernel}: {p['name']} has a fixed dimension {dim} = {fixed}, the case needs {value}"
    for name, expr, value in deferred:
        got = eval_dim(expr, dict(info["consts"], **sizes))
        if got != value:
            return None, f"{kernel}: {name} has a dimension {expr} = {got}, the case needs {value}"
    return sizes, None


def eval_dim(expr, names):
    """Value of a dimension expression over sizes and constants (+ - * / and
    cdiv, integers; / is integer division as in .tk), or None if it has anything else."""
    tokens = re.findall(r"\d+|[A-Za-z_]\w*|[-+*/(),]|\S", expr)
    out = []
    for t in tokens:
        if t.isdigit() or t in "+-*(),":
            out.append(t)
        elif t == "/":
            out.append("//")
        elif t == "cdiv":
            out.append("_cdiv")
        elif t in names:
            out.append(str(names[t]))
        else:
            return None
    try:
        return eval(" ".join(out), {"__builtins__": {}, "_cdiv": cdiv})   # only digits, operators and cdiv remain
    except (SyntaxError, ZeroDivisionError, TypeError, NameError):
        return None


def scalars_of(info, kernel):
    return {p["name"]: p["elem"] for p in info["kernels"][base_name(kernel)] if p["kind"] == "scalar"}


def cdiv(a, b):
    return -(-a // b)


# --- which of our kernels serve a case ----------------------------------------

def variants(case, root):
    """Our implementations of a case: a list of dicts {name, file, kernel, tensors,
    sets, note} — or {name, missing: why} when the kernel file or name is not
    there (yet), so the report can say so instead of silently dropping it."""
    fam, dt, s = case["family"], case["dtype"], case["shape"]
    out = []
    if fam == "gemm":
        f = os.path.join(root, "stdlib-kernels", "gemm.tk")
        m, n, k = s["M"], s["N"], s["K"]
        out.append({"name": f"gemm_{dt}", "file": f, "kernel": f"gemm_{dt}", "tensors": [[m, k], [k, n], [m, n]], "sets": {}})
        # pre-packed weights (P[NB, KT, KC, BN], gemm.tk's header): packing is done once
        # ahead of time and not timed; P's contents do not change the speed.
        info = read_tk(f)
        bn = (info or {}).get("consts", {}).get("BN", 256)
        kc = (info or {}).get("consts", {}).get("KC", 128)
        out.append({"name": f"gemm_{dt}_packed", "file": f, "kernel": f"gemm_{dt}_packed",
                    "tensors": [[m, k], [cdiv(n, bn), cdiv(k, kc), kc, bn], [m, n]], "sets": {},
                    "note": "weights pre-packed (packing not timed)"})
        if m <= 32:
            out.append({"name": f"gemv_{dt}", "file": f, "kernel": f"gemv_{dt}", "tensors": [[m, k], [k, n], [m, n]], "sets": {}})
        # 32-row tiles over the packed weights: for 16 < M <= 64, and where one row of
        # 256-wide tiles has fewer blocks than threads (256³ on 2 threads is one block)
        if 16 < m <= 64 or (m <= 256 and cdiv(n, bn) < case["threads"]):
            out.append({"name": f"gemm_{dt}_packed_m32", "file": f, "kernel": f"gemm_{dt}_packed_m32",
                        "tensors": [[m, k], [cdiv(n, bn), cdiv(k, kc), kc, bn], [m, n]], "sets": {},
                        "note": "weights pre-packed (packing not timed)"})
        if max(m, n, k) <= 256:   # one small product: 64- and 32-wide tiles
            bs = (info or {}).get("consts", {}).get("BSMALL", 64)
            out.append({"name": f"gemm_{dt}_small", "file": f, "kernel": f"gemm_{dt}_small", "tensors": [[m, k], [k, n], [m, n]], "sets": {}})
            out.append({"name": f"gemm_{dt}_tiny", "file": f, "kernel": f"gemm_{dt}_tiny", "tensors": [[m, k], [k, n], [m, n]], "sets": {}})
            if dt == "bf16":   # libxsmm's bf16 kernels take B in pair layout too
                bt = (info or {}).get("consts", {}).get("BTINY", 32)
                for name, w in (("gemm_bf16_small_packed", bs), ("gemm_bf16_tiny_packed", bt)):
                    out.append({"name": name, "file": f, "kernel": name,
                                "tensors": [[m, k], [cdiv(n, w), cdiv(k, w), w, w], [m, n]], "sets": {},
                                "note": "weights pre-packed (packing not timed)"})
        if m <= 16:   # decode: 16-row tiles over the packed weights, which are read in place
            out.append({"name": f"gemv_{dt}_packed", "file": f, "kernel": f"gemv_{dt}_packed",
                        "tensors": [[m, k], [cdiv(n, bn), cdiv(k, kc), kc, bn], [m, n]], "sets": {},
                        "note": "weights pre-packed (packing not timed)"})
    elif fam == "attention":
        f = os.path.join(root, "stdlib-kernels", "attention.tk")
        b, h, sq, skv, d = s["B"], s["H"], s["S"], s["SKV"], s["D"]
        qkv = [b, h, sq, d]
        if s.get("decode"):
            # attention.tk's decode contract: NS = 1 key chunk per (b, h) makes the
            # kernel write O itself in one launch (no combine pass); B·H = 8 blocks
            # still give each of 2 threads several
            kname = f"attention_decode_{dt}_d{d}"
            out.append({"name": kname, "file": os.path.join(root, "stdlib-kernels", "attention_decode.tk"), "kernel": kname,
                        "tensors": [qkv, [b, h, skv, d], [b, h, skv, d], qkv, [b * h, 1, d], [b * h, 1, 2]],
                        "sets": {"scale": 1.0 / math.sqrt(d)}, "note": "NS = 1: one launch"})
        else:
            # the mask is not read (use_mask=false): the smallest tensor the contract allows
            sets = {"scale": 1.0 / math.sqrt(d), "causal": "true" if s["causal"] else "false", "use_mask": "false"}
            out.append({"name": f"attention_{dt}_d{d}", "file": f, "kernel": f"attention_{dt}_d{d}",
                        "tensors": [qkv, [b, h, skv, d], [b, h, skv, d], [1, 1, 1, 1], qkv], "sets": sets})
            if dt == "bf16":   # over a packed KV cache; packing K and V is part of the call here
                nkb = cdiv(skv, 128)
                kp, vp = [b * h, nkb, d, 128], [b * h, nkb * 128, d]
                out.append({"name": f"attention_{dt}_d{d}_kvp", "file": f, "kernel": f"attention_{dt}_d{d}_kvp",
                            "tensors": [qkv, kp, vp, [1, 1, 1, 1], qkv], "sets": dict(sets, SKV=skv),
                            "note": "K, V packed by pack_kv in the same timed call (two launches, times added)",
                            "also": {"kernel": f"pack_kv_{dt}_d{d}", "file": f,
                                    "tensors": [[b, h, skv, d], [b, h, skv, d], kp, vp], "sets": {}}})
    elif fam == "ffn":
        f = os.path.join(root, "stdlib-kernels", "ffn.tk")
        t, d, ff = s["T"], s["D"], s["F"]
        if s["act"] == "swiglu":
            tensors = [[t, d], [d, ff], [d, ff], [ff, d], [t, d]]
        else:
            tensors = [[t, d], [d, ff], [ff], [ff, d], [d], [t, d]]
        out.append({"name": f"ffn_{s['act']}_{dt}", "file": f, "kernel": f"ffn_{s['act']}_{dt}", "tensors": tensors, "sets": {}})
        # weights packed once (gemm.tk's pack_b_bf16 / pack_b_f32: [column blocks, K planes, 256, 256]), not timed
        fp = os.path.join(root, "stdlib-kernels", "ffn_packed.tk")
        w1 = [cdiv(ff, 256), cdiv(d, 256), 256, 256]
        w2 = [cdiv(d, 256), cdiv(ff, 256), 256, 256]
        weights = [w1, w1, w2] if s["act"] == "swiglu" else [w1, [ff], w2]   # the first four tensors, after X
        tail = [[t, d]] if s["act"] == "swiglu" else [[d], [t, d]]
        out.append({"name": f"ffn_{s['act']}_{dt}_packed", "file": fp, "kernel": f"ffn_{s['act']}_{dt}_packed",
                    "tensors": [[t, d]] + weights + tail, "sets": {}, "note": "weights pre-packed (packing not timed)"})
        if t <= 16:   # decode: F split over S = F/256 blocks (_part), then the S partial sums added
            parts = cdiv(ff, 256)
            p = [parts, t, d]
            if s["act"] == "swiglu":
                total = {"kernel": f"ffn_partial_sum_{dt}", "file": f, "tensors": [p, [t, d]], "sets": {}}
            else:
                total = {"kernel": f"ffn_partial_sum_bias_{dt}", "file": f, "tensors": [p, [d], [t, d]], "sets": {}}
            note = f"F split over {parts} blocks, partial sums added by a second launch (times added)"
            out.append({"name": f"ffn_{s['act']}_{dt}_part", "file": f, "kernel": f"ffn_{s['act']}_{dt}_part",
                        "tensors": tensors[:4] + [p], "sets": {}, "note": note, "also": total})
            out.append({"name": f"ffn_{s['act']}_{dt}_packed_part", "file": fp, "kernel": f"ffn_{s['act']}_{dt}_packed_part",
                        "tensors": [[t, d]] + weights + [p], "sets": {}, "note": note + "; weights pre-packed", "also": total})
    elif fam == "conv":
        # conv2d.tk: X[N, H, W, C], Wt[KH, KW, C, OC], bias[OC] f32, Y[N, OH, OW, OC]
        f = os.path.join(root, "stdlib-kernels", "conv2d.tk")
        n, h, w, c, oc = s["N"], s["H"], s["W"], s["C"], s["OC"]
        kh, kw, oh, ow = s["KH"], s["KW"], s["OH"], s["OW"]
        sets = {"stride": s["stride"], "pad": s["pad"], "use_relu": "false", "use_clamp": "false"}
        dense = f"conv2d_nhwc_{dt}<{dense_config(n * oh * ow, oc, case['threads'])}>"
        out.append({"name": f"conv2d_nhwc_{dt}", "file": f, "kernel": dense,
                    "tensors": [[n, h, w, c], [kh, kw, c, oc], [oc], [n, oh, ow, oc]], "sets": sets})
        if kw * c <= 32:   # few channels (the RGB stem): X read as image rows [N, H, W·C], Wt as [KH·KW·C, OC]
            out.append({"name": f"conv2d_stem_nhwc_{dt}", "file": f, "kernel": f"conv2d_stem_nhwc_{dt}<{stem_config(kh, kw, c, oc)}>",
                        "tensors": [[n, h, w * c], [kh * kw * c, oc], [oc], [n, oh, ow, oc]],
                        "sets": dict(sets, channels=c, kernel_h=kh), "note": "X viewed as [N, H, W·C], Wt as [KH·KW·C, OC]"})
        if kh == kw == 1 and s["stride"] == 1 and s["pad"] == 0:
            # a 1×1 stride-1 conv over NHWC is the gemm Y[P, OC] = X[P, C]·W[C, OC] (P = N·H·W):
            # the same memory viewed as matrices
            p = n * h * w
            out.append({"name": f"conv2d_1x1_nhwc_{dt}", "file": f, "kernel": f"conv2d_1x1_nhwc_{dt}<{conv1x1_config(p, c, oc, case['threads'], dt)}>",
                        "tensors": [[p, c], [c, oc], [oc], [p, oc]], "sets": {"use_relu": "false", "use_clamp": "false"},
                        "note": "X, Wt, Y viewed as [N·H·W, C], [C, OC], [N·H·W, OC]"})
    elif fam == "memory":
        # softmax.tk / layernorm.tk / rmsnorm.tk: X[R, C], then γ (and β) [C], then Y[R, C]
        # bench/kernels/transpose.tk: Y[C, R]; bench/kernels/colsum.tk: Y[C]
        fn = s["fn"]
        if fn == "conv2d_dw":   # X[N, H, W, C], Wd[KH, KW, C], bias[C] f32, Y[N, OH, OW, C]; OH = H, OW = W
            n, h, w, c, kh, kw = s["N"], s["H"], s["W"], s["C"], s["KH"], s["KW"]
            oh, ow = (h + 2 * s["pad"] - kh) // s["stride"] + 1, (w + 2 * s["pad"] - kw) // s["stride"] + 1
            out.append({"name": f"conv2d_dw_nhwc_{dt}", "file": os.path.join(root, "stdlib-kernels", "conv2d.tk"),
                        "kernel": f"conv2d_dw_nhwc_{dt}<{dw_channel_block(c)}>",
                        "tensors": [[n, h, w, c], [kh, kw, c], [c], [n, oh, ow, c]],
                        "sets": {"stride": s["stride"], "pad": s["pad"], "use_relu": "false", "use_clamp": "false"}})
        elif fn in ("transpose", "colsum"):
            r, c = s["R"], s["C"]
            out.append({"name": f"{fn}_{dt}", "file": os.path.join(root, "bench", "kernels", f"{fn}.tk"), "kernel": f"{fn}_{dt}",
                        "tensors": [[r, c], [c, r] if fn == "transpose" else [c]], "sets": {}})
        else:
            r, c = s["R"], s["C"]
            vectors = {"softmax": 0, "layernorm": 2, "rmsnorm": 1}[fn]
            out.append({"name": f"{fn}_{dt}", "file": os.path.join(root, "stdlib-kernels", f"{fn}.tk"), "kernel": f"{fn}_{dt}",
                        "tensors": [[r, c]] + [[c]] * vectors + [[r, c]], "sets": {"eps": 1e-5}})
    resolved = []
    for v in out:
        r = _resolve(v, root)
        if "missing" not in r and v.get("also"):   # a second kernel launched with it, timed with it
            also = _resolve(dict(v["also"], name=v["name"]), root)
            r = also if "missing" in also else dict(r, also=also)
        resolved.append(r)
    return resolved


def dw_channel_block(c):
    """Channels per block of conv2d_dw_nhwc_*<CB>, as runtime/ops/conv.c picks them:
    one that divides C (no masked channel loads), else 16."""
    for cb in (64, 48, 32, 16):
        if c % cb == 0:
            return cb
    return 16


def conv1x1_config(p, c, oc, threads, dt="f32"):
    """The tile configuration TM,TN,KC1 of conv2d_1x1_nhwc_* for a layer, as the
    runtime picks it (conv.c conv1x1_config): the channel depth in the fewest K steps
    of at most 256, each rounded up to 16 (C = 320: two of 160); the output channels
    in the fewest blocks of at most 256, each rounded up to 32 (OC = 320: two of 160;
    16 for OC <= 16). f32 rows: the accumulator within 16 KiB (64 rows for TN = 64,
    32 for wider, 128 for TN <= 32), 32 for one K step of at most 32 channels, 64 for
    at most 64 pixels; bf16 rows: the one of 128, 112, 64, 32 that pads P least.
    Halved while a thread would have under two blocks."""
    steps = cdiv(c, 256)
    kc = cdiv(cdiv(c, steps), 16) * 16
    blocks = cdiv(oc, 256)
    tn = 16 if oc <= 16 else cdiv(cdiv(oc, blocks), 32) * 32
    if dt == "f32":
        tm = 128
        while tm > 32 and tm * tn > 4096:
            tm //= 2
        if kc <= 32:
            tm = 32
        if p <= 64:
            tm = 64
    else:
        tm = min((128, 112, 64, 32), key=lambda m: (cdiv(p, m) * m, -m))
    while tm > 32 and cdiv(p, tm) * cdiv(oc, tn) < 2 * threads:
        tm //= 2
    return f"{tm},{tn},{kc}"


def dense_config(p, oc, threads):
    """PM,PN of conv2d_nhwc_f32 (the implicit gemm) for P output pixels and OC
    channels: the pixel block of 128, 112 or 64 that pads P the least (112 divides
    the 56², 28² and 14² maps: 28, 7 and 2 blocks; 7² = 49 pixels fit 64), and 128
    channels per block where OC allows (each gathered A tile then feeds twice the
    multiply-adds), 256 for a one-block map of OC ≥ 512 — as long as every thread
    still gets a block."""
    pm = min((128, 112, 64), key=lambda m: (cdiv(p, m) * m, -m))
    pn = 256 if p <= 64 and oc >= 512 else 128 if oc >= 128 else 64
    while pn > 64 and cdiv(p, pm) * cdiv(oc, pn) < threads:
        pn //= 2
    return f"{pm},{pn}"


def stem_config(kh, kw, c, oc):
    """KWC,KHN,KT,SN,SM of conv2d_stem_nhwc_* (conv2d.tk): the layer's window exactly
    (its packed path), K = KH·KW·C rounded up to 16, 32 output channels per block
    when OC ≤ 32 else 64, 128 output pixels per block."""
    return f"{kw * c},{kh},{cdiv(kh * kw * c, 16) * 16},{32 if oc <= 32 else 64},128"


def _resolve(v, root):
    """Binds variant v's sizes and scalars to its kernel's signature, or says why not."""
    info = read_tk(v["file"])
    rel = os.path.relpath(v["file"], root)
    if info is None:
        return {"name": v["name"], "missing": f"{rel} does not exist yet"}
    if base_name(v["kernel"]) not in info["kernels"]:
        return {"name": v["name"], "missing": f"{rel} has no kernel {v['kernel']} yet"}
    sizes, why = bind_sizes(info, v["kernel"], v["tensors"])
    if sizes is None:
        return {"name": v["name"], "missing": why}
    known = scalars_of(info, v["kernel"])
    sets = {k2: val for k2, val in v["sets"].items() if k2 in known}
    return dict(v, sizes=sizes, sets=sets)


def run(tkc, variant, threads, reps, warmup, env, timeout=600, cold=False):
    """Runs one of our kernels; returns {"ok", "times_ms", "impl", "error", "info"}. A
    variant with an "also" kernel (attention's K/V pack before it, the FFN
    decode parts' partial sum after it) runs both, and its times are the sums
    of the two runs' times in rank order (so the median is close to the sum of
    the medians). `cold`: caches evicted before every timed launch."""
    r = _run_one(tkc, variant, threads, reps, warmup, env, timeout, cold)
    if not r["ok"] or not variant.get("also"):
        return r
    p = _run_one(tkc, variant["also"], threads, reps, warmup, env, timeout, cold)
    if not p["ok"]:
        return dict(p, error=f"{variant['also']['kernel']}: {p['error']}")
    times = [a + b for a, b in zip(sorted(r["times_ms"]), sorted(p["times_ms"]))]
    info = dict(r["info"], also_command=p["info"]["command"], also_median_ms=sorted(p["times_ms"])[len(p["times_ms"]) // 2])
    return dict(r, times_ms=times, info=info)


def verify(tkc, variant, files, threads, env, atol, rtol, workdir, timeout=600):
    """Checks one of our kernels against a peer's answer: `files` are .npy files of
    every tensor parameter in order (the peer's inputs, then its output last), in the
    case's own shapes; a variant that views them in other shapes (the 1×1 conv as a
    gemm) gets copies reshaped to its tensors. Runs `tkc run --input ... --expect
    OUT=...` once; returns (True, detail) or (False, why)."""
    import numpy as np   # Debian's python3-numpy; only the check needs it
    params = [p for p in read_tk(variant["file"])["kernels"][base_name(variant["kernel"])] if p["kind"] == "gl"]
    os.makedirs(workdir, exist_ok=True)
    args = []
    for i, (p, path, shape) in enumerate(zip(params, files, variant["tensors"])):
        a = np.load(path)
        if list(a.shape) != list(shape):
            path = os.path.join(workdir, f"{variant['name']}_{p['name']}.npy")
            np.save(path, a.reshape(shape))
        args += ["--expect" if i == len(params) - 1 else "--input", f"{p['name']}={path}"]
    cmd = [tkc, "run", variant["file"], "--kernel", variant["kernel"],
           "--size", ",".join(f"{k}={v}" for k, v in variant["sizes"].items()),
           "--threads", str(threads), "--repeat", "1", "--warmup", "0", "--json",
           "--atol", str(atol), "--rtol", str(rtol)] + args
    for k, v in variant["sets"].items():
        cmd += ["--set", f"{k}={v}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"check timed out after {timeout} s"
    try:
        j = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return False, f"check failed to run (exit {p.returncode}): {err}"
    detail = f"max abs err {j.get('max_abs_err')}, max rel err {j.get('max_rel_err')} (atol {atol:g}, rtol {rtol:g})"
    if j.get("correct") is not True:
        return False, f"wrong result against the peer: {detail}" + (f"; {j['error']}" if j.get("error") else "")
    return True, detail


def _run_one(tkc, variant, threads, reps, warmup, env, timeout, cold=False):
    cmd = [tkc, "run", variant["file"], "--kernel", variant["kernel"],
           "--size", ",".join(f"{k}={v}" for k, v in variant["sizes"].items()),
           "--threads", str(threads), "--repeat", str(reps), "--warmup", str(warmup), "--times", "--json"]
    if cold:
        cmd.append("--cold")
    for k, v in variant["sets"].items():
        cmd += ["--set", f"{k}={v}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"tkc run timed out after {timeout} s"}
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    try:
        j = json.loads(line)
    except ValueError:
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"ok": False, "error": f"tkc run failed (exit {p.returncode}): {err}"}
    if j.get("error"):
        return {"ok": False, "error": f"tkc run: {j['error']}"}
    return {"ok": True, "times_ms": j.get("times_ms") or [j["ms"]], "impl": f"TileKit {variant['kernel']}",
            "info": {"compile_ms": j.get("compile_ms"), "cache_hit": j.get("cache_hit"), "threads": j.get("threads"),
                     "command": " ".join(cmd)}}
