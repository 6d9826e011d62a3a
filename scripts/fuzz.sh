#!/usr/bin/env bash
# fuzz.sh [SECONDS] — build the fuzzers in build-fuzz/ (clang-22, libFuzzer +
# AddressSanitizer + UndefinedBehaviorSanitizer) and run them:
#   fuzz_front  the front end on arbitrary text, SECONDS (default 60), over a
#               copy of the seed corpus tests/fuzz/corpus/;
#   fuzz_gen    the whole pipeline (checker, lowering, passes, LLVM, JIT, a run
#               against the interpreter's bounds) on valid programs made by the
#               random program generator from the input's bytes, for
#               $TK_FUZZ_GEN_SECONDS (default SECONDS/2), seeds tests/fuzz/corpus-gen/;
#   fuzz_tensor_files  the tensor runtime's file readers (.npy, ONNX .pb,
#               .safetensors) on arbitrary bytes, $TK_FUZZ_FILE_SECONDS (default
#               SECONDS/3), seeds tests/fuzz/corpus-tensor/ (first byte: the reader);
#   fuzz_onnx_model  the ONNX loader and one run of each model that loads,
#               $TK_FUZZ_FILE_SECONDS too, seeds tests/fuzz/corpus-onnx/.
#
# Fails (non-zero) on any crash, sanitizer report, leak, timeout (>10 s for one
# input), out-of-memory (>2048 MB), round-trip violation, or (fuzz_gen) a
# generated program the compiler rejects or gets wrong; the input that did it
# is saved under build-fuzz/artifacts/ (or $TK_FUZZ_ARTIFACTS). Reproduce:
#   build-fuzz/tests/fuzz/fuzz_front build-fuzz/artifacts/crash-...
#
# The committed corpora are never written to. New inputs the fuzzers find stay
# in build-fuzz/corpus-run/NAME/, started afresh from the seeds on every run
# unless TK_FUZZ_KEEP_CORPUS=1.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

SECS=${1:-60}
if ! [[ "$SECS" =~ ^[0-9]+$ ]] || ((SECS < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]   (default 60)" >&2
  exit 2
fi
GEN_SECS=${TK_FUZZ_GEN_SECONDS:-$(((SECS + 1) / 2))}
FILE_SECS=${TK_FUZZ_FILE_SECONDS:-$(((SECS + 2) / 3))}
BUILD=${TK_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
JOBS=${TK_JOBS:-2}
CC_FUZZ=${TK_FUZZ_CC:-clang-22}
RUN_CORPUS=$BUILD/corpus-run
ARTIFACTS=${TK_FUZZ_ARTIFACTS:-$BUILD/artifacts}

bash scripts/setup.sh

echo "fuzz: building $BUILD with $CC_FUZZ"
cmake -S "$ROOT" -B "$BUILD" -DTK_FUZZ=ON -DBUILD_TESTING=OFF \
  -DCMAKE_C_COMPILER="$CC_FUZZ" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-O1" >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target fuzz_front fuzz_gen fuzz_tensor_files fuzz_onnx_model
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$ARTIFACTS"

# fuzz NAME SEED_DIR SECONDS [libFuzzer flags...]: one fuzzer over a fresh copy of its seeds.
fuzz() {
  local name=$1 seeds=$2 secs=$3
  shift 3
  local fuzzer=$BUILD/tests/fuzz/$name corpus=$RUN_CORPUS/$name log=$BUILD/$name.log
  if [[ "${TK_FUZZ_KEEP_CORPUS:-0}" != 1 ]]; then rm -rf "$corpus"; fi
  mkdir -p "$corpus"
  cp "$seeds"/* "$corpus/"
  local before status=0 after
  before=$(find "$ARTIFACTS" -type f | wc -l)
  echo "fuzz: running $name for ${secs}s (seeds: $(find "$seeds" -type f | wc -l) in ${seeds#"$ROOT"/})"
  "$fuzzer" "$corpus" "$@" \
    -max_total_time="$secs" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -detect_leaks=1 \
    -print_final_stats=1 \
    -artifact_prefix="$ARTIFACTS/" >"$log" 2>&1 || status=$?
  # The full log is in build-fuzz/NAME.log; show it without the per-input
  # NEW/REDUCE lines and the recommended-dictionary listing.
  awk '/^###### Recommended dictionary/ { skip = 1 }
       !skip && !/^#[0-9]+[ \t]+(NEW|REDUCE) / { print }
       /^###### End of recommended dictionary/ { skip = 0 }' "$log"
  after=$(find "$ARTIFACTS" -type f | wc -l)
  echo "fuzz: full log in ${log#"$ROOT"/}; corpus now $(find "$corpus" -type f | wc -l) inputs in ${corpus#"$ROOT"/}/"
  if ((status != 0 || after > before)); then
    echo "fuzz: $name FAILED (exit status $status); reproducers in $ARTIFACTS:" >&2
    find "$ARTIFACTS" -type f -newer "$fuzzer" -printf '  %p\n' >&2 || true
    echo "reproduce one with: $fuzzer FILE" >&2
    exit $((status != 0 ? status : 1))
  fi
}

# the front end on arbitrary text, then the whole pipeline on generated valid programs
fuzz fuzz_front tests/fuzz/corpus "$SECS" -dict=tests/fuzz/tk.dict -max_len=4096
fuzz fuzz_gen tests/fuzz/corpus-gen "$GEN_SECS" -max_len=2048
# the tensor runtime's file readers (.npy, ONNX .pb, .safetensors) on arbitrary bytes
fuzz fuzz_tensor_files tests/fuzz/corpus-tensor "$FILE_SECS" -max_len=4096
# the ONNX loader on mutated node-suite models, and one run of what loads
fuzz fuzz_onnx_model tests/fuzz/corpus-onnx "$FILE_SECS" -max_len=16384
echo "fuzz: OK — no crash, leak, timeout, round-trip violation or wrong result in ${SECS}s + ${GEN_SECS}s + 2 x ${FILE_SECS}s"
