#!/usr/bin/env bash
# aarch64.sh — the differential test's AArch64 half: random programs (and the
# regression reproducers of tests/gen/regress) compiled by `tkc -c` for an
# AArch64 target and run under qemu, against the interpreter's error bounds.
#
#   aarch64.sh --difftest TK_DIFFTEST --gen TK_CROSS_GEN --tkc TKC --cc AARCH64_CC --qemu QEMU
#              --source-dir ROOT --target T --first S --count N --budget SECONDS [--regress DIR]
#
# 1. tk_difftest --emit-batch: the usable programs of seeds S.. (within the
#    budget) as .tk files and a manifest with tol=bounds;
# 2. tk_cross_gen: their inputs, the interpreter's results and per-element
#    bounds into one data file, and the registry of the kernels;
# 3. tkc -c --target=T for each program, the runner of tests/cross linked
#    statically with them, run under qemu-aarch64-static -cpu max.
# Prints the runner's report; a failing case names its seed (gSEED) — rerun
# it on the host with tk_difftest --first SEED --count 1. Exit status: the
# runner's (0 all passed), 77 when a tool is missing (skipped, never passed).
set -euo pipefail

difftest= gen= tkc= cc= qemu= root= target= first=1 count=40 budget=60 regress=
while (($#)); do
  case $1 in
    --difftest) difftest=$2; shift 2 ;;
    --gen) gen=$2; shift 2 ;;
    --tkc) tkc=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --qemu) qemu=$2; shift 2 ;;
    --source-dir) root=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --regress) regress=$2; shift 2 ;;
    *) echo "aarch64.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in "$cc" "$qemu"; do
  if [[ -z $tool ]] || ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: the AArch64 cross tools are missing (install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)"
    exit 77
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tk_difftest_${target}_XXXXXX")
trap 'rm -rf "$work"' EXIT
batch=$work/batch
"$difftest" --emit-batch "$batch" --first "$first" --count "$count" --time-budget "$budget"
if [[ -n $regress && -f $regress/manifest.txt ]]; then
  cp "$regress"/*.tk "$batch/kernels/"
  grep -v '^#' "$regress/manifest.txt" >> "$batch/manifest.txt" || true
fi
"$gen" --oracle=interp --manifest "$batch/manifest.txt" --kernels "$batch/kernels" --data "$work/cases.dat" --registry "$work/cases.c"
objs=()
for k in "$batch"/kernels/*.tk; do
  o=$work/$(basename "$k" .tk).o
  "$tkc" -c --target="$target" "$k" -o "$o"
  objs+=("$o")
done
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -pthread -static "-DTK_CROSS_TARGET=\"$target\"" "-DTK_CROSS_SUITE=\"difftest_$target\"" \
  -I"$root/include" -I"$root/targets/cpu" "$root/tests/cross/runner.c" "$work/cases.c" "$root/targets/cpu/launch.c" "${objs[@]}" -lm \
  -o "$work/runner"
rc=0
out=$("$qemu" -cpu max "$work/runner" "$work/cases.dat" 2>&1) || rc=$?
printf '%s\n' "$out"
if ((rc != 0)); then
  echo "FAILED: the runner exited $rc"
  exit 1
fi
# at least one case ran and none failed
if ! grep -Eq "^difftest_$target: [1-9][0-9]* passed, 0 failed\$" <<<"$out"; then
  echo "FAILED: no summary line 'difftest_$target: N passed, 0 failed'"
  exit 1
fi
