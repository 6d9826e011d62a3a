#!/usr/bin/env bash
# run_oext_cases.sh RUNNER TKRUN WORK SRC — the ext family's own cases
# (gen_oext_cases.py: odd shapes, every mode, older opsets, work split over
# threads) against onnx's reference on 1 and 2 threads; then each case run
# by tkrun on 1 and on 2 threads, whose outputs must be the same bytes; then
# the error cases: each must end in an error naming its node, none may pass
# or crash. Uses the node suite's venv in WORK when it has onnx (run_suite.sh
# makes it), else makes one like it.
set -euo pipefail
runner=$1 tkrun=$2 work=$3 src=$4
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx' 2>/dev/null; then
  venv=$work/venv-oext-cases
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "onnx==1.23.2" numpy || {
      echo "run_oext_cases: cannot install onnx 1.23.2 from PyPI (needed to write the cases)"; exit 1; }
  fi
fi
cases=$work/oext-cases errors=$work/oext-errors
"$venv/bin/python" "$src/gen_oext_cases.py" "$cases" "$errors"
for threads in 1 2; do
  echo "run_oext_cases: $threads thread(s) against the reference"
  TK_NUM_THREADS=$threads "$runner" "$cases" --expect "$cases/expect.txt"
done
echo "run_oext_cases: 1 vs 2 threads, bit for bit"
differ=0
for d in "$cases"/test_*/; do
  args=()
  for f in "$d"test_data_set_0/input_*.pb; do
    i=${f##*input_}; i=${i%.pb}
    args+=(--input "x$i=$f")
  done
  for threads in 1 2; do
    rm -rf "$work/oext-t$threads"
    "$tkrun" "$d/model.onnx" "${args[@]}" --threads $threads --output-dir "$work/oext-t$threads" > /dev/null
  done
  for f in "$work/oext-t1"/*.pb; do
    if ! cmp -s "$f" "$work/oext-t2/${f##*/}"; then
      echo "run_oext_cases: $(basename "$d") output ${f##*/} differs between 1 and 2 threads"
      differ=1
    fi
  done
done
[[ $differ == 0 ]] || exit 1
echo "run_oext_cases: error cases"
"$runner" "$errors" -v > "$work/oext-errors.txt" || true
cat "$work/oext-errors.txt"
bad=$(grep '^test_' "$work/oext-errors.txt" | grep -Ev ': (fail: run: node|unsupported: (run: node|tk_onnx_load: .* node ))' || true)
want=$(find "$errors" -name model.onnx | wc -l)
got=$(grep -c '^test_' "$work/oext-errors.txt" || true)
if [[ -n $bad || $got != "$want" ]]; then
  echo "run_oext_cases: error cases that did not end in an error naming their node ($got of $want reported):"
  echo "$bad"
  exit 1
fi
