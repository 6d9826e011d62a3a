#!/usr/bin/env bash
# selftest.sh BENCH_PEAK — the ctest `bench_selftest`: no timings, only that the
# harness still works. 1) bench_peak's loops do the work their FLOP and byte
# counts claim (exact sums of all-ones inputs, the triad checked element by
# element); 2) selftest.py: the case list, reading our kernels' signatures, and
# report.py's metrics, table and plots on a synthetic run with known
# answers. Exit 77 (skipped) only when a real dependency is missing: python3, or
# Debian's python3-matplotlib for the plots (the metrics and table are checked first).
set -uo pipefail
export PYTHONDONTWRITEBYTECODE=1   # keep the source tree clean
here=$(cd "$(dirname "$0")" && pwd)
"$1" --selftest || exit 1
# Debian's python3 is the one that has python3-matplotlib (a pyenv python3 earlier on PATH does not)
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3 || true)
if [[ -z $py ]]; then
  echo "bench_selftest: skipped report checks: no python3 (apt-get install python3)"
  exit 77
fi
"$py" "$here/selftest.py"
