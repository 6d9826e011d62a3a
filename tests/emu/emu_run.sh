#!/bin/bash
# emu_run.sh CHECK TKC TESTS — kernels lowered for sm_80 and run on the emulation
# target, checked by tkc run against the TIR interpreter (double precision, with
# its error bounds). Sizes are not multiples of the tiles, so the masked edges of
# every load and store are exercised; grids have many blocks, run on 1 and 2 threads.
#   kernels      every register-tile test kernel (one mma, a K loop, 4 warps, 48x48 tiles)
#   unsupported  a kernel outside the GPU subset: a clear message, no crash
set -u
check=$1 tkc=$2 tests=$3
src=$tests/amdgpu
fail() { echo "FAIL: $*"; exit 1; }

case $check in
kernels)
    while read -r k sizes threads; do
        out=$("$tkc" run "$src/$k.tk" --target=sm_80-emu --size "$sizes" --check --threads "$threads" --repeat 1 2>&1)
        echo "$out" | grep -E '^(kernel|correct|  C )'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$k $sizes on $threads thread(s)"; }
    done <<'LIST'
mma_single M=45,K=13,N=50 1
gemm_kloop M=77,K=100,N=93 2
gemm_kloop M=64,K=16,N=64 1
gemm_warps M=130,K=70,N=61 2
odd_tile M=50,K=40,N=100 1
LIST
    ;;
unsupported)
    out=$("$tkc" run "$tests/../examples/gemm.tk" --kernel gemm --target=sm_80-emu --size M=64,N=64,K=64 2>&1)
    rc=$?
    echo "$out" | head -5
    [ $rc != 0 ] || fail "examples/gemm.tk ran on the emulator"
    echo "$out" | grep -q 'is not supported by the NVPTX emulation backend yet' || fail "no clear message"
    echo "$out" | grep -q 'gemm.tk:16:5' || fail "the message does not name the line"
    ;;
*) fail "unknown check $check" ;;
esac
