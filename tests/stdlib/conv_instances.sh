#!/usr/bin/env bash
# conv_instances.sh TKC ROOT — the tile configurations of conv2d.tk's generic
# kernels that bench/ours.py picks per layer (conv1x1_config, stem_config), each
# compiled by `tkc run --kernel 'NAME<...>'` and checked against the
# double-precision interpreter on odd shapes (pixels, channels and output
# channels that are not multiples of the tiles). The stdlib cases (cases/conv.txt)
# check the default instances against the C references in ref_conv.c; these
# instances differ from them only in their compile-time tile sizes.
set -u
tkc=$1
src=$2/stdlib-kernels/conv2d.tk
status=0
check() {   # KERNEL SIZES [--set ...]
  local kernel=$1 sizes=$2
  shift 2
  local out
  if ! out=$("$tkc" run "$src" --kernel "$kernel" --size "$sizes" "$@" --check --json --repeat 1 --warmup 0 --threads 2 2>&1); then
    echo "FAIL: $kernel $sizes: $(printf '%s' "$out" | tail -c 600)"
    status=1
  elif ! printf '%s' "$out" | grep -q '"correct":true'; then
    echo "FAIL: $kernel $sizes: not checked correct"
    status=1
  else
    echo "ok $kernel $sizes"
  fi
}
# the implicit gemm: <PM, PN> (dense_config), every channel path (C = 3, 20, 70)
check 'conv2d_nhwc_f32<112,64>' N=2,H=9,W=11,C=70,KH=3,KW=3,OC=65,OH=9,OW=11 --set stride=1 --set pad=1 --set use_relu=true
check 'conv2d_nhwc_f32<112,128>' N=1,H=15,W=13,C=20,KH=3,KW=3,OC=130,OH=8,OW=7 --set stride=2 --set pad=1
check 'conv2d_nhwc_f32<64,256>' N=1,H=7,W=7,C=70,KH=3,KW=3,OC=300,OH=7,OW=7 --set stride=1 --set pad=1
check 'conv2d_nhwc_f32<64,128>' N=1,H=11,W=9,C=3,KH=7,KW=7,OC=140,OH=6,OW=5 --set stride=2 --set pad=3
# 1×1 as a gemm: <TM, TN, KC1>
check 'conv2d_1x1_nhwc_f32<128,160,32>' P=301,C=24,OC=144 --set use_relu=true   # MobileNetV2 expand
check 'conv2d_1x1_nhwc_f32<128,32,144>' P=299,C=144,OC=24                       # MobileNetV2 project
check 'conv2d_1x1_nhwc_f32<128,256,160>' P=49,C=320,OC=290                      # two K steps of 160
check 'conv2d_1x1_nhwc_f32<64,256,64>' P=70,C=64,OC=256
check 'conv2d_1x1_nhwc_f32<112,160,32>' P=229,C=24,OC=150
check 'conv2d_1x1_nhwc_f32<64,256,160>' P=49,C=320,OC=270
check 'conv2d_1x1_nhwc_f32<32,256,48>' P=33,C=40,OC=300
check 'conv2d_1x1_nhwc_f32<32,160,32>' P=229,C=24,OC=150 --set use_clamp=true --set lo=0 --set hi=6   # f32, C <= 32: 32 rows
check 'conv2d_1x1_nhwc_f32<32,96,16>' P=301,C=16,OC=90
# the stem: <KWC, KHN, KT, SN>; X as [N, H, W·C], Wk as [KH·KW·C, OC]
check 'conv2d_stem_nhwc_f32<9,3,32,32,128>' N=1,H=17,WC=57,KK=27,OC=30,OH=9,OW=10 --set channels=3 --set kernel_h=3 --set stride=2 --set pad=1
check 'conv2d_stem_nhwc_f32<21,7,160,64,128>' N=2,H=19,WC=45,KK=147,OC=70,OH=10,OW=8 --set channels=3 --set kernel_h=7 --set stride=2 --set pad=3 --set use_relu=true
check 'conv2d_stem_nhwc_f32<9,3,32,32,64>' N=1,H=6,WC=28,KK=40,OC=9,OH=7,OW=9 --set channels=4 --set kernel_h=2 --set stride=1 --set pad=2   # chunked path
# depthwise: <CB> channels per block (dw_channel_block in runtime/ops/conv.c); C = 96, 144, 40
# (a multiple of 32, of 48, and of none: the last block's channel loads are masked), 3×3
# (taps' weights in registers) and 5×5 (the general window), stride 1 and 2
check 'conv2d_dw_nhwc_f32<32>' N=2,H=13,W=11,C=96,KH=3,KW=3,OH=7,OW=6 --set stride=2 --set pad=1 --set use_relu=true
check 'conv2d_dw_nhwc_f32<48>' N=1,H=9,W=10,C=144,KH=3,KW=3,OH=9,OW=10 --set stride=1 --set pad=1
check 'conv2d_dw_nhwc_f32<16>' N=3,H=7,W=5,C=40,KH=5,KW=5,OH=7,OW=5 --set stride=1 --set pad=2
check 'conv2d_dw_nhwc_bf16<32>' N=2,H=13,W=11,C=96,KH=3,KW=3,OH=7,OW=6 --set stride=2 --set pad=1
check 'conv2d_dw_nhwc_bf16<48>' N=1,H=9,W=10,C=144,KH=3,KW=3,OH=9,OW=10 --set stride=1 --set pad=1 --set use_relu=true
# bf16 (f32 accumulation, Y rounded once)
check 'conv2d_nhwc_bf16<112,128>' N=1,H=15,W=13,C=70,KH=3,KW=3,OC=130,OH=8,OW=7 --set stride=2 --set pad=1
check 'conv2d_nhwc_bf16<64,256>' N=1,H=7,W=7,C=20,KH=3,KW=3,OC=300,OH=7,OW=7 --set stride=1 --set pad=1 --set use_relu=true
check 'conv2d_1x1_nhwc_bf16<112,160,32>' P=301,C=24,OC=144
check 'conv2d_stem_nhwc_bf16<9,3,32,32,112>' N=2,H=17,WC=57,KK=27,OC=37,OH=9,OW=10 --set channels=3 --set kernel_h=3 --set stride=2 --set pad=1
check 'conv2d_stem_nhwc_bf16<21,7,160,64,128>' N=1,H=19,WC=45,KK=147,OC=70,OH=10,OW=8 --set channels=3 --set kernel_h=7 --set stride=2 --set pad=3
# the clamp in the store (relu6: use_clamp [0, 6]; a narrower window where sums are O(1)), one
# instance of each kernel family the runtime picks
check 'conv2d_nhwc_f32<112,128>' N=1,H=15,W=13,C=20,KH=3,KW=3,OC=130,OH=8,OW=7 --set stride=2 --set pad=1 --set use_clamp=true --set lo=0 --set hi=6
check 'conv2d_1x1_nhwc_f32<128,160,32>' P=301,C=24,OC=144 --set use_clamp=true --set lo=0 --set hi=1.5   # MobileNetV2 expand, ReLU6-like
check 'conv2d_dw_nhwc_f32<48>' N=1,H=9,W=10,C=144,KH=3,KW=3,OH=9,OW=10 --set stride=1 --set pad=1 --set use_clamp=true --set lo=-0.5 --set hi=0.5
check 'conv2d_dw_nhwc_bf16<32>' N=2,H=13,W=11,C=96,KH=3,KW=3,OH=7,OW=6 --set stride=2 --set pad=1 --set use_relu=true --set use_clamp=true --set lo=0 --set hi=0.5
check 'conv2d_stem_nhwc_f32<9,3,32,32,128>' N=1,H=17,WC=57,KK=27,OC=30,OH=9,OW=10 --set channels=3 --set kernel_h=3 --set stride=2 --set pad=1 --set use_clamp=true --set lo=-1 --set hi=1
exit $status
