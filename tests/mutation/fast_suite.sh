#!/usr/bin/env bash
# fast_suite.sh BUILD SRC [--all] — the part of the test suite a planted bug
# must get past (scripts/mutation.sh), in stages from the cheapest; stops at
# the first stage that fails (unless --all) and prints "caught by STAGE".
# Exit status: 0 nothing failed (the mutant survived), 1 a stage failed.
#
# Stages (about 25 s in all on the 2-core VM when nothing fails):
#   unit      the Check unit tests (interpreter, bounds, compiler API, JIT, layout, launch)
#   tir       the TIR golden files (tests/tir)
#   difftest  random programs of fixed seeds on three configurations (tests/gen)
#   regress   the reproducers of tests/gen/regress on the same configurations
#   numeric   the numeric suites of the optimised paths: output views, row views,
#             slot coalescing, scalars, warps (tests/numeric; the other suites take ~2 min)
# Needs, built in BUILD: tkc tk_unit_tests tk_numeric_tests tk_difftest.
set -u
build=$1 src=$2 all=${3:-}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tk_fast_suite_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failed=0

stage() {
  local name=$1 limit=$2
  shift 2
  if ! timeout "$limit" "$@" >"$scratch/$name.log" 2>&1; then
    echo "caught by $name"
    tail -5 "$scratch/$name.log" | sed 's/^/  | /'
    failed=1
    [ "$all" = --all ] || exit 1
  fi
}

stage unit 120 env CK_DEFAULT_TIMEOUT=60 "$build/tests/tk_unit_tests"
stage tir 60 bash "$src/tests/tir/run_tir_golden.sh" "$build/tools/tkc/tkc" "$src/tests/tir"
stage difftest 180 "$build/tests/gen/tk_difftest" --first 1 --count 8 --out "$scratch/difftest" \
  --configs jit-host-O3-specialised,jit-host-O0,jit-x86-64-avx2 --timeout 60
stage regress 180 "$build/tests/gen/tk_difftest" --manifest "$src/tests/gen/regress/manifest.txt" --kernels "$src/tests/gen/regress" \
  --out "$scratch/regress" --configs jit-host-O3-specialised,jit-host-O0,jit-x86-64-avx2 --timeout 60
for suite in outview rowview coalesce scalar warps; do
  stage numeric 180 env CK_RUN_SUITE=$suite "$build/tests/numeric/tk_numeric_tests"
done
exit $failed
