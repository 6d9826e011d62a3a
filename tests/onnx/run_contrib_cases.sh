#!/usr/bin/env bash
# run_contrib_cases.sh RUNNER TKRUN WORK SRC — the com.microsoft contrib ops'
# cases (gen_contrib_cases.py: odd shapes, every input form, expected outputs
# from ONNX Runtime) on 1 and 2 threads, every case must pass; then each case
# run by tkrun on 1 and on 2 threads, whose outputs must be the same bytes;
# then the error cases: each must end in an error naming its node, none may
# pass or crash. Uses the node suite's venv in WORK when it has onnx and
# onnxruntime (run_suite.sh makes it), else makes one like it.
set -euo pipefail
runner=$1 tkrun=$2 work=$3 src=$4
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx, onnxruntime' 2>/dev/null; then
  venv=$work/venv-contrib-cases
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx, onnxruntime' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "onnx==1.23.2" onnxruntime numpy || {
      echo "run_contrib_cases: cannot install onnx 1.23.2 and onnxruntime from PyPI (needed to write the cases)"; exit 1; }
  fi
fi
cases=$work/contrib-cases errors=$work/contrib-errors
"$venv/bin/python" "$src/gen_contrib_cases.py" "$cases" "$errors" 2> "$work/contrib-gen.log" || { cat "$work/contrib-gen.log"; exit 1; }
for threads in 1 2; do
  echo "run_contrib_cases: $threads thread(s) against ONNX Runtime"
  TK_NUM_THREADS=$threads "$runner" "$cases" --expect "$cases/expect.txt"
done
echo "run_contrib_cases: 1 vs 2 threads, bit for bit"
differ=0
for d in "$cases"/test_*/; do
  args=()
  for f in "$d"test_data_set_0/input_*.pb; do
    i=${f##*input_}; i=${i%.pb}
    args+=(--input "x$i=$f")
  done
  for threads in 1 2; do
    rm -rf "$work/contrib-t$threads"
    "$tkrun" "$d/model.onnx" "${args[@]}" --threads $threads --output-dir "$work/contrib-t$threads" > /dev/null
  done
  for f in "$work/contrib-t1"/*.pb; do
    if ! cmp -s "$f" "$work/contrib-t2/${f##*/}"; then
      echo "run_contrib_cases: $(basename "$d") output ${f##*/} differs between 1 and 2 threads"
      differ=1
    fi
  done
done
[[ $differ == 0 ]] || exit 1
echo "run_contrib_cases: error cases"
# in one process (--no-fork), so a sanitizer build's leak check at exit covers every error path
rc=0
"$runner" "$errors" -v --no-fork > "$work/contrib-errors.txt" 2>&1 || rc=$?
cat "$work/contrib-errors.txt"
bad=$(grep '^test_' "$work/contrib-errors.txt" | grep -Ev ': (fail: run: node|unsupported: (run: node|tk_onnx_load: .* node ))' || true)
want=$(find "$errors" -name model.onnx | wc -l)
got=$(grep -c '^test_' "$work/contrib-errors.txt" || true)
if [[ -n $bad || $got != "$want" ]]; then
  echo "run_contrib_cases: error cases that did not end in an error naming their node ($got of $want reported, exit status $rc):"
  echo "$bad"
  exit 1
fi
