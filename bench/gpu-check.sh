#!/usr/bin/env bash
# gpu-check.sh — the one prepared check for a session that is lent an NVIDIA GPU
# (issue 28). Two steps, because the GPU machine has PyTorch, CuPy and the
# driver but no LLVM to build TileKit with:
#
#   bash bench/gpu-check.sh prepare    here: build tkc, write the PTX of the GPU
#                                      kernels (sm_90a) into bench/gpu/ptx/
#   bash bench/gpu-check.sh run        there (carry bench/gpu/ptx): run cuda_aot (a
#                                      program built here from `tkc -c --target=sm_80`
#                                      and libtkrt alone: tests/nvptx/cuda_aot.c), then
#                                      each kernel on the GPU at ragged sizes against a float64
#                                      PyTorch reference, then time examples/gemm.tk,
#                                      examples/gemm_pipelined.tk and the stdlib gemm_bf16
#                                      (sm_90a: TMA, wgmma; through libtkrt's launcher,
#                                      which makes the TMA maps) and gemm_pipelined at
#                                      sm_80 (cp.async, mma.sync) against torch.matmul
#                                      (cuBLAS), bf16, 4096³ and
#                                      8192³, and the stdlib attention (B=16, H=16,
#                                      S=4096, D=128, causal and not) against PyTorch's
#                                      flash backend; prints ratios and TFLOP/s, and writes
#                                      $OUT/gpu-check.json when $OUT is set.
#
# Which stdlib kernels it runs: softmax, layernorm, rmsnorm, gemm_bf16 and
# attention at their GPU configurations; the others are listed when they do
# not lower. Sized to finish in a few minutes on an H100/H200.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
step=${1:-}
case $step in
prepare)
    [ -x build-dev/tools/tkc/tkc ] || { cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Debug -DTK_AOT_STDLIB=OFF >/dev/null && cmake --build build-dev -j "$(nproc)" --target tkc; }
    tkc=build-dev/tools/tkc/tkc
    mkdir -p bench/gpu/ptx
    "$tkc" --target=sm_90a --emit=ptx examples/gemm.tk -o bench/gpu/ptx/gemm.ptx
    "$tkc" --target=sm_90a --emit=ptx examples/gemm_pipelined.tk -o bench/gpu/ptx/gemm_pipelined.ptx
    "$tkc" --target=sm_90a --emit=ptx tests/amdgpu/gemm_kloop.tk -o bench/gpu/ptx/gemm_kloop.ptx
    "$tkc" --target=sm_90a --emit=ptx tests/emu/epilogue.tk -o bench/gpu/ptx/epilogue.ptx
    for k in softmax layernorm rmsnorm attention; do   # stdlib kernels at their GPU configurations
        "$tkc" --target=sm_90a --emit=ptx stdlib-kernels/$k.tk -o bench/gpu/ptx/$k.ptx
    done
    "$tkc" --target=sm_90a --emit=ptx stdlib-kernels/gemm.tk -o bench/gpu/ptx/stdlib_gemm.ptx
    "$tkc" --target=sm_80 --emit=ptx examples/gemm_pipelined.tk -o bench/gpu/ptx/gemm_pipelined_sm80.ptx
    # tkc -c for an NVIDIA target, as a user's program links it (needs only libc there)
    cmake --build build-dev -j "$(nproc)" --target cuda_aot tkrt >/dev/null
    cp build-dev/tests/nvptx/cuda_aot bench/gpu/ptx/cuda_aot
    # the kernels with TMA maps, through TileKit's launcher: tkc -c objects and
    # libtkrt in one shared library that check.py calls with ctypes
    objs=()
    for k in examples/gemm.tk examples/gemm_pipelined.tk stdlib-kernels/gemm.tk; do
        o=bench/gpu/ptx/$(basename "$k" .tk)_${k%%/*}.o
        "$tkc" -c --target=sm_90a "$k" -o "$o"
        objs+=("$o")
    done
    cc -shared -o bench/gpu/ptx/libtkcheck.so "${objs[@]}" -Wl,--whole-archive build-dev/targets/cpu/libtkrt.a -Wl,--no-whole-archive -ldl -lpthread
    rm -f "${objs[@]}" bench/gpu/ptx/*.h
    for k in stdlib-kernels/*.tk; do   # what does not lower yet, and why (one line each)
        # (conv2d.tk lowers but takes minutes in LLVM at its CPU tile sizes)
        rc=0   # (set -e: a failing compile must not end the script)
        out=$(timeout 60 "$tkc" --target=sm_90a --emit=ptx "$k" -o /dev/null 2>&1) || rc=$?
        [ $rc = 124 ] && echo "not lowered: $k: over 60 s in LLVM"
        [ $rc != 0 ] && [ $rc != 124 ] && echo "$out" | head -1 | sed "s|^|not lowered: |"
    done > bench/gpu/ptx/not_lowered.txt
    ls -l bench/gpu/ptx
    ;;
run)
    [ -d bench/gpu/ptx ] || { echo "gpu-check: no bench/gpu/ptx: run 'bash bench/gpu-check.sh prepare' first (and carry it)" >&2; exit 2; }
    bench/gpu/ptx/cuda_aot gpu || echo "gpu-check: cuda_aot FAILED (tkc -c --target=sm_80 through libtkrt)"
    PYTHONUNBUFFERED=1 python3 bench/gpu/check.py bench/gpu/ptx "${OUT:-}"
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
