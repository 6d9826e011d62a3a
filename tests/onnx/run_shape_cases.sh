#!/usr/bin/env bash
# run_shape_cases.sh RUNNER WORK SRC — the shape and index ops' own cases
# (gen_shape_cases.py: odd shapes, views, old opsets, zero tolerance) on 1 and
# 2 threads; every case must pass on both, so the results are bit-identical
# to the reference and to each other. Then the error cases: each must end in
# an error naming its node ("fail: run: node ..." or "unsupported: ..."),
# none may pass, crash or leak. Uses the node suite's venv in WORK when it has onnx
# (run_suite.sh makes it), else makes one like it.
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
"$venv/bin/python" "$src/gen_shape_cases.py" "$work/shape-cases" "$work/shape-errors"
for threads in 1 2; do
  echo "run_shape_cases: $threads thread(s)"
  TK_NUM_THREADS=$threads "$runner" "$work/shape-cases" --expect "$work/shape-cases/expect.txt"
done
echo "run_shape_cases: error cases"
# in one process (--no-fork), so a sanitizer build's leak check at exit covers every error path
rc=0
"$runner" "$work/shape-errors" -v --no-fork > "$work/shape-errors.txt" 2>&1 || rc=$?
cat "$work/shape-errors.txt"
if [[ $rc != 0 ]]; then
  echo "run_shape_cases: the error cases' run exited with status $rc"
  exit 1
fi
bad=$(grep '^test_' "$work/shape-errors.txt" | grep -Ev ': (fail: run: node|unsupported: (run: node|tk_onnx_load: .* node ))' || true)
want=$(find "$work/shape-errors" -name model.onnx | wc -l)
got=$(grep -c '^test_' "$work/shape-errors.txt" || true)
if [[ -n $bad || $got != "$want" ]]; then
  echo "run_shape_cases: error cases that did not end in an error naming their node ($got of $want reported):"
  echo "$bad"
  exit 1
fi
