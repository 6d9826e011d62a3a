"""The GPU half of bench/gpu-check.sh: TileKit's PTX on an NVIDIA GPU.

Loads each kernel's PTX with CuPy (the driver JIT-compiles it), runs it on
ragged sizes against a float64 PyTorch reference (inputs rounded to bf16 as
the kernel sees them), then times examples/gemm.tk against torch.matmul
(cuBLAS) in bf16. Medians of repeated, interleaved timings with CUDA events.
Argument order of a kernel: its parameters, then its size variables as int64
in order of first appearance (lower/gpu/gpu_lower.h)."""
import json
import math
import sys


def cdiv(a, b):
    return -(-a // b)


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
    for M, K, N in ((200, 70, 150), (1000, 333, 517)):
        A, B = rand_bf16(M, K), rand_bf16(K, N)
        C = torch.full((M, N), float("nan"), device="cuda")
        kernel("gemm", "gemm")((cdiv(N, 128), cdiv(M, 128)), (128,), (ptr(A), ptr(B), ptr(C), cp.int64(M), cp.int64(K), cp.int64(N)))
        torch.cuda.synchronize()
        ok_all &= report(f"examples/gemm.tk {M}x{K}x{N}", C, A.double() @ B.double(), 1e-5)
    # tests/amdgpu/gemm_kloop.tk: one warp per 64x64 block, grid (cdiv(N,64), cdiv(M,64))
    M, K, N = 77, 100, 93
    A, B = rand_bf16(M, K), rand_bf16(K, N)
    C = torch.full((M, N), float("nan"), device="cuda")
    kernel("gemm_kloop", "gemm_kloop")((cdiv(N, 64), cdiv(M, 64)), (32,), (ptr(A), ptr(B), ptr(C), cp.int64(M), cp.int64(K), cp.int64(N)))
    torch.cuda.synchronize()
    ok_all &= report(f"gemm_kloop {M}x{K}x{N}", C, A.double() @ B.double(), 1e-5)
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

    print("speed (bf16 in, f32 out; medians of interleaved rounds, CUDA events):")
    for n in (4096, 8192):
        A, B = rand_bf16(n, n), rand_bf16(n, n)
        C = torch.empty((n, n), device="cuda")
        g = kernel("gemm", "gemm")
        ours = lambda: g((cdiv(n, 128), cdiv(n, 128)), (128,), (ptr(A), ptr(B), ptr(C), cp.int64(n), cp.int64(n), cp.int64(n)))
        theirs = lambda: torch.matmul(A, B)
        times = {"tilekit": [], "cublas": []}
        for f in (ours, theirs):
            f()
        torch.cuda.synchronize()
        for _ in range(5):
            for name, f in (("tilekit", ours), ("cublas", theirs)):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                f()
                e.record()
                e.synchronize()
                times[name].append(s.elapsed_time(e))
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        tf = {k: 2 * n ** 3 / (v * 1e-3) / 1e12 for k, v in med.items()}
        ratio = med["cublas"] / med["tilekit"]
        print(f"  gemm bf16 {n}³: tilekit {med['tilekit']:.2f} ms ({tf['tilekit']:.1f} TFLOP/s), "
              f"cuBLAS {med['cublas']:.2f} ms ({tf['cublas']:.1f} TFLOP/s): {ratio:.3f}× cuBLAS")
        results["timings"].append({"case": f"gemm bf16 {n}", "ms": med, "tflops": tf, "ratio_to_cublas": ratio})
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
