#!/bin/bash
# emu_run.sh CHECK TKC TESTS — kernels lowered for sm_80 and run on the emulation
# target, checked by tkc run against the TIR interpreter (double precision, with
# its error bounds). Sizes are not multiples of the tiles, so the masked edges of
# every load and store are exercised; grids have many blocks, run on 1 and 2 threads.
#   kernels      every register-tile test kernel (one mma, a K loop, 4 warps, 48x48 tiles;
#                every ldmatrix among them must be free of bank conflicts)
#                examples/gemm.tk (shared tiles loaded by the block, sync()),
#                epilogue.tk (maps, select, fma, an accumulator converted to an A operand),
#                vectors.tk (rv in row, column, replicated and strided distributions,
#                reductions by shuffles, broadcasts, masks, tril/triu, mma_abt),
#                examples/softmax.tk and examples/attention.tk (plain and causal),
#                attention_warps.tk (the same at a GPU configuration: 4 warps),
#                f32_mma.tk (mma of f32 tiles: tf32 split in two, a gemm and attention),
#                transpose.tk (layouts that cross lanes, through shared memory),
#                elements.tk (t[i, j] and v[i] read and written at run-time indices),
#                packed.tk (tiles stored into and loaded from packed planes, bf16 and f32,
#                an odd plane, a shared tile from a packed plane),
#                shared_stores.tk (register tiles and vectors stored into st and sv by
#                a warp, read back by it in another layout and by other warps; st and
#                sv loaded from and stored into tensors by the block),
#                slices.tk and tests/tir/subtile.tk (sub-tiles as mma operands,
#                rows and columns at run-time indices, sub-vectors, all read and written),
#                bf16_lines.tk (reductions and broadcasts of bf16 and f32 col tiles),
#                f16_mma.tk (mma.sync with f16 operands: a gemm, a product chain),
#                col_masks.tk (comparisons, logic, selects and masks of col tiles),
#                tests/lang/ok/const_targets.tk (per-target constants at their gpu arms), and
#                the stdlib softmax (its bf16 form keeps e in an sv), layernorm and
#                rmsnorm kernels (f32 and bf16), and stdlib gemm kernels at their GPU
#                configurations (gemm_bf16 and its _ep/_nt_ep forms staged through
#                double-buffered shared tiles: cp.async where rows are whole 16-byte
#                chunks, element loads where not; others 64x64 tiles; two warps per block in gemm_f32_small and
#                the packed m32 form; an odd row length keeps gemm_f32_small's A off
#                the vector path), and ffn_packed.tk's kernels (32x32 planes on a GPU:
#                their data is laid out per target, so they are checked here and not
#                against the CPU configuration below)
#   configs      stdlib kernels at their GPU configuration on the emulator against the
#                same kernels at their CPU configuration on the host (same inputs)
#   combine      attention_decode_combine_{f32,bf16} on the emulator, fed the partial
#                results (PartO, PartML) of a split decode run on the host: checked
#                against the interpreter, and O against the same decode in one pass
#                (NS = 1), which must agree with the combined chunks
#                pipelined.tk (a double-buffered gemm: cp.async copies in flight while
#                the warps multiply the other tiles; collective operations on one
#                tile in program order with no sync() between them)
#   nosync       the example gemm without a sync(): the emulator must see the race,
#                with element-by-element loads and with cp.async (whose copies the
#                emulator lands only at the thread's wait)
#   wgmma        wgmma.tk's kernels and the pipelined gemms on sm_90a-emu: products with B
#                read in place from a shared tile by a warpgroup (every descriptor layout:
#                N- and K-major, 128-byte panels, 64- and 32-byte rows), each checked
#                against the interpreter and required to have run wgmma (or none, where
#                B depends on the warp); the stdlib's staged bf16 gemms at their sm_90a
#                configuration; wgmma.tk's sm_90a PTX through ptxas where it is installed
#   unsupported  a kernel the lowering refuses (a bf16 and an f32 mma in one kernel):
#                a clear message, no crash
set -u
check=$1 tkc=$2 tests=$3
src=$tests/amdgpu
fail() { echo "FAIL: $*"; exit 1; }

case $check in
kernels)
    while read -r k sizes threads extra; do
        kernel=
        case $k in *:*) kernel="--kernel ${k#*:}"; k=${k%%:*} ;; esac
        # shellcheck disable=SC2086 # kernel and extra are words or nothing
        out=$("$tkc" run "$src/$k.tk" $kernel --target=sm_80-emu --size "$sizes" --check --threads "$threads" --repeat 1 $extra 2>&1)
        echo "$out" | grep -E '^(kernel|correct|  C |emulator)'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$k $sizes on $threads thread(s)"; }
        # the swizzle keeps every ldmatrix of these kernels free of bank conflicts
        echo "$out" | grep -q '^emulator  [0-9]* ldmatrix in the first launch, 0 of' || fail "$k: ldmatrix with bank conflicts"
    done <<'LIST'
mma_single M=45,K=13,N=50 1
gemm_kloop M=77,K=100,N=93 2
gemm_kloop M=64,K=16,N=64 1
gemm_warps M=130,K=70,N=61 2
odd_tile M=50,K=40,N=100 1
../../examples/gemm M=200,K=70,N=150 2
../../examples/gemm M=197,K=72,N=152 1
../../examples/gemm_pipelined M=200,K=136,N=264 2
../../examples/gemm_pipelined M=130,K=70,N=61 1
../emu/pipelined:gemm_pipelined M=150,K=136,N=200 2
../emu/pipelined:gemm_pipelined M=77,K=100,N=45 1
../emu/pipelined:in_order M=70,N=136 2
../emu/pipelined:in_order M=33,N=50 1
../emu/epilogue M=45,K=16,N=32,D=50 1
../emu/regress_wide_exp M=314,K=7,N=88 2
../emu/regress_two_shared M=133,K=16,N=21 1
../emu/regress_store_order M=30,N=33 2
../emu/vectors:row_stats M=77,K=40,N=29 2
../emu/vectors:col_bias M=45,K=23,N=100,X=3 1
../emu/vectors:both M=45,K=23,N=37 2
../emu/vectors:strided R=5,L=150 1
../emu/vectors:causal M=100,K=40,N=70 2
../../examples/softmax M=77,N=150 2
../../examples/attention B=2,H=3,S=77 2
../../examples/attention B=1,H=2,S=130 1 --set causal=true
../emu/attention_warps B=1,H=2,S=150 2 --set causal=true
../emu/attention_warps B=2,H=1,S=77 1
../emu/f32_mma:gemm_f32 M=77,K=100,N=45 2
../emu/transpose:transpose_tiles M=77,N=100 2
../emu/transpose:product_at M=77,K=50,N=45 1
../emu/elements M=45,N=32,R=1 2 --set shift=5
../emu/f32_mma:attention_f32 B=2,S=77 1
../emu/packed:pack_bf16 K=40,N=100,NB=3,KT=2 2
../emu/packed:gemm_packed M=77,K=40,N=100,NB=3,KT=2 2
../emu/packed:pack_f32 M=77,N=100,NB=3,MB=3 1
../emu/packed:pack_odd M=30,N=100,NB=3 2
../emu/packed:shared_from_packed NB=3,KT=2 1
../emu/shared_stores:swap_halves M=77,N=100 2
../emu/shared_stores:restage M=45,K=32,N=70 1
../emu/shared_stores:vector_stage R=5,N=400 2
../emu/shared_stores:block_copy M=77,N=100 2
../emu/shared_stores:vector_copy R=5,N=150 1
../emu/slices:operand_parts M=77,K=64,N=70 2
../emu/slices:lines M=77,N=64 1
../emu/bf16_lines M=77,N=64 2
../emu/f16_mma:gemm_f16 M=77,K=100,N=45 2
../emu/f16_mma:chain_f16 M=77,K=40,N=30,D=13 1
../emu/col_masks K=77,N=45 2
../tir/subtile M=40,N=33 1
../lang/ok/const_targets M=77,N=100 2
../../stdlib-kernels/softmax:softmax_f32 R=37,C=300 2
../../stdlib-kernels/softmax:softmax_bf16 R=19,C=1000 1
../../stdlib-kernels/softmax:softmax_bf16 R=37,C=300 2
../../stdlib-kernels/layernorm:layernorm_f32 R=37,C=300 2
../../stdlib-kernels/layernorm:layernorm_bf16 R=19,C=100 1
../../stdlib-kernels/rmsnorm:rmsnorm_f32 R=37,C=300 1
../../stdlib-kernels/rmsnorm:rmsnorm_bf16 R=19,C=100 2
../../stdlib-kernels/gemm:gemm_bf16 M=150,K=70,N=130 2
../../stdlib-kernels/gemm:gemm_bf16 M=150,K=136,N=264 1
../../stdlib-kernels/gemm:gemm_bf16_ep M=100,K=72,N=136 2 --set use_bias=true --set use_residual=true --set act=3
../../stdlib-kernels/gemm:gemm_bf16_ep_bf16 M=70,K=200,N=150 1 --set use_bias=true --set use_residual=true --set act=2
../../stdlib-kernels/gemm:gemm_bf16_nt_ep_bf16 M=130,K=96,N=200 2 --set use_residual=true --set act=1
../../stdlib-kernels/gemm:gemm_f32_small M=150,K=71,N=130 1
../../stdlib-kernels/gemm:gemm_bf16_nt_ep M=100,K=64,N=77 2 --set use_bias=true --set use_residual=true --set act=2
../../stdlib-kernels/gemm:gemv_bf16 M=5,K=100,N=200 1
../../stdlib-kernels/gemm:gemm_bf16_packed_m32 M=45,K=300,N=300,NB=2,KT=2 2
../../stdlib-kernels/ffn_packed:ffn_swiglu_bf16_packed T=20,D=70,NF=2,DT=3,ND=3,FT=2 2
../../stdlib-kernels/ffn_packed:ffn_gelu_f32_packed<2> T=5,D=40,F=50,NF=2,DT=2,ND=2,FT=2 1
../../stdlib-kernels/ffn_packed:ffn_swiglu_f32_packed_part S=2,T=20,D=40,NF=3,DT=2,ND=2,FT=3 2
../../stdlib-kernels/ffn_packed:ffn_gelu_bf16_packed_part S=2,T=5,D=40,F=70,NF=3,DT=2,ND=2,FT=3 1
../../stdlib-kernels/ffn_packed:ffn_gelu_bf16_packed T=20,D=40,F=50,NF=2,DT=2,ND=2,FT=2 2
../../stdlib-kernels/ffn_packed:ffn_swiglu_f32_packed T=5,D=70,NF=2,DT=3,ND=3,FT=2 1
../../stdlib-kernels/ffn_packed:ffn_swiglu_bf16_packed_part S=3,T=5,D=40,NF=3,DT=2,ND=2,FT=3 2
../../stdlib-kernels/ffn_packed:ffn_gelu_f32_packed_part<1> S=2,T=20,D=40,F=70,NF=3,DT=2,ND=2,FT=3 1
LIST
    ;;
configs)
    # stdlib kernels at their GPU configuration (emulator) against the same kernels at
    # their CPU configuration (host), on the same seeded inputs: the CPU configuration
    # is checked against C references by the stdlib tests, so this checks the GPU
    # tiling (several warps per block, 16-row query tiles, 16/32-key steps) by a
    # route that does not go through the interpreter (same_outputs.py: tolerances)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    n=0
    while read -r file kernel sizes outputs extra; do
        n=$((n + 1))
        for t in host sm_80-emu; do
            mkdir -p "$work/$n/$t"
            # shellcheck disable=SC2086 # extra is words or nothing
            "$tkc" run "$tests/../stdlib-kernels/$file.tk" --kernel "$kernel" --target=$t --size "$sizes" --seed $n \
                --repeat 1 --threads 2 --output-dir "$work/$n/$t" $extra > "$work/$n/$t.log" 2>&1 ||
                { cat "$work/$n/$t.log"; fail "$kernel on $t"; }
        done
        echo -n "$kernel $sizes: "
        # shellcheck disable=SC2086 # outputs is a comma-separated list of names
        python3 "$tests/emu/same_outputs.py" "$work/$n/host" "$work/$n/sm_80-emu" ${outputs//,/ } || fail "$kernel: the GPU configuration differs from the CPU one"
    done <<'LIST'
attention attention_bf16_d64 B=2,H=4,S=150,D=64,HKV=2,SKV=150,MB=1,HM=1,MQ=1,MK=150 O:bf16 --set causal=true --set scale=0.125
attention attention_f32_d128 B=1,H=4,S=99,D=120,HKV=4,SKV=130,MB=1,HM=4,MQ=99,MK=130 O --set use_mask=true --set scale=0.1
attention attention_bf16_d128_len B=1,H=2,S=40,D=128,HKV=1,SMAX=200,MB=1,HM=1,MQ=1,MK=90 O:bf16 --set causal=true --set scale=0.09 --set len=90
attention attention_f32_d64_len B=1,H=3,S=70,D=33,HKV=3,SMAX=80,MB=1,HM=1,MQ=1,MK=80 O --set scale=0.2 --set len=77
attention attention_f32_d128_len B=1,H=2,S=30,D=128,HKV=1,SMAX=100,MB=1,HM=1,MQ=1,MK=1 O --set causal=true --set scale=0.09 --set len=70
attention attention_bf16_d128 B=2,H=4,S=77,D=100,HKV=2,SKV=90,MB=1,HM=4,MQ=77,MK=90 O:bf16 --set use_mask=true --set scale=0.1
attention pack_kv_bf16_d64 B=1,HKV=2,SKV=150,D=60,BKH=2,NKB=2,SKVP=256 KP:bf16,VP:bf16
attention pack_kv_bf16_d128 B=2,HKV=1,SKV=100,D=128,BKH=2,NKB=1,SKVP=128 KP:bf16,VP:bf16
attention attention_bf16_d64_kvp B=1,H=4,S=100,D=64,BKH=2,NKB=2,SKVP=256,MB=1,HM=1,MQ=1,MK=1 O:bf16 --set SKV=200 --set causal=true --set scale=0.125
attention attention_bf16_d128_kvp B=1,H=2,S=70,D=120,BKH=1,NKB=2,SKVP=256,MB=1,HM=2,MQ=70,MK=256 O:bf16 --set SKV=150 --set use_mask=true --set scale=0.09
attention_decode attention_decode_bf16_d64 B=1,H=8,S=1,D=64,HKV=2,SKV=300,NS=1 O:bf16 --set scale=0.125
attention_decode attention_decode_f32_d128 B=2,H=3,S=1,D=100,HKV=3,SKV=200,NS=3 PartO,PartML --set scale=0.1
attention_decode attention_decode_bf16_d128_len B=1,H=4,S=1,D=128,HKV=1,SMAX=256,NS=2 PartO:bf16,PartML --set scale=0.09 --set len=150
attention_decode attention_decode_f32_d128_len B=1,H=8,S=1,D=128,HKV=2,SMAX=100,NS=1 O --set scale=0.09 --set len=77
attention_decode attention_decode_bf16_d128 B=2,H=2,S=1,D=128,HKV=2,SKV=90,NS=1 O:bf16 --set scale=0.1
gemm gemm_f32_small M=150,K=71,N=130 C
gemm gemm_bf16_nt_ep M=100,K=64,N=77 C --set use_bias=true --set use_residual=true --set act=3
gemm gemm_bf16_packed_m32 M=45,K=300,N=300,NB=2,KT=2 C
gemm gemm_f32_packed_m32 M=45,K=300,N=300,NB=2,KT=2 C
gemm gemv_f32_packed M=5,K=300,N=290,NB=2,KT=2 C
gemm gemm_f32_packed M=40,K=200,N=100,NB=1,KT=1 C
gemm pack_b_f32 K=300,N=290,NB=2,KT=2 P
conv2d conv2d_nhwc_f32 N=1,H=6,W=7,C=3,KH=3,KW=3,OC=20,OH=3,OW=4 Y --set stride=2 --set pad=1
conv2d conv2d_nhwc_bf16 N=1,H=5,W=7,C=20,KH=3,KW=2,OC=37,OH=3,OW=6 Y:bf16 --set stride=1 --set pad=0 --set use_clamp=true --set lo=-0.5 --set hi=0.5
conv2d conv2d_nhwc_f32 N=1,H=4,W=5,C=40,KH=3,KW=3,OC=37,OH=4,OW=5 Y --set stride=1 --set pad=1 --set use_relu=true
conv2d conv2d_1x1_nhwc_bf16 P=100,C=40,OC=70 Y:bf16 --set use_relu=true
conv2d conv2d_1x1_nhwc_f32 P=77,C=24,OC=50 Y
conv2d conv2d_dw_nhwc_f32 N=1,H=9,W=10,C=48,KH=3,KW=3,OH=9,OW=10 Y --set stride=1 --set pad=1
conv2d conv2d_dw_nhwc_bf16 N=1,H=9,W=10,C=40,KH=5,KW=5,OH=5,OW=5 Y:bf16 --set stride=2 --set pad=2
conv2d conv2d_stem_nhwc_f32 N=1,H=20,WC=60,KK=27,OC=20,OH=10,OW=10 Y --set channels=3 --set kernel_h=3 --set stride=2 --set pad=1
conv2d conv2d_stem_nhwc_bf16 N=1,H=9,WC=27,KK=147,OC=20,OH=5,OW=5 Y:bf16 --set channels=3 --set kernel_h=7 --set stride=2 --set pad=3
ffn ffn_swiglu_bf16 T=20,D=530,F=70 Y:bf16
ffn ffn_swiglu_f32 T=33,D=40,F=50 Y
ffn ffn_gelu_bf16<1> T=20,D=40,F=70 Y:bf16
ffn ffn_gelu_f32 T=5,D=70,F=100 Y
ffn ffn_gelu_bf16_part<2> S=3,T=5,D=70,F=200 P:sum
ffn ffn_swiglu_f32_part S=2,T=20,D=40,F=100 P:sum
ffn ffn_partial_sum_bias_bf16 S=3,T=20,D=70 Y:bf16
gemm gemm_bf16_nt M=100,K=70,N=77 C
gemm gemm_f32_nt M=77,K=50,N=45 C
gemm gemm_bf16_ep M=70,K=40,N=50 C --set use_bias=true --set use_residual=true --set act=1
gemm gemm_bf16_ep_bf16 M=70,K=40,N=50 C:bf16 --set use_bias=true --set act=2
gemm gemm_f32_ep M=45,K=33,N=70 C --set use_residual=true --set act=3
gemm gemm_bf16_nt_ep_bf16 M=50,K=64,N=45 C:bf16 --set use_bias=true --set use_residual=true
gemm gemm_f32_nt_ep M=45,K=40,N=37 C --set use_bias=true --set act=1
gemm gemm_bf16_batched BT=3,M=40,K=33,N=70 C
gemm gemm_bf16_nt_batched BT=2,M=45,K=40,N=33 C
gemm gemm_f32_batched BT=2,M=33,K=20,N=70 C
gemm pack_b_bf16 K=300,N=290,NB=2,KT=2 P:bf16
gemm gemm_bf16_packed M=40,K=200,N=100,NB=1,KT=1 C
gemm gemv_f32 M=5,K=100,N=200 C
gemm gemv_bf16_packed M=5,K=300,N=290,NB=2,KT=2 C
gemm gemm_bf16_small M=70,K=100,N=77 C
gemm gemm_bf16_tiny M=45,K=40,N=33 C
gemm gemm_f32_tiny M=45,K=40,N=33 C
gemm pack_b_bf16_small K=100,N=70,NB=2,KT=2 P:bf16
gemm gemm_bf16_small_packed M=70,K=100,N=120,NB=2,KT=2 C
gemm pack_b_bf16_tiny K=50,N=40,NB=2,KT=2 P:bf16
gemm gemm_bf16_tiny_packed M=45,K=60,N=64,NB=2,KT=2 C
attention attention_f32_d64 B=1,H=2,S=70,D=50,HKV=1,SKV=90,MB=1,HM=1,MQ=1,MK=90 O --set causal=true --set scale=0.15
attention attention_bf16_d64_len B=1,H=2,S=40,D=64,HKV=2,SMAX=100,MB=1,HM=1,MQ=1,MK=1 O:bf16 --set scale=0.125 --set len=70
attention_decode attention_decode_f32_d64 B=1,H=8,S=1,D=64,HKV=2,SKV=150,NS=1 O --set scale=0.125
attention_decode attention_decode_bf16_d64_len B=2,H=2,S=1,D=60,HKV=2,SMAX=200,NS=2 PartO:bf16,PartML --set scale=0.1 --set len=130
attention_decode attention_decode_f32_d64_len B=1,H=4,S=1,D=64,HKV=4,SMAX=120,NS=1 O --set scale=0.1 --set len=99
ffn ffn_swiglu_bf16_part S=2,T=20,D=40,F=100 P:sum
ffn ffn_gelu_f32_part<1> S=3,T=5,D=70,F=200 P:sum
ffn ffn_partial_sum_bf16 S=3,T=20,D=70 Y:bf16
ffn ffn_partial_sum_f32 S=2,T=5,D=40 Y
ffn ffn_partial_sum_bias_f32 S=2,T=20,D=70 Y
LIST
    ;;
combine)
    # random partials would make m and l meaningless (outputs near 1e28, where a
    # relative tolerance proves nothing): the combine kernels get real ones
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    dec=$tests/../stdlib-kernels/attention_decode.tk
    while read -r t ns kv sizes; do
        for n in 1 "$ns"; do
            "$tkc" run "$dec" --kernel "attention_decode_${t}_d128" --size "$sizes,$kv,NS=$n" --seed 7 --repeat 1 \
                --set scale=0.1 --output-dir "$work/$t.$n" > "$work/$t.$n.log" 2>&1 || { cat "$work/$t.$n.log"; fail "decode $t NS=$n"; }
        done
        out=$("$tkc" run "$dec" --kernel "attention_decode_combine_$t" --target=sm_80-emu --size "$sizes,NS=$ns" \
            --input "PartO=$work/$t.$ns/PartO.npy" --input "PartML=$work/$t.$ns/PartML.npy" \
            --expect "O=$work/$t.1/O.npy" --repeat 1 --threads 2 2>&1)
        echo "$out" | grep -E '^(kernel|correct|  (O|PartO|PartML) )'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "attention_decode_combine_$t"; }
    done <<'LIST'
f32 5 HKV=3,SKV=333 B=2,H=6,S=1,D=100
bf16 3 HKV=1,SKV=200 B=1,H=4,S=1,D=128
LIST
    ;;
nosync)
    # the example gemm without its first sync(): threads read shared tiles that
    # others have not written yet. The emulator runs threads one at a time, so
    # this must give wrong numbers, as it may on a GPU.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    sed '0,/^        sync();/{//d}' "$tests/../examples/gemm.tk" > "$work/nosync.tk"
    [ "$(grep -c 'sync();' "$work/nosync.tk")" = 1 ] || fail "could not remove the first sync()"
    # K=70: element-by-element loads; K=72, N=152: cp.async (rows of whole
    # 16-byte chunks), whose copies land only at the wait in sync()
    for sizes in M=200,K=70,N=150 M=200,K=72,N=152; do
        out=$("$tkc" run "$work/nosync.tk" --kernel gemm --target=sm_80-emu --size $sizes --check --repeat 1 2>&1)
        echo "$out" | grep -E '^(correct|  C |emulator)'
        echo "$out" | grep -q '^correct   NO' || fail "a missing sync() went unnoticed ($sizes)"
    done
    out=$("$tkc" run "$tests/emu/pipelined.tk" --kernel gemm_pipelined --target=sm_80-emu --size M=150,K=136,N=200 --check --repeat 1 2>&1)
    echo "$out" | grep -q '^emulator .* [1-9][0-9]* cp.async;' || { echo "$out"; fail "the pipelined gemm made no cp.async"; }
    ;;
wgmma)
    while read -r k sizes want; do
        kernel="--kernel ${k#*:}"; k=${k%%:*}
        # shellcheck disable=SC2086 # kernel is two words
        out=$("$tkc" run "$src/$k.tk" $kernel --target=sm_90a-emu --size "$sizes" --check --threads 2 --repeat 1 2>&1)
        echo "$out" | grep -E '^(kernel|correct|emulator)'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$k $kernel $sizes on sm_90a-emu"; }
        n=$(echo "$out" | sed -n 's/^emulator .*; \([0-9]*\) wgmma; [0-9]* tma$/\1/p')
        case $want in
        some) [ "${n:-0}" -gt 0 ] || fail "$k $kernel: no wgmma ran" ;;
        none) [ "${n:-1}" -eq 0 ] || fail "$k $kernel: $n wgmma ran where B depends on the warp" ;;
        esac
    done <<'LIST'
../emu/wgmma:ab_panels M=200,K=100,N=300 some
../emu/wgmma:ab_panels M=128,K=64,N=256 some
../emu/wgmma:ab_rows64 M=130,K=50,N=70 some
../emu/wgmma:abt_rows64 M=130,K=70,N=150 some
../emu/wgmma:abt_panels M=150,K=200,N=100 some
../emu/wgmma:ab_wide M=140,K=40,N=300 some
../emu/wgmma:ab_per_warp M=40,K=40,N=300 none
../emu/wgmma:ab_small M=130,K=72,N=40 some
../emu/wgmma:ab_small M=70,K=33,N=20 some
../emu/pipelined:gemm_pipelined M=150,K=136,N=200 some
../../examples/gemm_pipelined:gemm_pipelined M=200,K=136,N=264 some
../../stdlib-kernels/gemm:gemm_bf16 M=150,K=136,N=264 some
../../stdlib-kernels/gemm:gemm_bf16 M=130,K=70,N=61 some
LIST
    # the stdlib's staged gemms at their sm_90a configuration (warps of whole rows)
    for args in "gemm_bf16_ep M=100,K=72,N=136 --set use_bias=true --set use_residual=true --set act=3" \
                "gemm_bf16_ep_bf16 M=70,K=200,N=150 --set use_residual=true --set act=2" \
                "gemm_bf16_nt_ep M=130,K=96,N=200 --set use_bias=true" \
                "gemm_bf16_nt_ep_bf16 M=130,K=96,N=200 --set use_residual=true --set act=1"; do
        # shellcheck disable=SC2086 # args are words
        set -- $args
        k=$1 sizes=$2
        shift 2
        out=$("$tkc" run "$tests/../stdlib-kernels/gemm.tk" --kernel "$k" --target=sm_90a-emu --size "$sizes" "$@" --check --threads 2 --repeat 1 2>&1)
        echo "$out" | grep -E '^(kernel|correct|emulator)'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$k $sizes on sm_90a-emu"; }
        echo "$out" | grep -q '^emulator .* [1-9][0-9]* wgmma; [1-9][0-9]* tma$' || fail "$k: no wgmma, or no TMA copy, ran"
    done
    ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || true)
    if [ -n "$ptxas" ]; then
        tmp=$(mktemp -d)
        "$tkc" --emit=ptx --target=sm_90a "$tests/emu/wgmma.tk" -o "$tmp/w.ptx" || fail "wgmma.tk: no PTX for sm_90a"
        grep -q 'wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16' "$tmp/w.ptx" || fail "wgmma.tk: no wgmma in the PTX"
        "$ptxas" -arch=sm_90a "$tmp/w.ptx" -o "$tmp/w.cubin" || fail "ptxas refused wgmma.tk's sm_90a PTX"
        rm -rf "$tmp"
        echo "ptxas     wgmma.tk's sm_90a PTX assembles"
    else
        echo "ptxas     not installed: the PTX is not assembled"
    fi
    ;;
tma)
    # shared tiles loaded by the TMA on sm_90a-emu, one kernel per layout
    # (tests/emu/tma.tk), checked against the interpreter and required to
    # have made TMA copies — or none where the tensor's rows are not whole
    # 16-byte chunks (the element-by-element load takes over)
    while read -r k sizes want; do
        out=$("$tkc" run "$tests/emu/tma.tk" --kernel "$k" --target=sm_90a-emu --size "$sizes" --check --threads 2 --repeat 1 2>&1)
        echo "$out" | grep -E '^(kernel|correct|emulator)'
        echo "$out" | grep -q '^correct   yes' || { echo "$out"; fail "$k $sizes on sm_90a-emu"; }
        n=$(echo "$out" | sed -n 's/^emulator .*; \([0-9]*\) tma$/\1/p')
        case $want in
        some) [ "${n:-0}" -gt 0 ] || fail "$k $sizes: no TMA copy" ;;
        none) [ "${n:-1}" -eq 0 ] || fail "$k $sizes: $n TMA copies from rows that are not whole chunks" ;;
        esac
    done <<'LIST'
panels M=70,N=304 some
panels M=64,N=128 some
panels M=70,N=300 none
rows128 M=40,N=136 some
rows64 M=70,N=72 some
rows32 M=130,N=40 some
batched_f32 B=3,M=40,N=136 some
sum_slices K=5,M=70,N=136 some
sum_slices K=1,M=20,N=64 some
LIST
    ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || true)
    if [ -n "$ptxas" ]; then
        tmp=$(mktemp -d)
        for arch in sm_90 sm_90a; do
            "$tkc" --emit=ptx --target=$arch "$tests/emu/tma.tk" -o "$tmp/t.ptx" || fail "tma.tk: no PTX for $arch"
            grep -q 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' "$tmp/t.ptx" || fail "tma.tk: no TMA copy in the $arch PTX"
            grep -q '.param .align 64 .b8 panels_param_4\[128\]' "$tmp/t.ptx" || fail "tma.tk: the map is not a 128-byte parameter"
            "$ptxas" -arch=$arch "$tmp/t.ptx" -o "$tmp/t.cubin" || fail "ptxas refused tma.tk's $arch PTX"
        done
        rm -rf "$tmp"
        echo "ptxas     tma.tk's sm_90 and sm_90a PTX assembles"
    else
        echo "ptxas     not installed: the PTX is not assembled"
    fi
    ;;
unsupported)
    # a bf16 and an f32 mma in one kernel (one base tile per kernel): refused
    out=$("$tkc" run "$src/unsupported_mixed_mma.tk" --target=sm_80-emu --size M=16,K=16,N=16 2>&1)
    rc=$?
    echo "$out" | head -5
    [ $rc != 0 ] || fail "unsupported_mixed_mma.tk ran on the emulator"
    echo "$out" | grep -q 'share an operand type' || fail "no clear message"
    echo "$out" | grep -q 'unsupported_mixed_mma.tk:12:5' || fail "the message does not name the line"
    ;;
*) fail "unknown check $check" ;;
esac
