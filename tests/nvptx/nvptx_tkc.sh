#!/bin/bash
# nvptx_tkc.sh CHECK TKC TESTS — tkc --target=sm_80/sm_90/sm_90a end to end, no GPU
# needed. The kernels are the AMDGPU tests' (tests/amdgpu/*.tk): one source, both vendors.
#   ptx          PTX text: mma.sync per K step, block sizes, entry points, LLVM IR,
#                shuffles of row reductions, transposed operands kept in registers
#   unsupported  a kernel the lowering refuses (a bf16 and an f32 mma): file:line, SM, both lines
#   stats        tkc --stats: shared memory and mma per K step always; registers,
#                spills and occupancy from ptxas where it exists, said to be unknown where not
#   ptxas        NVIDIA's assembler accepts the PTX for every SM, without spills
#                (exit 77 = skipped where the CUDA toolkit is not installed)
set -u
check=$1 tkc=$2 tests=$3
src=$tests/amdgpu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
count() { grep -c -- "$1" "$2" || true; }
MMA='mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32'

case $check in
ptx)
    "$tkc" --list-targets | grep -q '^sm_90a ' || fail "sm_90a is not listed"
    "$tkc" --target=sm_90a --emit=ptx "$src/gemm_kloop.tk" -o "$work/g.ptx" || fail "tkc failed"
    [ "$(count "$MMA" "$work/g.ptx")" = 32 ] || fail "64x64 accumulator, K step 16: want 32 mma.sync, got $(count "$MMA" "$work/g.ptx")"
    grep -q '^\.target sm_90a' "$work/g.ptx" || fail "not sm_90a PTX"
    "$tkc" --target=sm_80 --emit=ptx "$src/gemm_warps.tk" -o "$work/w.ptx" || fail "tkc failed (warps)"
    grep -q '\.reqntid 128' "$work/w.ptx" || fail "warps(4) is not a 128-thread block"
    "$tkc" --target=sm_90 --emit=ptx "$src/odd_tile.tk" -o "$work/o.ptx" || fail "tkc failed (48x48)"
    [ "$(count "$MMA" "$work/o.ptx")" = 18 ] || fail "48x48, K 16: want 18 mma.sync (3 x 6), got $(count "$MMA" "$work/o.ptx")"
    "$tkc" --target=sm_80 --emit=llvm "$src/mma_single.tk" -o "$work/k.ll" || fail "tkc failed (llvm)"
    grep -q 'define ptx_kernel void @mma_single(ptr addrspace(1)' "$work/k.ll" || fail "no ptx_kernel with global pointers"
    grep -q 'i64 %M, i64 %K, i64 %N' "$work/k.ll" || fail "sizes are not i64 arguments after the tensors"
    grep -q 'llvm.nvvm.read.ptx.sreg.ctaid.y' "$work/k.ll" || fail "no block id"
    "$tkc" --emit=ptx "$src/mma_single.tk" 2> "$work/err" && fail "--emit=ptx for the host succeeded"
    grep -q 'needs an NVIDIA target' "$work/err" || fail "--emit=ptx for the host: no clear message"
    # -c: a host object holding the PTX and the host grid, and a header of NAME_cuda(device pointers, sizes)
    TK_PTXAS=none "$tkc" --target=sm_80 -c "$src/mma_single.tk" -o "$work/k.o" || fail "-c for sm_80 failed"
    grep -q 'static inline int mma_single_cuda(tk_cuda_ptr A, tk_cuda_ptr B, tk_cuda_ptr C, int64_t M, int64_t K, int64_t N)' "$work/k.h" ||
        fail "-c for sm_80: no mma_single_cuda in the header"
    grep -q 'tk_rt_cuda_launch(&mma_single__cuda_kernel, grid, params)' "$work/k.h" || fail "-c for sm_80: the header does not launch"
    grep -q '.visible .entry mma_single(' "$work/k.o" || fail "-c for sm_80: no PTX in the object"
    "$tkc" --target=sm_80 -c "$tests/lang/errors/array_checker_errors.tk" -o "$work/bad.o" 2> "$work/err" && fail "-c of a bad file succeeded"
    # a kernel the NVPTX lowering refuses after the header is written: neither file stays
    "$tkc" --target=sm_80 -c "$src/unsupported_mixed_mma.tk" -o "$work/mixed.o" 2> "$work/err" && fail "-c of a refused kernel succeeded"
    grep -q 'share an operand type' "$work/err" || { cat "$work/err"; fail "-c of a refused kernel: no clear message"; }
    [ ! -e "$work/mixed.o" ] && [ ! -e "$work/mixed.h" ] || fail "-c of a refused kernel left $(ls "$work"/mixed.*) behind"
    # the example gemm: shared tiles, two barriers per K step, 64x64 per warp, K 32
    "$tkc" --target=sm_80 --emit=ptx "$tests/../examples/gemm.tk" -o "$work/e.ptx" || fail "tkc failed (examples/gemm.tk)"
    [ "$(count "$MMA" "$work/e.ptx")" = 64 ] || fail "examples/gemm.tk: want 64 mma.sync per K step, got $(count "$MMA" "$work/e.ptx")"
    [ "$(count 'bar.sync' "$work/e.ptx")" = 2 ] || fail "examples/gemm.tk: want 2 bar.sync"
    # (whole KiB: at a 1 KiB boundary, where the 128-byte swizzle starts)
    [ "$(count '^\s*\.shared .align 1024 .b8 .*\[8192\]' "$work/e.ptx")" = 2 ] || fail "examples/gemm.tk: As and Bs are not two 8 KiB shared arrays at 1 KiB"
    grep -q '\.reqntid 128' "$work/e.ptx" || fail "examples/gemm.tk: not 128 threads"
    # row reductions are butterflies of shuffles: softmax's row_max and row_sum over a
    # 16x64 tile are 2 elements per lane x 2 lane bits each = 8 shfl.sync.idx
    "$tkc" --target=sm_90a --emit=ptx "$tests/../examples/softmax.tk" -o "$work/s.ptx" || fail "tkc failed (softmax)"
    [ "$(count 'shfl.sync.idx.b32' "$work/s.ptx")" = 8 ] || fail "softmax: want 8 shfl.sync.idx, got $(count 'shfl.sync.idx.b32' "$work/s.ptx")"
    # mma_abt's B is K's A fragments, permuted in registers: no local memory
    "$tkc" --target=sm_80 --emit=ptx "$tests/emu/vectors.tk" -o "$work/v.ptx" || fail "tkc failed (vectors.tk)"
    [ "$(count '\.local' "$work/v.ptx")" = 0 ] || fail "vectors.tk: register vectors or operands went to local memory"
    "$tkc" --target=sm_90a --emit=ptx "$tests/../examples/attention.tk" -o "$work/a.ptx" || fail "tkc failed (attention)"
    [ "$(count "$MMA" "$work/a.ptx")" = 256 ] || fail "attention: want 256 mma.sync per key step (QK^T and PV at 64x64x64)"
    # mma of f32 tiles: three tf32 m16n8k8 per base tile (hi·hi + hi·lo + lo·hi)
    "$tkc" --target=sm_80 --emit=ptx "$tests/emu/f32_mma.tk" -o "$work/f.ptx" || fail "tkc failed (f32_mma.tk)"
    [ "$(count 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32' "$work/f.ptx")" = 96 ] || fail "f32_mma.tk: want 96 tf32 mma.sync"
    [ "$(count '\.local' "$work/f.ptx")" = 0 ] || fail "f32_mma.tk: operands went to local memory"
    # f16 operands: mma.sync.m16n8k16 .f16 (8 per K step of the gemm, 4 + 4 in the chain)
    "$tkc" --target=sm_80 --emit=ptx "$tests/emu/f16_mma.tk" -o "$work/h.ptx" || fail "tkc failed (f16_mma.tk)"
    [ "$(count 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' "$work/h.ptx")" = 16 ] || fail "f16_mma.tk: want 16 f16 mma.sync"
    # a transpose crosses lanes: each warp's scratch in shared memory, a warp barrier on each side
    "$tkc" --target=sm_90a --emit=ptx "$tests/emu/transpose.tk" -o "$work/t.ptx" || fail "tkc failed (transpose.tk)"
    [ "$(count 'bar.warp.sync' "$work/t.ptx")" -ge 2 ] || fail "transpose.tk: no warp barriers around the exchange"
    grep -q 'st.shared' "$work/t.ptx" && grep -q 'ld.shared' "$work/t.ptx" || fail "transpose.tk: no exchange through shared memory"
    echo "ok: 32 mma.sync per K step (64x64), 128-thread blocks, 48x48 in 16x8 tiles, ptx_kernel IR, examples/gemm.tk with shared tiles and barriers, softmax's shuffles, attention"
    ;;
unsupported)
    for f in "$src/unsupported_mixed_mma.tk"; do
        "$tkc" --target=sm_90a --emit=ptx "$f" -o "$work/u.ptx" 2> "$work/err"
        rc=$?
        cat "$work/err"
        [ $rc = 1 ] || [ $rc = 2 ] || fail "$f: exit status $rc, want 1 or 2"
        grep -q 'share an operand type' "$work/err" || fail "$f: no clear message"
        grep -q 'LLVM ERROR' "$work/err" && fail "$f: LLVM error"
    done
    "$tkc" --target=sm_80 --emit=ptx "$src/unsupported_mixed_mma.tk" 2>&1 | grep -q 'unsupported_mixed_mma.tk:12:5: sm_80: this mma takes rt<f32, 16, 16, row> operands, an earlier one in kernel mixed (line 9)' \
        || fail "mixed mma: message does not name both lines"
    ;;
stats)
    out=$(TK_PTXAS=none "$tkc" --stats --target=sm_90a "$tests/../examples/gemm.tk") || fail "tkc --stats failed"
    echo "$out"
    # two 8 KiB tiles and their two TMA barriers (16 bytes after the tiles)
    echo "$out" | grep -q '^kernel gemm (sm_90a): 128 threads, 16400 B shared; registers, spills and occupancy unknown (no ptxas' \
        || fail "stats without ptxas"
    echo "$out" | grep -q '64 mma.sync m16n8k16 per K step' || fail "mma per K step"
    # the pipelined example on sm_90a: its products are wgmma (B read by the warpgroup from shared tiles)
    out=$(TK_PTXAS=none "$tkc" --stats --target=sm_90a "$tests/../examples/gemm_pipelined.tk") || fail "tkc --stats failed"
    echo "$out"
    echo "$out" | grep -q '^kernel gemm_pipelined (sm_90a): 128 threads, 32800 B shared;.* wgmma: 8 wgmma.mma_async m64n128k16 in its PTX' \
        || fail "stats of a wgmma kernel"
    "$tkc" --stats "$tests/../examples/gemm.tk" 2> "$work/err" && fail "--stats for the host succeeded"
    grep -q -- '--stats needs an NVIDIA target' "$work/err" || fail "--stats for the host: no clear message"
    ptxas=$(command -v ptxas || true)
    [ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas
    if [ -n "$ptxas" ]; then
        out=$(TK_PTXAS=$ptxas "$tkc" --stats --target=sm_90a "$tests/../examples/gemm.tk") || fail "tkc --stats failed"
        echo "$out"
        echo "$out" | grep -Eq '16400 B shared, [0-9]+ registers, 0 B spill stores, 0 B spill loads, 0 B stack; occupancy [0-9]+ of 64 warps per SM' \
            || fail "stats with ptxas"
    else
        echo "(no ptxas here: the ptxas figures were not checked)"
    fi
    ;;
ptxas)
    ptxas=$(command -v ptxas || true)
    [ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas
    if [ -z "$ptxas" ]; then
        echo "SKIP: no ptxas (the CUDA toolkit is not installed): the PTX is not assembled here"
        exit 77
    fi
    for sm in sm_80 sm_90 sm_90a; do
        # (examples/attention.tk is left out: one warp holding 64x64 q, s and o spills; GPU configurations come later)
        for k in mma_single gemm_kloop gemm_warps odd_tile ../../examples/gemm ../emu/epilogue ../emu/vectors ../../examples/softmax \
                 ../emu/f32_mma ../emu/transpose ../emu/elements ../emu/packed ../emu/shared_stores ../emu/slices ../emu/bf16_lines ../emu/f16_mma ../emu/col_masks ../../stdlib-kernels/softmax ../../stdlib-kernels/layernorm ../../stdlib-kernels/rmsnorm; do
            "$tkc" --target=$sm --emit=ptx "$src/$k.tk" -o "$work/$(basename $k).ptx" || fail "tkc failed ($k, $sm)"
            "$ptxas" -arch=$sm -v "$work/$(basename $k).ptx" -o "$work/k.cubin" > "$work/log" 2>&1 || { cat "$work/log"; fail "ptxas rejected $k for $sm"; }
            # every kernel of the file: one line per kernel, none with a spill
            grep -q '0 bytes spill stores, 0 bytes spill loads' "$work/log" || { cat "$work/log"; fail "no ptxas -v figures for $k on $sm"; }
            ! grep -Eq '[1-9][0-9]* bytes spill (stores|loads)' "$work/log" || { cat "$work/log"; fail "$k spills on $sm"; }
            echo "$sm $k: $(grep -o 'Used [0-9]* registers.*' "$work/log")"
        done
    done
    ;;
stdlib_spills)
    # every stdlib kernel at its GPU configuration (target(gpu: ...) defaults and
    # per-target constants): no spills by tkc --stats (ptxas -v). The last gaps closed
    # (issue 28): whole 16x128 f32 tiles in the d128 attention kernels (chunked by
    # head dim now), whole packed planes per warp (staged through shared memory),
    # and ptxas capping registers for occupancy (.minnctapersm 1).
    command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ] || { echo "SKIP: no ptxas (the CUDA toolkit is not installed)"; exit 77; }
    for file in gemm:30 attention:12 attention_decode:10 conv2d:8 ffn:12 ffn_packed:8 softmax:2 layernorm:2 rmsnorm:2; do
        for sm in sm_80 sm_90a; do
            "$tkc" --target=$sm --stats "$src/../../stdlib-kernels/${file%%:*}.tk" > "$work/stats" 2>&1 || { cat "$work/stats"; fail "tkc --stats failed on ${file%%:*}.tk, $sm"; }
            [ "$(grep -c '^kernel ' "$work/stats")" -ge "${file#*:}" ] || { cat "$work/stats"; fail "fewer kernels than ${file%%:*}.tk has ($sm)"; }
            grep -q 'registers' "$work/stats" || { cat "$work/stats"; fail "no ptxas figures ($sm)"; }
            while read -r _ name _; do
                line=$(grep "^kernel $name " "$work/stats")
                if echo "$line" | grep -q ' 0 B spill stores, 0 B spill loads'; then
                    echo "$sm $name: $(echo "$line" | grep -o '[0-9]* registers')"
                else
                    echo "$line"; fail "$name spills on $sm"
                fi
            done < <(grep '^kernel ' "$work/stats")
        done
    done
    ;;
*) fail "unknown check $check" ;;
esac
