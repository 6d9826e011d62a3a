#!/usr/bin/env bash
# run_uint_cases.sh RUNNER WORK SRC — the uint16/32/64 cases (gen_uint_cases.py:
# every op whose ONNX types include them, on edge values) on 1 and 2 threads;
# every case must pass on both, integer results bit for bit. Uses the node
# suite's venv in WORK when it has onnx (run_suite.sh makes it), else makes one like it.
set -euo pipefail
runner=$1 work=$2 src=$3
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx.reference' 2>/dev/null; then
  venv=$work/venv-uint-cases
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx.reference' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "onnx==1.23.2" numpy || {
      echo "run_uint_cases: cannot install onnx 1.23.2 from PyPI (needed to write the cases)"; exit 1; }
  fi
fi
"$venv/bin/python" "$src/gen_uint_cases.py" "$work/uint-cases"
for threads in 1 2; do
  echo "run_uint_cases: $threads thread(s)"
  TK_NUM_THREADS=$threads "$runner" "$work/uint-cases" --expect "$work/uint-cases/expect.txt"
done
