#!/usr/bin/env bash
# main-job.sh — the first thing to run on a fresh machine (README command 1).
#
#   1. install the build dependencies (scripts/setup.sh)
#   2. configure and build TileKit in build/ (Release)
#   3. check every examples/*.tk with `tkc check` and list the kernels in it
#   4. show what a compile error looks like (a demonstration, never a failure)
#
# Exit status: non-zero if the build fails or any example has errors.
# Each stage is one function called from main() at the bottom; a later stage
# (compile and run the example kernels) slots in as one more function there.
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

stage_demo_diagnostics() {
  section "4. demonstration: what a compile error looks like (not a failure)"
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

# Next milestone: stage_run_examples — compile each example for the host CPU
# and run it against a reference. Add it to the list below.

main() {
  local status=0
  stage_setup
  stage_build
  stage_check_examples || status=1
  stage_demo_diagnostics
  section "summary"
  if ((status)); then echo "FAILED: see the examples marked ERRORS above"; else echo "OK: TileKit built; all examples check clean"; fi
  return "$status"
}

main "$@"
