#!/usr/bin/env bash
# bench/runtime/run.sh [--rounds N] [--full] — the tensor runtime beside NumPy
# and PyTorch eager, on 1 and 2 threads, with the measured bandwidth as the
# roofline (issue 26's performance goals). Reports ratios measured in the same
# run; never a test. Builds tk_runtime_bench and bench_peak (Release) in
# build-bench/. The peers run under bench/.venv's Python (PyPI's current
# torch, made by bench/run.sh) when it has torch, else Debian's
# /usr/bin/python3 with python3-torch; the report names the versions.
#   add/sum over 16M f32: % of the triad / read bandwidth, ratio to NumPy and PyTorch
#   sum0/sumrow: the sums over dim 0 / dim 1 of a 4096² f32 matrix (% of read)
#   add/mul/exp/gelu/sum over 16M bf16 beside PyTorch (% of triad, copy, read)
#   tiny: the cost of one 8-element add (PyTorch eager pays several µs)
#   conv_grouped/conv_dilated/conv_transpose: the convolutions outside the direct conv
#   kernels (im2col or col2im around the gemm kernels), f32, beside PyTorch (oneDNN)
#   matmul 1024³ (and 4096³ with --full): tk_matmul against the same stdlib kernel
#   launched directly (the runtime should add nothing)
#   the decoder block of examples/c/transformer_block.c (d 1024, 16 heads): a 128-token
#   prefill and a decode step with a 512-token cache, beside PyTorch eager (block_torch.py)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROUNDS=3
FULL=0
while (($#)); do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --full) FULL=1; shift ;;
    *) echo "usage: run.sh [--rounds N] [--full]" >&2; exit 2 ;;
  esac
done
BUILD=$ROOT/build-bench
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j2 --target tk_runtime_bench bench_peak tk_example_transformer_block > /dev/null
BIN=$BUILD/bench/tk_runtime_bench
PY=/usr/bin/python3
if [[ -x $ROOT/bench/.venv/bin/python ]] && "$ROOT/bench/.venv/bin/python" -c "import torch, numpy" 2>/dev/null; then
  PY=$ROOT/bench/.venv/bin/python
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export TK_STDLIB_GEMM=$ROOT/stdlib-kernels/gemm.tk OMP_WAIT_POLICY=PASSIVE
# the environment may force OpenBLAS (PyTorch 1.13's f32 matmul) onto slower
# kernels (shared/TOOLCHAIN.md): the peers run without those two variables
PEER=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE)
sizes="1024"; ((FULL)) && sizes="1024 4096"
for r in $(seq "$ROUNDS"); do
  echo "round $r of $ROUNDS" >&2
  "$BUILD/bench/bench_peak" --quick --threads 1,2 >> "$OUT/peak.jsonl"
  for t in 1 2; do
    for c in add sum add_bf16 mul_bf16 exp_bf16 gelu_bf16 sum_bf16; do
      "$BIN" $c 16777216 $t 7 >> "$OUT/r.jsonl"
      "${PEER[@]}" $PY "$ROOT/bench/runtime/peers.py" $c 16777216 $t 7 >> "$OUT/r.jsonl"
    done
    for c in sum0 sumrow; do
      "$BIN" $c 4096 $t 7 >> "$OUT/r.jsonl"
      "${PEER[@]}" $PY "$ROOT/bench/runtime/peers.py" $c 4096 $t 7 >> "$OUT/r.jsonl"
    done
    for c in conv_grouped conv_dilated conv_transpose; do
      "$BIN" $c 1 $t 7 >> "$OUT/r.jsonl"
      "${PEER[@]}" $PY "$ROOT/bench/runtime/peers.py" $c 1 $t 7 >> "$OUT/r.jsonl"
    done
    "$BIN" tiny $t 5 >> "$OUT/r.jsonl"
    "${PEER[@]}" $PY "$ROOT/bench/runtime/peers.py" tiny 8 $t 5 >> "$OUT/r.jsonl"
    "$BUILD/examples/c/tk_example_transformer_block" --bench $t >> "$OUT/block.jsonl"
    "${PEER[@]}" $PY "$ROOT/bench/runtime/block_torch.py" $t >> "$OUT/block.jsonl"
    for m in $sizes; do
      "$BIN" matmul $m $t 5 >> "$OUT/r.jsonl"
      "${PEER[@]}" $PY "$ROOT/bench/runtime/peers.py" matmul $m $t 5 >> "$OUT/r.jsonl"
    done
  done
done
echo "peers: $("${PEER[@]}" $PY -c 'import sys, torch, numpy; print(f"{sys.executable}: torch {torch.__version__}, NumPy {numpy.__version__}")')"
/usr/bin/python3 "$ROOT/bench/runtime/report.py" "$OUT/peak.jsonl" "$OUT/r.jsonl" "$OUT/block.jsonl"
