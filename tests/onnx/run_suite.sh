#!/usr/bin/env bash
# run_suite.sh RUNNER WORK SRC — the ONNX node suite: a venv with the pinned
# onnx (and onnxruntime, for the peer count) from PyPI in WORK/venv, the cases
# written into WORK/node-suite, then our runner against expected_pass.txt, and
# ONNX Runtime on the same files. Reports land in WORK/*.json.
set -euo pipefail
runner=$1 work=$2 src=$3
mkdir -p "$work"
venv=$work/venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnx, onnxruntime' 2>/dev/null; then
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q "onnx==1.23.2" onnxruntime numpy || {
    echo "run_suite: cannot install onnx 1.23.2 from PyPI (needed to write the node suite)"; exit 1; }
fi
"$venv/bin/python" "$src/gen_node_suite.py" "$work/node-suite"
rc=0
"$runner" "$work/node-suite" --report "$work/tk_report.json" --expect "$src/expected_pass.txt" || rc=$?
"$venv/bin/python" "$src/ort_suite.py" "$work/node-suite" --json "$work/ort_report.json" || true
exit $rc
