#!/usr/bin/env bash
# run_family_cases.sh FAMILY RUNNER TKRUN WORK SRC — an op family's own cases,
# written by gen_FAMILY_cases.py (odd shapes, every mode and input form, older
# opsets, work split over threads; expected outputs from onnx's reference or
# ONNX Runtime):
#   1. every case must pass, on 1 and on 2 threads;
#   2. each case run by tkrun on 1 and on 2 threads must give the same bytes;
#   3. every error case must end in an error naming its node — none may pass,
#      crash or (under a sanitizer build) leak: they run in one process, so the
#      leak check at exit covers every error path.
# FAMILY: oext (the ext ops) or contrib (the com.microsoft ops). Uses the node
# suite's venv in WORK when it has onnx and onnxruntime (run_suite.sh makes
# it), else makes one like it.
set -euo pipefail
family=$1 runner=$2 tkrun=$3 work=$4 src=$5
name=run_${family}_cases
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx, onnxruntime' 2>/dev/null; then
  venv=$work/venv-$family-cases
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx, onnxruntime' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "onnx==1.23.2" onnxruntime numpy || {
      echo "$name: cannot install onnx 1.23.2 and onnxruntime from PyPI (needed to write the cases)"; exit 1; }
  fi
fi
cases=$work/$family-cases errors=$work/$family-errors
"$venv/bin/python" "$src/gen_${family}_cases.py" "$cases" "$errors" 2> "$work/$family-gen.log" || { cat "$work/$family-gen.log"; exit 1; }
for threads in 1 2; do
  echo "$name: $threads thread(s) against the expected outputs"
  TK_NUM_THREADS=$threads "$runner" "$cases" --expect "$cases/expect.txt"
done
echo "$name: 1 vs 2 threads, bit for bit"
differ=0
for d in "$cases"/test_*/; do
  args=()
  for f in "$d"test_data_set_0/input_*.pb; do
    i=${f##*input_}; i=${i%.pb}
    args+=(--input "x$i=$f")
  done
  for threads in 1 2; do
    rm -rf "$work/$family-t$threads"
    "$tkrun" "$d/model.onnx" "${args[@]}" --threads $threads --output-dir "$work/$family-t$threads" > /dev/null
  done
  for f in "$work/$family-t1"/*.pb; do
    if ! cmp -s "$f" "$work/$family-t2/${f##*/}"; then
      echo "$name: $(basename "$d") output ${f##*/} differs between 1 and 2 threads"
      differ=1
    fi
  done
done
[[ $differ == 0 ]] || exit 1
echo "$name: error cases"
rc=0
"$runner" "$errors" -v --no-fork > "$work/$family-errors.txt" 2>&1 || rc=$?
cat "$work/$family-errors.txt"
bad=$(grep '^test_' "$work/$family-errors.txt" | grep -Ev ': (fail: run: node|unsupported: (run: node|tk_onnx_load: .* node ))' || true)
want=$(find "$errors" -name model.onnx | wc -l)
got=$(grep -c '^test_' "$work/$family-errors.txt" || true)
if [[ -n $bad || $got != "$want" ]]; then
  echo "$name: error cases that did not end in an error naming their node ($got of $want reported, exit status $rc):"
  echo "$bad"
  exit 1
fi
