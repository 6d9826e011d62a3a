#!/usr/bin/env bash
# test.sh — build TileKit (Debug) in build/ and run every test (README command 2).
# The last lines are ctest's summary; the exit status is ctest's.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${TK_BUILD_DIR:-$ROOT/build}
JOBS=${TK_JOBS:-2}
cd "$ROOT"

bash scripts/setup.sh
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug
cmake --build "$BUILD" -j "$JOBS"
status=0
ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS" || status=$?
exit "$status"
