#!/usr/bin/env bash
# fuzz.sh [SECONDS] — build the front-end fuzzer in build-fuzz/ (clang-22,
# libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer) and run it for
# SECONDS (default 60) over a copy of the seed corpus tests/fuzz/corpus/.
#
# Fails (non-zero) on any crash, sanitizer report, leak, timeout (>10 s for one
# input), out-of-memory (>2048 MB) or round-trip violation; the input that did
# it is saved under build-fuzz/artifacts/ (or $TK_FUZZ_ARTIFACTS). Reproduce:
#   build-fuzz/tests/fuzz/fuzz_front build-fuzz/artifacts/crash-...
#
# The committed corpus is never written to. New inputs the fuzzer finds stay in
# build-fuzz/corpus-run/, which is started afresh from the seeds on every run
# unless TK_FUZZ_KEEP_CORPUS=1.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

SECS=${1:-60}
if ! [[ "$SECS" =~ ^[0-9]+$ ]] || ((SECS < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]   (default 60)" >&2
  exit 2
fi
BUILD=${TK_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
JOBS=${TK_JOBS:-2}
CC_FUZZ=${TK_FUZZ_CC:-clang-22}
RUN_CORPUS=$BUILD/corpus-run
ARTIFACTS=${TK_FUZZ_ARTIFACTS:-$BUILD/artifacts}

bash scripts/setup.sh

echo "fuzz: building $BUILD with $CC_FUZZ"
cmake -S "$ROOT" -B "$BUILD" -DTK_FUZZ=ON -DBUILD_TESTING=OFF \
  -DCMAKE_C_COMPILER="$CC_FUZZ" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-O1" >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target fuzz_front
FUZZER=$BUILD/tests/fuzz/fuzz_front

if [[ "${TK_FUZZ_KEEP_CORPUS:-0}" != 1 ]]; then rm -rf "$RUN_CORPUS"; fi
mkdir -p "$RUN_CORPUS" "$ARTIFACTS"
cp tests/fuzz/corpus/* "$RUN_CORPUS/"
before=$(find "$ARTIFACTS" -type f | wc -l)

echo "fuzz: running fuzz_front for ${SECS}s (seeds: $(find tests/fuzz/corpus -type f | wc -l), dictionary: tests/fuzz/tk.dict)"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
"$FUZZER" "$RUN_CORPUS" \
  -dict=tests/fuzz/tk.dict \
  -max_total_time="$SECS" \
  -max_len=4096 \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -detect_leaks=1 \
  -print_final_stats=1 \
  -artifact_prefix="$ARTIFACTS/" >"$BUILD/fuzz.log" 2>&1 || status=$?
# The full log is in build-fuzz/fuzz.log; show it without the per-input
# NEW/REDUCE lines and the recommended-dictionary listing.
awk '/^###### Recommended dictionary/ { skip = 1 }
     !skip && !/^#[0-9]+[ \t]+(NEW|REDUCE) / { print }
     /^###### End of recommended dictionary/ { skip = 0 }' "$BUILD/fuzz.log"

after=$(find "$ARTIFACTS" -type f | wc -l)
echo "fuzz: full log in ${BUILD#"$ROOT"/}/fuzz.log"
echo "fuzz: corpus now $(find "$RUN_CORPUS" -type f | wc -l) inputs in ${RUN_CORPUS#"$ROOT"/}/"
if ((status != 0 || after > before)); then
  echo "fuzz: FAILED (exit status $status); reproducers in $ARTIFACTS:" >&2
  find "$ARTIFACTS" -type f -newer "$FUZZER" -printf '  %p\n' >&2 || true
  echo "reproduce one with: $FUZZER FILE" >&2
  exit $((status != 0 ? status : 1))
fi
echo "fuzz: OK — no crash, leak, timeout or round-trip violation in ${SECS}s"
