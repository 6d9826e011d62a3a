#!/bin/bash
# amdgpu_tkc.sh CHECK TKC SRCDIR — tkc --target=gfx942 end to end (no GPU needed).
set -u
check=$1 tkc=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# count PATTERN FILE: lines matching
count() { grep -c -- "$1" "$2" || true; }

case $check in
mfma_asm)
    "$tkc" --target=gfx942 --emit=asm "$src/mma_single.tk" -o "$work/k.s" || fail "tkc failed"
    n=$(count 'v_mfma_f32_32x32x8_bf16' "$work/k.s")
    [ "$n" = 2 ] || fail "want 2 v_mfma_f32_32x32x8_bf16, got $n"
    grep -q '\.wavefront_size: *64' "$work/k.s" || fail "not wave64"
    grep -q '\.private_segment_fixed_size: *0' "$work/k.s" || fail "tiles went to scratch memory"
    grep 'v_mfma' "$work/k.s"
    ;;
gemm_asm)
    "$tkc" --target=gfx942 --emit=asm "$src/gemm_kloop.tk" -o "$work/g.s" || fail "tkc failed"
    n=$(count 'v_mfma_f32_32x32x8_bf16' "$work/g.s")
    [ "$n" = 8 ] || fail "want 8 v_mfma_f32_32x32x8_bf16 in the K loop body, got $n"
    grep -q 's_cbranch' "$work/g.s" || fail "no loop"
    grep -q '\.private_segment_fixed_size: *0' "$work/g.s" || fail "accumulator went to scratch memory"
    "$tkc" --target=gfx942 --emit=asm "$src/gemm_warps.tk" -o "$work/w.s" || fail "tkc failed (warps)"
    grep -q '\.max_flat_workgroup_size: *256' "$work/w.s" || fail "warps(4) is not a 256-item workgroup"
    [ "$(count 'v_mfma_f32_32x32x8_bf16' "$work/w.s")" = 2 ] || fail "warps kernel: want 2 MFMA"
    "$tkc" --target=gfx942 --emit=asm "$src/odd_tile.tk" -o "$work/o.s" || fail "tkc failed (48x48)"
    [ "$(count 'v_mfma_f32_16x16x16_bf16' "$work/o.s")" = 9 ] || fail "48x48: want 9 MFMA 16x16x16"
    # the example gemm: shared tiles in LDS, two barriers per K step, 64x64 per wave, K 32
    "$tkc" --target=gfx942 --emit=asm "$src/../../examples/gemm.tk" -o "$work/e.s" || fail "tkc failed (examples/gemm.tk)"
    [ "$(count 'v_mfma_f32_32x32x8_bf16' "$work/e.s")" = 16 ] || fail "examples/gemm.tk: want 16 MFMA per K step"
    [ "$(count 's_barrier' "$work/e.s")" = 2 ] || fail "examples/gemm.tk: want 2 s_barrier"
    grep -q '\.group_segment_fixed_size: *16384' "$work/e.s" || fail "examples/gemm.tk: As and Bs are not 16 KiB of LDS"
    grep -q '\.private_segment_fixed_size: *0' "$work/e.s" || fail "examples/gemm.tk: tiles went to scratch memory"
    # row reductions: ds_bpermute butterflies, nothing in scratch (softmax: 16-row tiles, MFMA 16x16x16)
    "$tkc" --target=gfx942 --emit=asm "$src/../../examples/softmax.tk" -o "$work/s.s" || fail "tkc failed (softmax)"
    [ "$(count 'ds_bpermute_b32' "$work/s.s")" -gt 0 ] || fail "softmax: no ds_bpermute"
    grep -q '\.private_segment_fixed_size: *0' "$work/s.s" || fail "softmax: vectors went to scratch memory"
    "$tkc" --target=gfx1100 --emit=asm "$src/../emu/vectors.tk" -o "$work/v.s" || fail "tkc failed (vectors.tk, gfx1100)"
    grep -q '\.private_segment_fixed_size: *0' "$work/v.s" || fail "vectors.tk: scratch memory on gfx1100"
    echo "ok: 8 MFMA per K step, warps(4) = 256 work-items, 48x48 -> 9 x 16x16x16, examples/gemm.tk with LDS and barriers, reductions by ds_bpermute"
    ;;
llvm)
    "$tkc" --target=gfx942 --emit=llvm "$src/mma_single.tk" -o "$work/k.ll" || fail "tkc failed"
    grep -q 'define amdgpu_kernel void @mma_single(ptr addrspace(1)' "$work/k.ll" || fail "no amdgpu_kernel with global pointers"
    grep -q 'i64 %M, i64 %K, i64 %N' "$work/k.ll" || fail "sizes are not i64 arguments after the tensors"
    grep -q 'llvm.amdgcn.mfma.f32.32x32x8bf16.1k' "$work/k.ll" || fail "no MFMA intrinsic"
    grep -q 'llvm.amdgcn.workgroup.id.y' "$work/k.ll" || fail "no workgroup id"
    grep -q 'amdhsa_code_object_version' "$work/k.ll" || fail "code object version not pinned"
    echo ok
    ;;
unsupported)
    for f in "$src/unsupported_mixed_mma.tk"; do
        "$tkc" --target=gfx942 --emit=asm "$f" -o "$work/u.s" 2> "$work/err"
        rc=$?
        cat "$work/err"
        [ $rc = 1 ] || [ $rc = 2 ] || fail "$f: exit status $rc, want 1 or 2"
        grep -q 'share an operand type' "$work/err" || fail "$f: no clear message"
        grep -q 'LLVM ERROR' "$work/err" && fail "$f: LLVM error"
    done
    # an accumulator converted to an A operand moves elements between MFMA lanes: through
    # LDS (each lane writes its elements, the wave meets, each lane reads the new layout)
    "$tkc" --target=gfx942 --emit=asm "$src/../emu/epilogue.tk" -o "$work/x.s" || fail "epilogue: the cross-lane convert does not compile"
    grep -Eq 'ds_(write|store)' "$work/x.s" && grep -Eq 'ds_(read|load)' "$work/x.s" || fail "epilogue: no LDS exchange"
    grep -q '\.private_segment_fixed_size: 0' "$work/x.s" || fail "epilogue: the exchange went to scratch memory"
    "$tkc" --target=gfx942 --emit=asm "$src/unsupported_mixed_mma.tk" 2>&1 | grep -q 'unsupported_mixed_mma.tk:12:5: gfx942: this mma takes rt<f32, 16, 16, row> operands, an earlier one in kernel mixed (line 9)' \
        || fail "mixed mma: message does not name both lines"
    # comparisons of col tiles: bool col tiles in the B layout
    "$tkc" --target=gfx942 --emit=asm "$src/../emu/col_masks.tk" -o "$work/cm.s" || fail "col_masks.tk does not compile for gfx942"
    # packed tensors: the same per-element offsets as on NVIDIA (the emulator checks their values)
    "$tkc" --target=gfx942 --emit=asm "$src/../emu/packed.tk" -o "$work/p.s" || fail "packed.tk does not compile for gfx942"
    grep -q 'global_store' "$work/p.s" && grep -q 'global_load' "$work/p.s" || fail "packed.tk: no global loads and stores"
    # sub-tiles, rows and columns: fragments renamed, or moved through LDS (AMD's 32-row tiles)
    "$tkc" --target=gfx942 --emit=asm "$src/../emu/slices.tk" -o "$work/sl.s" || fail "slices.tk does not compile for gfx942"
    grep -q '\.private_segment_fixed_size: 0' "$work/sl.s" || fail "slices.tk: tiles went to scratch memory"
    ;;
obj)
    "$tkc" --target=gfx942 --emit=obj "$src/mma_single.tk" -o "$work/k.o" || fail "tkc failed"
    # ELF magic, ET_REL (1), EM_AMDGPU (224 = 0xe0)
    [ "$(od -An -tx1 -N4 "$work/k.o" | tr -d ' \n')" = 7f454c46 ] || fail "not an ELF file"
    [ "$(od -An -tu2 -j16 -N2 "$work/k.o" | tr -d ' ')" = 1 ] || fail "not a relocatable"
    [ "$(od -An -tu2 -j18 -N2 "$work/k.o" | tr -d ' ')" = 224 ] || fail "e_machine is not EM_AMDGPU"
    objdump=/usr/lib/llvm-22/bin/llvm-objdump
    if [ -x $objdump ]; then
        $objdump -d --mcpu=gfx942 "$work/k.o" | grep -q v_mfma_f32_32x32x8_bf16 || fail "llvm-objdump-22 shows no MFMA"
    fi
    lld=/usr/lib/llvm-22/bin/ld.lld
    if [ -x $lld ]; then
        $lld -shared "$work/k.o" -o "$work/k.hsaco" || fail "ld.lld-22 -shared failed"
        [ "$(od -An -tu2 -j16 -N2 "$work/k.hsaco" | tr -d ' ')" = 3 ] || fail "code object is not ET_DYN"
        echo "ok: ELF relocatable for amdgcn, linked into a code object"
    else
        echo "ok: ELF relocatable for amdgcn (no LLVM 22 ld.lld: linking not tested)"
    fi
    ;;
*) fail "unknown check $check" ;;
esac
