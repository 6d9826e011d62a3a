#!/bin/bash
# cuda_run.sh CHECK TKC TESTS — tkc run --target=sm_* on the CUDA device
# (targets/nvptx/cuda.c: the driver through dlopen).
#   absent   no driver library: a clear message naming it, exit 1, no crash
#   stub     the CUDA toolkit's stub libcuda (no driver behind it): cuInit's
#            error by name (exit 77 = skipped where the toolkit is not installed)
#   gpu      on a machine with an NVIDIA GPU: the test kernels run there and
#            match the interpreter (exit 77 = skipped, with the reason, without one)
set -u
check=$1 tkc=$2 tests=$3
fail() { echo "FAIL: $*"; exit 1; }
run() { "$tkc" run "$@" --check --repeat 3 2>&1; }

case $check in
absent)
    out=$(TK_CUDA_LIBRARY=/nonexistent/libcuda.so.1 run "$tests/../examples/gemm.tk" --target=sm_90 --size M=64,N=64,K=64)
    rc=$?
    echo "$out"
    [ $rc = 1 ] || fail "exit status $rc, want 1"
    echo "$out" | grep -q 'no CUDA driver: cannot open /nonexistent/libcuda.so.1' || fail "no message naming the library"
    ;;
stub)
    stub=""
    for s in /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so; do
        [ -r "$s" ] && stub=$s && break
    done
    [ -n "$stub" ] || { echo "SKIP: no CUDA toolkit stub libcuda.so here"; exit 77; }
    out=$(TK_CUDA_LIBRARY=$stub run "$tests/../examples/gemm.tk" --target=sm_80 --size M=64,N=64,K=64)
    rc=$?
    echo "$out"
    [ $rc = 1 ] || fail "exit status $rc, want 1"
    echo "$out" | grep -q 'cuInit: CUDA_ERROR_STUB_LIBRARY' || fail "cuInit's error is not named"
    ;;
gpu)
    probe=$(run "$tests/amdgpu/mma_single.tk" --target=sm_80 --size M=32,K=16,N=32)
    if echo "$probe" | grep -qE 'no CUDA driver|cuInit|sees no GPU|opening device 0'; then
        echo "SKIP: no NVIDIA GPU here: $(echo "$probe" | grep -E 'CUDA|GPU' | head -1)"
        exit 77
    fi
    while read -r file sizes; do
        out=$(run "$tests/$file" --target=sm_80 --size "$sizes")
        echo "$out" | grep -E '^(kernel|correct|  [A-Z] |time)'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$file $sizes on the GPU"; }
    done <<'LIST'
amdgpu/mma_single.tk M=45,K=13,N=50
amdgpu/gemm_kloop.tk M=77,K=100,N=93
amdgpu/gemm_warps.tk M=130,K=70,N=61
amdgpu/odd_tile.tk M=50,K=40,N=100
../examples/gemm.tk M=200,K=70,N=150
emu/epilogue.tk M=45,K=16,N=32,D=50
LIST
    ;;
*) fail "unknown check $check" ;;
esac
