"""torch_peer.py — PyTorch as a peer: matmul, attention, the FFN and the
memory-bound ops (softmax, layer_norm, rms_norm, a transpose, a column sum).

One process serves a whole run (importing torch takes seconds): it reads one
JSON request per line on stdin and answers one JSON line on stdout,
  {"op": "gemm", "dtype": "bf16", "M":..,"N":..,"K":.., "threads": 2, "reps": 5, "warmup": 2}
  {"op": "attention", "dtype":.., "B","H","S","SKV","D","causal", ...}
  {"op": "ffn", "dtype":.., "T","D","F","act": "swiglu"|"gelu", ...}
  {"op": "memory", "dtype":.., "fn": "softmax"|"layernorm"|"rmsnorm"|"transpose"|"colsum", "R","C", ...}
  {"op": "conv", "dtype":.., "N","H","W","C","OC","KH","KW","OH","OW","stride","pad", "variant": "-"|"nchw", ...}
  {"op": "conv", ..., "dump": DIR}: no timing; runs the convolution once and writes its
     inputs and output as float32 .npy in our layouts (X NHWC, Wt HWIO, bias, Y NHWC),
     so that our kernel can be checked against this peer's answer (bench.py)
  -> {"ok": true, "impl": "...", "times_ms": [...], "info": {...}}
The first line it prints (before any request) describes the torch it runs.

Best configuration (what bench.py and bench/README.md promise):
- torch.set_num_threads(n) for its OpenMP ops; when torch's BLAS is OpenBLAS
  (Debian's python3-torch: f32 matmul), OpenBLAS has its own pthread pool that
  torch's setting does not reach, so openblas_set_num_threads(n) is called on the
  loaded library through ctypes;
- OMP_WAIT_POLICY=PASSIVE in the environment (set by bench.py): otherwise two
  spinning pools fight over two cores;
- GLIBC_TUNABLES keeps freed memory mapped (bench.py), so a call's temporaries
  do not page-fault again on the next call;
- inference_mode, inputs created and touched once per case, outputs written
  into preallocated tensors where the op allows (matmul out=).
Dense conv2d: F.conv2d on channels_last (NHWC in memory, oneDNN underneath) by
default, or on plain NCHW tensors (variant "nchw"): the faster one is the peer to beat.
Attention: torch.nn.functional.scaled_dot_product_attention where it exists
(torch ≥ 2.0); torch 1.13 has none, so there it is the plain composition
softmax(Q·Kᵀ·scale [+ causal mask]) · V, and the impl name says which.
"""

import ctypes
import json
import math
import sys
import time

import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "bf16": torch.bfloat16}


def find_openblas():
    """The OpenBLAS torch loaded, if any (Debian's torch links it for f32 BLAS).
    numpy's wheel carries its own OpenBLAS with suffixed symbols
    (scipy_openblas64_): that one is not torch's and has no openblas_set_num_threads."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if len(line.split()) >= 6}
    except OSError:
        return None, None
    for path in sorted(paths):
        if "openblas" not in path or ".so" not in path or "numpy" in path:
            continue
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            lib.openblas_set_num_threads  # noqa: B018 — raises when absent
        except (OSError, AttributeError):
            continue
        return lib, path
    return None, None


OPENBLAS, OPENBLAS_PATH = find_openblas()


def set_threads(n):
    torch.set_num_threads(n)
    if OPENBLAS is not None:
        OPENBLAS.openblas_set_num_threads(n)


_evict = {}


def evict_caches():
    """Reads 128 MiB (4× a 32 MiB L3), as bench/peers/driver.c does, so the next
    call finds its operands in DRAM."""
    if "buf" not in _evict:
        _evict["buf"] = torch.ones(32 << 20, dtype=torch.float32)
    _evict["buf"].sum().item()


def timed(fn, reps, warmup, cold=False):
    """ms per call: `warmup` untimed calls, then `reps` samples; a sample averages
    enough back-to-back calls to last ≥ 0.1 ms, or with `cold` is one call made
    after the caches were evicted."""
    for _ in range(warmup):
        fn()
    if cold:
        out = []
        for _ in range(reps):
            evict_caches()
            t0 = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t0) * 1e3)
        return out
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    inner = 1 if one >= 1e-4 else min(100000, int(1e-4 / max(one, 1e-7)) + 1)
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append((time.perf_counter() - t0) * 1e3 / inner)
    return out


def rand(shape, dtype):
    return (torch.rand(shape, dtype=torch.float32) * 2 - 1).to(dtype)


_cache = {"key": None}


def build(req):
    """The callable for a request, with its tensors (kept while the case repeats)."""
    key = json.dumps({k: v for k, v in req.items() if k not in ("reps", "warmup", "cold")}, sort_keys=True)
    if _cache["key"] == key:
        return _cache["fn"], _cache["impl"]
    _cache["key"] = None
    _cache.pop("fn", None)
    dt = DT[req["dtype"]]
    op = req["op"]
    if op == "gemm":
        a, b = rand((req["M"], req["K"]), dt), rand((req["K"], req["N"]), dt)
        c = torch.empty((req["M"], req["N"]), dtype=dt)
        fn = lambda: torch.matmul(a, b, out=c)
        impl = f"torch.matmul ({req['dtype']} out)"
    elif op == "attention":
        b, h, s, skv, d = req["B"], req["H"], req["S"], req["SKV"], req["D"]
        q, k, v = rand((b, h, s, d), dt), rand((b, h, skv, d), dt), rand((b, h, skv, d), dt)
        causal = bool(req["causal"])
        if hasattr(F, "scaled_dot_product_attention"):
            fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            impl = "torch scaled_dot_product_attention"
        else:
            scale = 1.0 / math.sqrt(d)
            mask = torch.triu(torch.full((s, skv), float("-inf"), dtype=dt), diagonal=1) if causal else None

            def fn():
                p = torch.matmul(q, k.transpose(-1, -2)) * scale
                if mask is not None:
                    p = p + mask
                return torch.matmul(torch.softmax(p, dim=-1), v)
            impl = "torch naive attention (matmul-softmax-matmul; no SDPA in this torch)"
    elif op == "ffn":
        t, d, f = req["T"], req["D"], req["F"]
        x = rand((t, d), dt)
        if req["act"] == "swiglu":
            w1, w3, w2 = rand((d, f), dt), rand((d, f), dt), rand((f, d), dt)
            fn = lambda: torch.matmul(F.silu(torch.matmul(x, w1)) * torch.matmul(x, w3), w2)
            impl = "torch FFN SwiGLU (matmul, silu, mul, matmul)"
        else:
            w1, b1, w2, b2 = rand((d, f), dt), rand((f,), dt), rand((f, d), dt), rand((d,), dt)
            fn = lambda: torch.addmm(b2, F.gelu(torch.addmm(b1, x, w1), approximate="tanh"), w2)
            impl = "torch FFN GELU (addmm, gelu tanh, addmm)"
    elif op == "conv":
        n, c, oc = req["N"], req["C"], req["OC"]
        x = rand((n, c, req["H"], req["W"]), dt)
        wt = rand((oc, c, req["KH"], req["KW"]), dt)
        bias = rand((oc,), dt)
        layout = "NCHW" if req.get("variant") == "nchw" else "channels_last"
        if layout == "channels_last":
            x = x.contiguous(memory_format=torch.channels_last)
            wt = wt.contiguous(memory_format=torch.channels_last)
        fn = lambda: F.conv2d(x, wt, bias, stride=req["stride"], padding=req["pad"])
        impl = f"torch.nn.functional.conv2d ({layout})"
        _cache["tensors"] = (x, wt, bias)
    elif op == "memory":
        # over the last dimension, eps 1e-5 as ours; γ, β in the input's dtype (what
        # torch's norms expect; ours take them in f32: C elements, no difference in traffic)
        fn_name = req["fn"]
        if fn_name == "conv2d_dw":   # NHWC in memory (channels_last), as ours; groups = C
            n, h, w, c = req["N"], req["H"], req["W"], req["C"]
            xc = rand((n, c, h, w), dt).contiguous(memory_format=torch.channels_last)
            wd = rand((c, 1, req["KH"], req["KW"]), dt).contiguous(memory_format=torch.channels_last)
            bias = rand((c,), dt)
            fn = lambda: F.conv2d(xc, wd, bias, stride=req["stride"], padding=req["pad"], groups=c)
            impl = "torch.nn.functional.conv2d (groups=C, channels_last)"
            _cache.update(key=key, fn=fn, impl=impl)
            return fn, impl
        r, c = req["R"], req["C"]
        x, g, beta = rand((r, c), dt), rand((c,), dt), rand((c,), dt)
        if fn_name == "softmax":
            fn = lambda: torch.softmax(x, dim=-1)
            impl = "torch.softmax"
        elif fn_name == "layernorm":
            fn = lambda: F.layer_norm(x, (c,), g, beta, 1e-5)
            impl = "torch.nn.functional.layer_norm"
        elif fn_name == "rmsnorm" and hasattr(F, "rms_norm"):
            fn = lambda: F.rms_norm(x, (c,), g, 1e-5)
            impl = "torch.nn.functional.rms_norm"
        elif fn_name == "rmsnorm":   # torch < 2.4: the composition models used to write
            fn = lambda: x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(dt) * g
            impl = "torch x * rsqrt(mean(x²) + eps) * g (no F.rms_norm in this torch)"
        elif fn_name == "transpose":   # materialised, into a preallocated [C, R]
            yt = torch.empty((c, r), dtype=dt)
            fn = lambda: yt.copy_(x.t())
            impl = "torch Tensor.copy_(x.t()) (transpose materialised)"
        elif fn_name == "colsum":
            ys = torch.empty((c,), dtype=dt)
            fn = lambda: torch.sum(x, dim=0, out=ys)
            impl = "torch.sum(x, dim=0, out=)"
        else:
            raise ValueError(f"unknown memory op {fn_name!r}")
    else:
        raise ValueError(f"unknown op {op!r}")
    _cache.update(key=key, fn=fn, impl=impl)
    return fn, impl


def dump_conv(req):
    """Runs the convolution of `req` once and writes X, Wt, bias and Y as float32
    .npy files (our layouts: NHWC, HWIO) into req["dump"]; returns their paths."""
    import os
    import numpy as np
    fn, _ = build(req)
    x, wt, bias = _cache["tensors"]
    y = fn()
    if tuple(y.shape[2:]) != (req["OH"], req["OW"]):
        raise ValueError(f"torch's output is {tuple(y.shape)}, the case says OH, OW = {req['OH']}, {req['OW']}")
    arrays = {"X": x.permute(0, 2, 3, 1), "Wt": wt.permute(2, 3, 1, 0), "bias": bias, "Y": y.permute(0, 2, 3, 1)}
    os.makedirs(req["dump"], exist_ok=True)
    paths = []
    for name, t in arrays.items():
        paths.append(os.path.join(req["dump"], name + ".npy"))
        np.save(paths[-1], np.ascontiguousarray(t.float().numpy()))
    return paths


def describe():
    source = "PyPI" if "+cpu" in torch.__version__ or "+cu" in torch.__version__ or not torch.__file__.startswith("/usr/lib") else "Debian"
    blas = OPENBLAS_PATH or "MKL or oneDNN inside torch (no OpenBLAS loaded)"
    return {"ok": True, "torch": torch.__version__, "source": source, "file": torch.__file__,
            "sdpa": hasattr(F, "scaled_dot_product_attention"),
            "openblas": OPENBLAS_PATH,
            "openblas_core": OPENBLAS.openblas_get_corename().decode() if OPENBLAS is not None else None,
            "blas": blas, "mkldnn": torch.backends.mkldnn.is_available()}


def main():
    print(json.dumps(describe()), flush=True)
    torch.set_grad_enabled(False)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            set_threads(int(req["threads"]))
            with torch.inference_mode():
                if req.get("dump"):
                    print(json.dumps({"ok": True, "files": dump_conv(req)}), flush=True)
                    continue
                fn, impl = build(req)
                times = timed(fn, int(req["reps"]), int(req["warmup"]), bool(req.get("cold")))
            info = {"threads": torch.get_num_threads(), "torch": torch.__version__}
            if OPENBLAS is not None:
                info["openblas_threads"] = OPENBLAS.openblas_get_num_threads()
            reply = {"ok": True, "impl": f"{impl}, torch {torch.__version__}", "times_ms": times, "info": info}
        except Exception as e:   # one bad case must not end the run: answer and go on
            reply = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
