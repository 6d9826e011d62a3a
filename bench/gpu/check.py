"""The GPU half of bench/gpu-check.sh: TileKit's PTX on an NVIDIA GPU.

Loads each kernel's PTX with CuPy (the driver JIT-compiles it), runs it on
ragged sizes against a float64 PyTorch reference (inputs rounded to bf16 as
the kernel sees them) — examples and the stdlib softmax, layernorm, rmsnorm,
gemm_bf16 and attention at their GPU configurations — then times
examples/gemm.tk against torch.matmul (cuBLAS) in bf16 and the stdlib
attention against PyTorch's flash backend. Medians of repeated, interleaved timings with CUDA events.
Argument order of a kernel: its parameters, then its size variables as int64
in order of first appearance (lower/gpu/gpu_lower.h). Kernels whose shared
tiles arrive by the TMA (sm_90: the gemms) also take a CUtensorMap per
tensor and box, made at launch from the tensor (lower/gpu/gpu_tma.c): those
run through TileKit's own launcher — `tkc -c --target=sm_90a` objects linked
with libtkrt into libtkcheck.so, called with ctypes — which encodes the maps
as a user's program gets them. Its launches wait for the GPU, so their
timings include a launch and a synchronisation (some microseconds)."""
import ctypes
import json
import math
import sys


class TkLib:
    """Kernels of `tkc -c` objects in a shared library, launched by
    tk_rt_cuda_launch (include/tk/rt.h) on device pointers."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.tk_rt_cuda_launch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_void_p)]
        self.lib.tk_rt_error.restype = ctypes.c_char_p

    def launch(self, name, tensors, sizes):
        """name's kernel on device pointers `tensors` (its parameters, all
        tensors) and int sizes, through NAME__cuda__grid and the record NAME__cuda_kernel."""
        n, ns = len(tensors), len(sizes)
        ptrs = (ctypes.c_uint64 * max(n, 1))(*tensors)
        szs = (ctypes.c_int64 * max(ns, 1))(*sizes)
        args = (ctypes.c_void_p * max(n, 1))(*tensors)
        params = (ctypes.c_void_p * max(n + ns, 1))()
        for i in range(n):
            params[i] = ctypes.addressof(ptrs) + 8 * i
        for j in range(ns):
            params[n + j] = ctypes.addressof(szs) + 8 * j
        grid = (ctypes.c_int64 * 4)(1, 1, 1, 0)
        getattr(self.lib, f"{name}__cuda__grid")(args, szs, grid)
        record = ctypes.addressof(ctypes.c_char.in_dll(self.lib, f"{name}__cuda_kernel"))
        if self.lib.tk_rt_cuda_launch(record, grid, params) != 0:
            raise RuntimeError(f"{name}: {self.lib.tk_rt_error().decode()}")


def cdiv(a, b):
    return -(-a // b)


def medians(torch, fns, rounds):
    """Median ms of each of fns (name -> callable), timed with CUDA events in
    interleaved rounds after one warm-up call each."""
    times = {name: [] for name in fns}
    for f in fns.values():
        f()
    torch.cuda.synchronize()
    for _ in range(rounds):
        for name, f in fns.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            f()
            end.record()
            end.synchronize()
            times[name].append(start.elapsed_time(end))
    return {k: sorted(v)[len(v) // 2] for k, v in times.items()}


def main():
    ptx_dir = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) > 2 else ""
    try:
        import cupy as cp
        import torch
    except ImportError as e:
        print(f"gpu-check: needs PyTorch and CuPy with a GPU ({e})")
        return 2
    if not torch.cuda.is_available():
        print("gpu-check: PyTorch sees no GPU")
        return 2
    dev = torch.cuda.get_device_name()
    print(f"gpu-check: {dev}, torch {torch.__version__}, cupy {cp.__version__}")
    mods = {}

    try:
        tk = TkLib(f"{ptx_dir}/libtkcheck.so")
    except OSError as e:
        print(f"gpu-check: cannot load {ptx_dir}/libtkcheck.so ({e}): run 'bash bench/gpu-check.sh prepare' again")
        return 2

    def kernel(ptx, name):
        if ptx not in mods:
            mods[ptx] = cp.RawModule(path=f"{ptx_dir}/{ptx}.ptx")
        return mods[ptx].get_function(name)

    def ptr(t):   # a torch CUDA tensor as an argument CuPy passes by pointer
        return cp.from_dlpack(t.view(torch.int16) if t.dtype == torch.bfloat16 else t)

    def rand_bf16(*shape):
        return torch.randn(*shape, device="cuda").to(torch.bfloat16)

    results = {"device": dev, "checks": [], "timings": []}
    ok_all = True

    def report(name, got, ref, tol):
        err = (got.double() - ref).abs().max().item()
        scale = ref.abs().max().item() + 1e-30
        ok = err <= tol * scale
        print(f"  {name:40s} max |err| {err:.3g} (scale {scale:.3g}, tol {tol:g}·scale): {'ok' if ok else 'WRONG'}")
        results["checks"].append({"case": name, "max_abs_err": err, "scale": scale, "ok": ok})
        return ok

    torch.manual_seed(0)
    print("correctness (ragged sizes, against float64):")
    # examples/gemm.tk: gemm(A[M,K], B[K,N], C[M,N]) sizes (M, K, N), grid (cdiv(N,128), cdiv(M,128)), 4 warps
    # and examples/gemm_pipelined.tk (the same grid; double buffering, TMA copies
    # where the row lengths are multiples of 8, element loads elsewhere) at
    # sm_90a through TileKit's launcher; gemm_pipelined also at sm_80 (cp.async,
    # mma.sync) through CuPy
    for name in ("gemm", "gemm_pipelined", "gemm_pipelined sm_80"):
        for M, K, N in ((200, 70, 150), (1000, 333, 517), (520, 264, 392)):
            A, B = rand_bf16(M, K), rand_bf16(K, N)
            C = torch.full((M, N), float("nan"), device="cuda")
            if name.endswith("sm_80"):
                kernel("gemm_pipelined_sm80", "gemm_pipelined")((cdiv(N, 128), cdiv(M, 128)), (128,),
                                                                 (ptr(A), ptr(B), ptr(C), cp.int64(M), cp.int64(K), cp.int64(N)))
            else:
                tk.launch(name, [A.data_ptr(), B.data_ptr(), C.data_ptr()], [M, K, N])
            torch.cuda.synchronize()
            ok_all &= report(f"examples/{name}.tk {M}x{K}x{N}", C, A.double() @ B.double(), 1e-5)
    # one warp per 64x64 block of C, grid (cdiv(N,64), cdiv(M,64)): tests/amdgpu/gemm_kloop.tk;
    # the stdlib gemm_bf16 at its GPU configuration: 128x128 blocks of 4 warps, staged
    # through double-buffered shared tiles (cp.async where K and N are multiples of 8)
    for ptx, name, (M, K, N), tile, threads in (("gemm_kloop", "gemm_kloop", (77, 100, 93), 64, 32),
                                                ("stdlib_gemm", "gemm_bf16", (300, 170, 250), 128, 128),
                                                ("stdlib_gemm", "gemm_bf16", (300, 176, 264), 128, 128)):
        A, B = rand_bf16(M, K), rand_bf16(K, N)
        C = torch.full((M, N), float("nan"), device="cuda")
        if ptx == "stdlib_gemm":   # TMA maps: TileKit's launcher
            tk.launch(name, [A.data_ptr(), B.data_ptr(), C.data_ptr()], [M, K, N])
        else:
            kernel(ptx, name)((cdiv(N, tile), cdiv(M, tile)), (threads,), (ptr(A), ptr(B), ptr(C), cp.int64(M), cp.int64(K), cp.int64(N)))
        torch.cuda.synchronize()
        ok_all &= report(f"{ptx}.{name} {M}x{K}x{N}", C, A.double() @ B.double(), 1e-5)
    # tests/emu/epilogue.tk: sizes (M, K, N, D), K = 16 and N = 32 (one tile each), grid (cdiv(D,32), cdiv(M,32))
    M, K, N, D, scale = 45, 16, 32, 50, 0.5
    A, B, V = rand_bf16(M, K), rand_bf16(K, N), rand_bf16(N, D)
    O = torch.full((M, D), float("nan"), device="cuda")
    kernel("epilogue", "epilogue")((cdiv(D, 32), cdiv(M, 32)), (32,),
                                   (ptr(A), ptr(B), ptr(V), ptr(O), cp.float32(scale), cp.int64(M), cp.int64(K), cp.int64(N), cp.int64(D)))
    torch.cuda.synchronize()
    S = (A.double() @ B.double()).float()
    P = torch.where(S > 0.25, torch.exp(S * scale), torch.addcmul(torch.full_like(S, -0.5), S, S)).to(torch.bfloat16)
    Oref = P.double() @ V.double()
    ok_all &= report(f"epilogue {M}x{K}x{N}x{D}", O, torch.relu(Oref) - 0.125 * Oref, 1e-4)

    # stdlib kernels at their GPU configurations (target(gpu: ...) defaults)
    # softmax/layernorm/rmsnorm: 16 rows per block, one warp; sizes (R, C)
    R, C, eps = 77, 1000, 1e-5
    X = torch.randn(R, C, device="cuda")
    gamma, beta = torch.randn(C, device="cuda"), torch.randn(C, device="cuda")
    Y = torch.full((R, C), float("nan"), device="cuda")
    kernel("softmax", "softmax_f32")((cdiv(R, 16),), (32,), (ptr(X), ptr(Y), cp.int64(R), cp.int64(C)))
    torch.cuda.synchronize()
    ok_all &= report(f"stdlib softmax_f32 {R}x{C}", Y, torch.softmax(X.double(), -1), 1e-5)
    Y.fill_(float("nan"))
    kernel("layernorm", "layernorm_f32")((cdiv(R, 16),), (32,), (ptr(X), ptr(gamma), ptr(beta), ptr(Y), cp.float32(eps), cp.int64(R), cp.int64(C)))
    torch.cuda.synchronize()
    ok_all &= report(f"stdlib layernorm_f32 {R}x{C}", Y, torch.nn.functional.layer_norm(X.double(), (C,), gamma.double(), beta.double(), eps), 1e-5)
    Y.fill_(float("nan"))
    kernel("rmsnorm", "rmsnorm_f32")((cdiv(R, 16),), (32,), (ptr(X), ptr(gamma), ptr(Y), cp.float32(eps), cp.int64(R), cp.int64(C)))
    torch.cuda.synchronize()
    Xd = X.double()
    ok_all &= report(f"stdlib rmsnorm_f32 {R}x{C}", Y, Xd * torch.rsqrt((Xd * Xd).mean(-1, keepdim=True) + eps) * gamma.double(), 1e-5)

    # attention_bf16_d{64,128}: 4 warps of 16 query rows, grid (cdiv(S,64), H, B); arguments
    # Q, K, V, Mask, O, scale, causal, use_mask, then B, H, S, D, HKV, SKV, MB, HM, MQ, MK
    nomask = torch.zeros(1, 1, 1, 1, device="cuda")

    def attention(d, Q, K, V, O, causal):
        b, h, s, dd = Q.shape
        skv = K.shape[2]
        kernel("attention", f"attention_bf16_d{d}")((cdiv(s, 64), h, b), (128,),
            (ptr(Q), ptr(K), ptr(V), ptr(nomask), ptr(O), cp.float32(dd ** -0.5), cp.uint8(causal), cp.uint8(0),
             cp.int64(b), cp.int64(h), cp.int64(s), cp.int64(dd), cp.int64(K.shape[1]), cp.int64(skv),
             cp.int64(1), cp.int64(1), cp.int64(1), cp.int64(1)))

    for d, (b, h, hkv, s, skv), causal in ((64, (2, 4, 2, 150, 150), True), (128, (1, 3, 3, 77, 200), False)):
        Q, K, V = rand_bf16(b, h, s, d), rand_bf16(b, hkv, skv, d), rand_bf16(b, hkv, skv, d)
        O = torch.full((b, h, s, d), float("nan"), device="cuda").to(torch.bfloat16)
        attention(d, Q, K, V, O, causal)
        torch.cuda.synchronize()
        g = h // hkv
        Kr, Vr = K.double().repeat_interleave(g, 1), V.double().repeat_interleave(g, 1)
        sc = Q.double() @ Kr.transpose(-1, -2) * d ** -0.5
        if causal:   # bottom-right aligned: key j visible to query i iff j <= i + skv - s
            i = torch.arange(s, device="cuda")[:, None]
            j = torch.arange(skv, device="cuda")[None, :]
            sc = sc.masked_fill(j > i + skv - s, float("-inf"))
        ok_all &= report(f"stdlib attention_bf16_d{d} {b}x{h}x{s}x{skv}{' causal' if causal else ''}", O,
                         torch.softmax(sc, -1) @ Vr, 2e-2)

    print("speed (bf16 in, f32 out; medians of interleaved rounds, CUDA events):")
    for n in (4096, 8192):
        A, B = rand_bf16(n, n), rand_bf16(n, n)
        C = torch.empty((n, n), device="cuda")
        gp80 = kernel("gemm_pipelined_sm80", "gemm_pipelined")
        args = (ptr(A), ptr(B), ptr(C), cp.int64(n), cp.int64(n), cp.int64(n))
        tensors = [A.data_ptr(), B.data_ptr(), C.data_ptr()]
        fns = {"tilekit": lambda: tk.launch("gemm", tensors, [n, n, n]),                 # sm_90a: TMA, mma.sync
               "pipelined": lambda: tk.launch("gemm_pipelined", tensors, [n, n, n]),     # sm_90a: TMA, wgmma
               "stdlib": lambda: tk.launch("gemm_bf16", tensors, [n, n, n]),             # sm_90a: TMA, wgmma
               "mma_sync": lambda: gp80((cdiv(n, 128), cdiv(n, 128)), (128,), args),      # sm_80: cp.async, mma.sync
               "cublas": lambda: torch.matmul(A, B)}
        med = medians(torch, fns, 5)
        tf = {k: 2 * n ** 3 / (v * 1e-3) / 1e12 for k, v in med.items()}
        ratios = {k: med["cublas"] / v for k, v in med.items() if k != "cublas"}
        print(f"  gemm bf16 {n}³: cuBLAS {med['cublas']:.2f} ms ({tf['cublas']:.1f} TFLOP/s); " +
              ", ".join(f"{k} {med[k]:.2f} ms ({tf[k]:.1f} TFLOP/s, {r:.3f}× cuBLAS)" for k, r in ratios.items()))
        results["timings"].append({"case": f"gemm bf16 {n}", "ms": med, "tflops": tf, "ratio_to_cublas": ratios})
    # attention B=16, H=16, S=4096, D=128 against PyTorch's flash backend
    b, h, s, d = 16, 16, 4096, 128
    Q, K, V = rand_bf16(b, h, s, d), rand_bf16(b, h, s, d), rand_bf16(b, h, s, d)
    O = torch.empty((b, h, s, d), device="cuda", dtype=torch.bfloat16)
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        flash = lambda: sdpa_kernel(SDPBackend.FLASH_ATTENTION)
    except ImportError:
        flash = lambda: torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False)
    for causal in (False, True):
        def ours():
            attention(d, Q, K, V, O, causal)

        def theirs():
            with flash():
                torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=causal)
        med = medians(torch, {"tilekit": ours, "flash": theirs}, 3)
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        tf = {k: flops / (v * 1e-3) / 1e12 for k, v in med.items()}
        ratio = med["flash"] / med["tilekit"]
        label = f"attention bf16 B{b} H{h} S{s} D{d}{' causal' if causal else ''}"
        print(f"  {label}: tilekit {med['tilekit']:.2f} ms ({tf['tilekit']:.1f} TFLOP/s), "
              f"flash {med['flash']:.2f} ms ({tf['flash']:.1f} TFLOP/s): {ratio:.3f}× flash")
        results["timings"].append({"case": label, "ms": med, "tflops": tf, "ratio_to_flash": ratio})
    try:
        with open(f"{ptx_dir}/not_lowered.txt") as f:
            missing = [l.strip() for l in f if l.strip()]
    except OSError:
        missing = []
    print(f"stdlib kernels the GPU lowering does not take yet: {len(missing)}")
    for l in missing:
        print("  " + l)
    results["not_lowered"] = missing
    results["all_correct"] = bool(ok_all)
    if out_dir:
        with open(f"{out_dir}/gpu-check.json", "w") as f:
            json.dump(results, f, indent=1)
    print("gpu-check:", "all kernels correct" if ok_all else "SOME KERNELS WRONG")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
