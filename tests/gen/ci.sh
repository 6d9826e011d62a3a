#!/usr/bin/env bash
# ci.sh — the differential test as ctest runs it: a bounded number of random
# programs from a seed range that moves with each commit, so that coverage
# grows from one commit to the next while any one run is reproducible.
#
#   ci.sh host    ROOT TK_DIFFTEST OUT_DIR            (every host configuration)
#   ci.sh aarch64 ROOT TARGET ARGS...                 (tests/gen/aarch64.sh ARGS...)
#
# The first seed is 1000 × (commits in HEAD's history), or $TK_DIFFTEST_FIRST.
# On the host the time budget $TK_DIFFTEST_SECONDS (default 150) stops
# starting new programs, never a program half-way; each AArch64 target runs
# the first $TK_DIFFTEST_AARCH64_COUNT (default 40) seeds from first + 500.
# A long run: tk_difftest --first S --count N --reduce (no budget).
set -euo pipefail
mode=$1 root=$2
shift 2
if [[ -n ${TK_DIFFTEST_FIRST:-} ]]; then
  first=$TK_DIFFTEST_FIRST
else
  commits=$(git -C "$root" rev-list --count HEAD 2>/dev/null || echo 0)
  first=$((1000 * commits))
fi
case $mode in
  host)
    difftest=$1 out=$2
    rm -rf "$out"
    echo "difftest: seeds from $first (TK_DIFFTEST_FIRST=$first reruns this range)"
    exec "$difftest" --first "$first" --count 1000 --time-budget "${TK_DIFFTEST_SECONDS:-150}" --out "$out" --reduce --reduce-trials 120 \
      --json "$out.json"
    ;;
  aarch64)
    target=$1
    shift
    # another range than the host's, so that the targets together cover more programs
    exec bash "$root/tests/gen/aarch64.sh" --source-dir "$root" --target "$target" --first $((first + 500)) \
      --count "${TK_DIFFTEST_AARCH64_COUNT:-40}" "$@"
    ;;
  *) echo "ci.sh: unknown mode $mode" >&2; exit 2 ;;
esac
