#!/usr/bin/env bash
# run_shape_cases.sh RUNNER WORK SRC — the shape and index ops' own cases
# (gen_shape_cases.py: odd shapes, views, old opsets, zero tolerance) on 1 and
# 2 threads; every case must pass on both, so the results are bit-identical
# to the reference and to each other. Uses the node suite's venv in WORK when
# it has onnx (run_suite.sh makes it), else makes one like it.
set -euo pipefail
runner=$1 work=$2 src=$3
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx' 2>/dev/null; then
  venv=$work/venv-shape-cases
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "onnx==1.23.2" numpy || {
      echo "run_shape_cases: cannot install onnx 1.23.2 from PyPI (needed to write the cases)"; exit 1; }
  fi
fi
"$venv/bin/python" "$src/gen_shape_cases.py" "$work/shape-cases"
for threads in 1 2; do
  echo "run_shape_cases: $threads thread(s)"
  TK_NUM_THREADS=$threads "$runner" "$work/shape-cases" --expect "$work/shape-cases/expect.txt"
done
