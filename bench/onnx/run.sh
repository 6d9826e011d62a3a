#!/usr/bin/env bash
# bench/onnx/run.sh [--rounds N] [--runs N] [--filter TEXT] — ONNX models
# through tkrun beside ONNX Runtime (PyPI, its best CPU configuration) and
# PyTorch eager (Debian's), batch 1 and 8, 1 and 2 threads, plus the load time
# of a 100 MB model. Builds tkrun (Release) in build-bench/, a venv with
# onnxruntime in bench/.venv-onnx, the models in build-bench/onnx-models.
# Ratios measured in the same run; never a test.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$ROOT/build-bench
VENV=$ROOT/bench/.venv-onnx
bash "$ROOT/scripts/setup.sh" > /dev/null
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j2 --target tkrun > /dev/null
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import onnxruntime' 2>/dev/null; then
  /usr/bin/python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q onnxruntime numpy
fi
/usr/bin/python3 "$ROOT/bench/onnx/export.py" "$BUILD/onnx-models" >&2
/usr/bin/python3 "$ROOT/bench/onnx/bench_onnx.py" "$BUILD/tools/tkrun/tkrun" "$BUILD/onnx-models" "$VENV/bin/python" "$@"
