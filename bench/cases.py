"""cases.py — the benchmark cases: shapes, dtypes, thread counts, and the work
each one represents (FLOPs, minimum bytes moved), computed here from the shapes
so every implementation is judged by the same count.

A case is a plain dict:
  id        "gemm bf16 1024x1024x1024 t2" — unique, what --filter matches
  family    gemm | attention | ffn | memory | conv
  group     squares | proj | small | attention | ffn | memory | resnet50 | mobilenetv2 (the issues' shape groups)
  dtype     f32 | bf16
  threads   1 | 2 | ...
  shape     dict of the problem sizes (M, N, K / B, H, S, D, causal / T, D, F, act /
            fn, R, C for the memory-bound row-wise ops)
  flops     FLOPs counted from the math (below)
  bytes     the minimum traffic: every input read once, every output written once
  cold      True for the memory-bound single-token cases (M = 1 projections,
            attention decode, FFN with T = 1): the caches are evicted before
            every timed call, as in a real model, whose weights and KV cache
            come from DRAM at every step (a 32 MB matrix would otherwise stay
            in the 32 MB L3 between back-to-back calls and flatter whoever
            reads it twice). The id ends in "cold".
"""

# --- the shapes of issue 4 ----------------------------------------------------

SQUARES = [256, 512, 1024, 2048, 4096]
PROJ_M = [1, 32, 512]
PROJ_NK = [(4096, 4096), (11008, 4096), (8192, 8192)]
SMALL = [32, 64]
ATTN_S = [512, 2048]
ATTN_D = [64, 128]
ATTN_H = 8
DECODE_SKV = [2048, 8192]   # not in the list: the decode kernel's own case
FFN_D = [1024, 4096]
FFN_T = [1, 512]

DTYPE_BYTES = {"f32": 4, "bf16": 2}

# issue 25: the memory-bound row-wise ops (fn, dtype, rows, columns), judged by
# bandwidth against the measured copy roofline, not by FLOPs
MEMORY = [("softmax", "f32", 4096, 1000), ("softmax", "f32", 8192, 768), ("softmax", "bf16", 8192, 768),
          ("layernorm", "f32", 8192, 768), ("layernorm", "bf16", 8192, 768),
          ("rmsnorm", "f32", 8192, 768), ("rmsnorm", "bf16", 8192, 768),
          # bench/kernels/: a pure read + write stream, and a read-only one reducing across rows
          ("transpose", "f32", 8192, 768), ("colsum", "f32", 8192, 768)]
# per element: FLOPs counted from the math (softmax: max, subtract, exp, sum,
# multiply; layernorm: sum, centre, square, sum, scale, γ, β; rmsnorm: square,
# sum, scale, γ). Reported as GFLOP/s only; the roofline of these is bandwidth.
MEMORY_FLOPS_PER_ELEMENT = {"softmax": 5, "layernorm": 7, "rmsnorm": 4, "transpose": 0, "colsum": 1}
# the 1-D parameters besides X and Y: γ (and β), f32 in our kernels
MEMORY_VECTORS = {"softmax": 0, "layernorm": 2, "rmsnorm": 1, "transpose": 0, "colsum": 0}


def ffn_hidden(d, act):
    """Hidden width of the FFN: 4·d for GELU (GPT-style); for SwiGLU the LLaMA rule
    8/3·d rounded up to a multiple of 256 (d = 4096 → 11008, d = 1024 → 2816)."""
    if act == "gelu":
        return 4 * d
    return -(-((8 * d) // 3) // 256) * 256


def _cold_id(text, cold):
    return text + " cold" if cold else text


def gemm_case(group, dtype, m, n, k, threads):
    e = DTYPE_BYTES[dtype]
    cold = m == 1
    return {
        "id": _cold_id(f"gemm {dtype} {m}x{n}x{k} t{threads}", cold),
        "family": "gemm", "group": group, "dtype": dtype, "threads": threads, "cold": cold,
        "shape": {"M": m, "N": n, "K": k},
        "flops": 2.0 * m * n * k,
        "bytes": float(e * (m * k + k * n) + 4 * m * n),   # C is f32 for every implementation we time
    }


def attention_case(dtype, s, d, causal, threads, b=1, h=ATTN_H):
    e = DTYPE_BYTES[dtype]
    flops = 4.0 * b * h * s * s * d   # Q·Kᵀ and P·V, 2 FLOPs per multiply-add each
    if causal:
        flops /= 2
    return {
        "id": f"attention {dtype} B{b} H{h} S{s} D{d} {'causal' if causal else 'full'} t{threads}",
        "family": "attention", "group": "attention", "dtype": dtype, "threads": threads, "cold": False,
        "shape": {"B": b, "H": h, "S": s, "SKV": s, "D": d, "causal": causal, "decode": False},
        "flops": flops,
        "bytes": float(e * 4 * b * h * s * d),   # Q, K, V read, O written
    }


def decode_case(dtype, skv, d, threads, b=1, h=ATTN_H):
    """One new query row against a long KV cache (generation): memory-bound on K and V."""
    e = DTYPE_BYTES[dtype]
    return {
        "id": f"attention decode {dtype} B{b} H{h} SKV{skv} D{d} t{threads} cold",
        "family": "attention", "group": "decode", "dtype": dtype, "threads": threads, "cold": True,
        "shape": {"B": b, "H": h, "S": 1, "SKV": skv, "D": d, "causal": False, "decode": True},
        "flops": 4.0 * b * h * skv * d,
        "bytes": float(e * b * h * (2 * skv * d + 2 * d)),   # K, V read; q read, o written
    }


def ffn_case(dtype, t, d, act, threads):
    e = DTYPE_BYTES[dtype]
    f = ffn_hidden(d, act)
    matrices = 3 if act == "swiglu" else 2
    return {
        "id": _cold_id(f"ffn {act} {dtype} T{t} D{d} F{f} t{threads}", t == 1),
        "family": "ffn", "group": "ffn", "dtype": dtype, "threads": threads, "cold": t == 1,
        "shape": {"T": t, "D": d, "F": f, "act": act},
        "flops": 2.0 * t * d * f * matrices,
        "bytes": float(e * (matrices * d * f + 2 * t * d)),   # weights once, X read, Y written
    }


def memory_case(fn, dtype, r, c, threads):
    """A row-wise op over X[r, c] into Y[r, c] (transpose: Y[c, r]; colsum: Y[c]):
    bytes = X read once, Y written once, γ/β (f32, c each) read once."""
    e = DTYPE_BYTES[dtype]
    out_elems = c if fn == "colsum" else r * c
    return {
        "id": f"{fn} {dtype} {r}x{c} t{threads}",
        "family": "memory", "group": "memory", "dtype": dtype, "threads": threads, "cold": False,
        "shape": {"fn": fn, "R": r, "C": c},
        "flops": float(MEMORY_FLOPS_PER_ELEMENT[fn] * r * c),
        "bytes": float(e * (r * c + out_elems) + 4 * MEMORY_VECTORS[fn] * c),
    }


# depthwise 3×3 convolution (stdlib-kernels/conv2d.tk, conv2d_dw_nhwc_*), stride 1,
# pad 1, NHWC: MobileNet's first depthwise layer at batch 8 (X and Y 12 MiB each in f32)
DWCONV = [("f32", 8, 112, 112, 32), ("bf16", 8, 112, 112, 32)]


def dwconv_case(dtype, n, h, w, c, threads, k=3):
    """Depthwise k×k convolution, stride 1, pad k//2 (OH = H, OW = W): each output
    reads a k×k window of its own channel, so the traffic is X read once, Y
    written once (plus the k·k·C weights and the f32 bias), FLOPs 2·k²·N·H·W·C."""
    e = DTYPE_BYTES[dtype]
    return {
        "id": f"conv2d_dw {dtype} {n}x{h}x{w}x{c} k{k} t{threads}",
        "family": "memory", "group": "memory", "dtype": dtype, "threads": threads, "cold": False,
        "shape": {"fn": "conv2d_dw", "N": n, "H": h, "W": w, "C": c, "KH": k, "KW": k, "stride": 1, "pad": k // 2},
        "flops": 2.0 * k * k * n * h * w * c,
        "bytes": float(e * (2 * n * h * w * c + k * k * c) + 4 * c),
    }


# issue 25: dense conv2d, batch 1, NHWC, the layer shapes of ResNet-50 and MobileNetV2:
# (group, name, H, W, C, OC, K (square kernel), stride, pad). OH = (H + 2·pad − K)/stride + 1.
CONV = [("resnet50", "stem", 224, 224, 3, 64, 7, 2, 3),
        ("resnet50", "3x3", 56, 56, 64, 64, 3, 1, 1),
        ("resnet50", "1x1", 56, 56, 64, 256, 1, 1, 0),
        ("resnet50", "3x3", 28, 28, 128, 128, 3, 1, 1),
        ("resnet50", "3x3s2", 56, 56, 128, 128, 3, 2, 1),   # layer2's first block (v1.5: the stride is on the 3×3)
        ("resnet50", "3x3", 14, 14, 256, 256, 3, 1, 1),
        ("resnet50", "3x3", 7, 7, 512, 512, 3, 1, 1),
        ("mobilenetv2", "stem", 224, 224, 3, 32, 3, 2, 1),
        ("mobilenetv2", "expand", 56, 56, 24, 144, 1, 1, 0),
        ("mobilenetv2", "project", 56, 56, 144, 24, 1, 1, 0),
        ("mobilenetv2", "1x1", 7, 7, 320, 1280, 1, 1, 0)]
# bf16 too: torch runs it on oneDNN's brg_conv_fwd:avx512_core_bf16 (vdpbf16ps) where the CPU
# has AVX512-BF16, a fair peer
CONV_DTYPES = ("f32", "bf16")


def conv_case(dtype, group, name, h, w, c, oc, k, stride, pad, threads, n=1):
    """A dense k×k convolution of NHWC X[n, h, w, c] by HWIO Wt[k, k, c, oc] (+ f32 bias)
    into Y[n, oh, ow, oc]: FLOPs 2·N·OH·OW·OC·K·K·C (the useful multiply-adds), bytes X,
    Wt and Y once plus the bias. Compute-bound except the thin 1×1 layers."""
    e = DTYPE_BYTES[dtype]
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    return {
        "id": f"conv2d {dtype} {group} {name} {h}x{w}x{c}->{oc} k{k}s{stride} t{threads}",
        "family": "conv", "group": group, "dtype": dtype, "threads": threads, "cold": False,
        "shape": {"fn": "conv2d", "N": n, "H": h, "W": w, "C": c, "OC": oc, "KH": k, "KW": k,
                  "OH": oh, "OW": ow, "stride": stride, "pad": pad},
        "flops": 2.0 * n * oh * ow * oc * k * k * c,
        "bytes": float(e * (n * h * w * c + k * k * c * oc + n * oh * ow * oc) + 4 * oc),
    }


def conv_cases(threads, dtypes=CONV_DTYPES):
    return [conv_case(dt, *row, t) for t in threads for dt in dtypes for row in CONV]


def all_cases(threads):
    """Every case of the full run, for the given thread counts."""
    cases = []
    for t in threads:
        for dtype in ("bf16", "f32"):
            for s in SQUARES:
                cases.append(gemm_case("squares", dtype, s, s, s, t))
            for m in PROJ_M:
                for n, k in PROJ_NK:
                    cases.append(gemm_case("proj", dtype, m, n, k, t))
        for dtype in ("bf16", "f32"):
            for s in ATTN_S:
                for d in ATTN_D:
                    for causal in (False, True):
                        cases.append(attention_case(dtype, s, d, causal, t))
        for skv in DECODE_SKV:
            cases.append(decode_case("bf16", skv, 128, t))
        for dtype in ("bf16", "f32"):
            for d in FFN_D:
                for tt in FFN_T:
                    for act in ("swiglu", "gelu"):
                        cases.append(ffn_case(dtype, tt, d, act, t))
        for fn, dtype, r, c in MEMORY:
            cases.append(memory_case(fn, dtype, r, c, t))
        for dtype, n, h, w, c in DWCONV:
            cases.append(dwconv_case(dtype, n, h, w, c, t))
        cases += conv_cases([t])
    # small products are one call on one thread (libxsmm's model): 1 thread only
    if 1 in threads:
        for dtype in ("bf16", "f32"):
            for s in SMALL:
                cases.append(gemm_case("small", dtype, s, s, s, 1))
    return cases


def quick_cases(threads):
    """A representative subset (one of each kind) that runs in well under a minute."""
    hi = max(threads)
    lo = min(threads)
    cases = [
        gemm_case("squares", "bf16", 1024, 1024, 1024, lo),
        gemm_case("squares", "f32", 1024, 1024, 1024, hi),
        gemm_case("proj", "bf16", 32, 4096, 4096, hi),
        gemm_case("proj", "bf16", 1, 4096, 4096, hi),
        attention_case("bf16", 512, 128, False, hi),
        attention_case("bf16", 512, 128, True, hi),
        ffn_case("bf16", 512, 1024, "swiglu", hi),
        memory_case("softmax", "f32", 8192, 768, hi),
        memory_case("rmsnorm", "bf16", 8192, 768, lo),
        conv_case("f32", *CONV[1], hi),
    ]
    if hi != lo:
        cases.insert(1, gemm_case("squares", "bf16", 1024, 1024, 1024, hi))
    if 1 in threads:
        cases.append(gemm_case("small", "bf16", 64, 64, 64, 1))
        cases.append(gemm_case("small", "f32", 32, 32, 32, 1))
    return cases
