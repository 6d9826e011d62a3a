#!/usr/bin/env bash
# main-job.sh — the first thing to run on a fresh machine (README command 1).
#
#   1. install the build dependencies (scripts/setup.sh)
#   2. configure and build TileKit in build/ (Release)
#   3. check every examples/*.tk with `tkc check` and list the kernels in it
#   4. run every example kernel on the CPU (JIT) with random inputs, checked
#      against tkc's double-precision interpreter (`tkc run --check`)
#   5. show what a compile error looks like (a demonstration, never a failure)
#   6. the tensor runtime: the C examples (an MLP, a user's .tk kernel called
#      on tensors, a transformer decoder block with a KV cache), each checking
#      itself, with the runtime's profile of the block
#   7. ONNX models (ResNet-18, a transformer encoder, a decoder-only LM)
#      exported by PyTorch here, run through tkrun and compared with PyTorch
#
# Exit status: non-zero if the build fails or any example has errors, fails to
# compile or gives wrong results. Each stage is one function called from main()
# at the bottom; a new stage (another target, a benchmark) is one more function.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${TK_BUILD_DIR:-$ROOT/build}
JOBS=${TK_JOBS:-2}
TKC=$BUILD/tools/tkc/tkc
cd "$ROOT"   # so that diagnostics name files as examples/NAME.tk

section() { printf '\n==== %s ====\n' "$*"; }

stage_setup() {
  section "1. dependencies"
  bash "$ROOT/scripts/setup.sh"
}

stage_build() {
  section "2. build (Release, $BUILD)"
  local log
  log=$(mktemp)
  # Quiet on success; the whole log when something goes wrong.
  if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release && cmake --build "$BUILD" -j "$JOBS"; } >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    echo "build FAILED" >&2
    return 1
  fi
  rm -f "$log"
  echo "built $("$TKC" --version)"
}

# Kernel names in a checked file: the canonical AST printout starts every
# kernel definition with `kernel NAME(`.
kernels_in() {
  "$TKC" --emit=ast "$1" 2>/dev/null | sed -n 's/^kernel \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' | paste -sd' ' -
}

stage_check_examples() {
  section "3. tkc check examples/*.tk"
  local failed=0 total=0 f log
  log=$(mktemp)
  shopt -s nullglob
  local files=(examples/*.tk)
  shopt -u nullglob
  if ((${#files[@]} == 0)); then
    echo "no examples found in $ROOT/examples" >&2
    rm -f "$log"
    return 1
  fi
  for f in "${files[@]}"; do
    total=$((total + 1))
    if "$TKC" check "$f" 2>"$log"; then
      printf '  %-26s OK      kernels: %s\n' "$f" "$(kernels_in "$f")"
    else
      failed=$((failed + 1))
      printf '  %-26s ERRORS\n' "$f"
      sed 's/^/      /' "$log"
    fi
  done
  rm -f "$log"
  echo
  if ((failed)); then
    echo "examples: $failed of $total FAILED"
    return 1
  fi
  echo "examples: all $total passed the checker"
}

# Sizes and scalars for `tkc run`, per example. Sizes are deliberately not
# multiples of the tile sizes, so the masked edges are exercised too.
run_args_for() {
  case "$1" in
    examples/gemm.tk)      echo "--size M=200,N=130,K=70" ;;
    examples/gemm_pipelined.tk) echo "--size M=200,N=130,K=72" ;;
    examples/softmax.tk)   echo "--size M=100,N=1000" ;;
    examples/attention.tk) echo "--size B=2,H=3,S=100 --set scale=0.125" ;;
    *) return 1 ;;
  esac
}

stage_run_examples() {
  section "4. tkc run --check examples/*.tk (CPU, random inputs, vs double-precision interpreter)"
  if ! grep -q '^ *tkc run' <<<"$("$TKC" --help 2>/dev/null)"; then
    echo "this tkc cannot run kernels yet; skipped"
    return 0
  fi
  local failed=0 total=0 f out args
  for f in examples/*.tk; do
    if ! args=$(run_args_for "$f"); then
      printf '  %-26s skipped (no sizes for it in run_args_for, scripts/main-job.sh)\n' "$f"
      continue
    fi
    total=$((total + 1))
    echo "\$ tkc run $f $args --check"
    # shellcheck disable=SC2086  # $args is a list of options
    if out=$("$TKC" run "$f" $args --check 2>&1); then
      printf '%s\n' "$out" | sed 's/^/    /'
    else
      failed=$((failed + 1))
      printf '%s\n' "$out" | sed 's/^/    /'
      echo "    => FAILED"
    fi
  done
  echo
  if ((failed)); then
    echo "runs: $failed of $total FAILED"
    return 1
  fi
  echo "runs: all $total compiled, ran and matched the interpreter"
}

stage_gpu() {
  section "4b. the same gemm (and flash attention) for NVIDIA GPUs: PTX, its costs, and runs on the emulation target (no GPU here)"
  local out n
  echo "\$ tkc --target=sm_90a --emit=ptx examples/gemm.tk"
  out=$("$TKC" --target=sm_90a --emit=ptx examples/gemm.tk 2>&1) || { printf '%s\n' "$out" | sed 's/^/    /'; echo "    => FAILED"; return 1; }
  n=$(grep -c 'mma.sync.aligned.m16n8k16' <<<"$out" || true)
  grep -m3 -E '^\.target|\.shared|mma.sync' <<<"$out" | sed 's/^/    /'
  echo "    ... ($(wc -l <<<"$out") lines of PTX, $n mma.sync m16n8k16)"
  echo "\$ tkc --stats --target=sm_90a examples/gemm.tk"
  "$TKC" --stats --target=sm_90a examples/gemm.tk 2>&1 | sed 's/^/    /'
  echo "\$ tkc run examples/gemm.tk --target=sm_80-emu --size M=200,N=150,K=70 --check"
  if out=$("$TKC" run examples/gemm.tk --target=sm_80-emu --size M=200,N=150,K=70 --check --repeat 3 2>&1) &&
     grep -q '^correct   yes' <<<"$out"; then
    printf '%s\n' "$out" | sed 's/^/    /'
    echo "(the sm_80 lowering, run with 32-lane warps, real fragment layouts and mma.sync computed from the PTX ISA)"
  else
    printf '%s\n' "$out" | sed 's/^/    /'
    echo "    => FAILED"
    return 1
  fi
  # flash attention: row_max/row_sum are shuffle butterflies, mma_abt's K^T stays in registers
  echo "\$ tkc run examples/attention.tk --target=sm_80-emu --size B=1,H=2,S=130 --set causal=true --check"
  if out=$("$TKC" run examples/attention.tk --target=sm_80-emu --size B=1,H=2,S=130 --set causal=true --check --repeat 1 2>&1) &&
     grep -q '^correct   yes' <<<"$out"; then
    printf '%s\n' "$out" | grep -E '^(kernel|correct|  O)' | sed 's/^/    /'
    echo "    ($(grep -c 'shfl.sync' <<<"$("$TKC" --target=sm_90a --emit=ptx examples/attention.tk 2>&1)") shfl.sync in its PTX: the row reductions of online softmax)"
  else
    printf '%s\n' "$out" | sed 's/^/    /'
    echo "    => FAILED"
    return 1
  fi
}

stage_demo_diagnostics() {
  section "5. demonstration: what a compile error looks like (not a failure)"
  local dir
  dir=$(mktemp -d)
  cat >"$dir/broken.tk" <<'TK'
// Two classic mistakes: the inner dimensions of mma_ab disagree (32 vs 16),
// and an f32 tile is stored into a bf16 tensor without an explicit convert.
kernel broken(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<bf16, M, N> C)
    grid(cdiv(N, 64), cdiv(M, 64)) warps(1)
{
    rt<f32, 64, 64> acc = zeros();
    rt<bf16, 64, 32> a = load(A, block.y, 0);
    rt<bf16, 16, 64, col> b = load(B, 0, block.x);
    mma_ab(acc, a, b);
    store(C, acc, block.y, block.x);
}
TK
  echo "broken.tk:"
  sed 's/^/  | /' "$dir/broken.tk"
  echo
  echo "\$ tkc check broken.tk"
  local out rc=0
  out=$(cd "$dir" && "$TKC" check broken.tk 2>&1) || rc=$?
  printf '%s\n' "$out" | sed 's/^/  /'
  rm -rf "$dir"
  if ((rc == 1)); then
    echo "(exit status 1: errors in the input, as intended; this demonstration does not count as a failure)"
  else
    echo "WARNING: expected exit status 1 (errors in the input) from the demonstration, got $rc"
  fi
}

stage_runtime_examples() {
  section "6. the tensor runtime: examples/c (C programs on tk/tk.h)"
  local failed=0 ex
  export TK_CACHE_DIR=${TK_CACHE_DIR:-$BUILD/tk-cache}
  for ex in mlp custom_kernel transformer_block; do
    echo "\$ examples/c/$ex"
    local env=()
    [[ $ex == transformer_block ]] && env=(TK_PROFILE=1)
    if ! env "${env[@]}" "$BUILD/examples/c/tk_example_$ex" 2>&1 | sed 's/^/    /'; then
      failed=$((failed + 1))
      echo "    => FAILED"
    fi
  done
  echo "(the stdlib kernels compile on first use and are cached in $TK_CACHE_DIR: a second run starts at once)"
  ((failed == 0))
}

# ONNX models exported by PyTorch here (random seeded weights: no model hub),
# run through tkrun on the PyTorch input and compared with PyTorch's output.
stage_onnx_models() {
  section "7. ONNX models through tkrun (exported by PyTorch 1.13 here; outputs checked against PyTorch)"
  local dir=$BUILD/main-job-models out=$BUILD/main-job-out failed=0 m
  export TK_CACHE_DIR=${TK_CACHE_DIR:-$BUILD/tk-cache}
  /usr/bin/python3 "$ROOT/tests/onnx/gen_real_models.py" "$dir" resnet18 transformer_encoder decoder_lm 2>/dev/null | sed 's/^/    /'
  for m in resnet18 transformer_encoder decoder_lm; do
    local case=$dir/test_${m}_opset17
    echo "\$ tkrun $m.onnx --input input=input_0.pb --bench 10"
    if ! "$BUILD/tools/tkrun/tkrun" "$case/model.onnx" --input "input=$case/test_data_set_0/input_0.pb" \
         --output-dir "$out/$m" --bench 10 2>&1 | sed 's/^/    /'; then
      failed=$((failed + 1))
      echo "    => FAILED"
      continue
    fi
    if ! /usr/bin/python3 - "$out/$m/output.pb" "$case/test_data_set_0/output_0.pb" <<'PY'
import sys
import numpy as np
import onnx
from onnx import numpy_helper
got, want = (numpy_helper.to_array(onnx.load_tensor(p)) for p in sys.argv[1:3])
err = float(np.max(np.abs(got.astype(np.float64) - want))) if got.size else 0.0
ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-3, atol=1e-4)
print(f"    vs PyTorch: shape {list(got.shape)}, max |difference| {err:.2e}: {'OK' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
PY
    then
      failed=$((failed + 1))
    fi
  done
  echo "(tkrun --help: inputs from .pb/.npy or made up, --profile per node, --dump the graph; docs/ONNX.md)"
  ((failed == 0))
}

main() {
  local status=0
  stage_setup
  stage_build
  stage_check_examples || status=1
  stage_run_examples || status=1
  stage_gpu || status=1
  stage_demo_diagnostics
  stage_runtime_examples || status=1
  stage_onnx_models || status=1
  section "summary"
  if ((status)); then
    echo "FAILED: see the examples marked ERRORS or FAILED above"
  else
    echo "OK: TileKit built; every example checks clean and runs correctly on the CPU; the GPU gemm ran right on the emulator; the runtime examples ran; the ONNX models matched PyTorch"
  fi
  return "$status"
}

main "$@"
