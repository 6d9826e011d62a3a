#!/usr/bin/env bash
# run_options.sh TKC ROOT — `tkc run`'s timing options do what they say: the
# first launch is checked against the interpreter, --repeat N gives N samples
# (--times lists them), and --cold (caches evicted before each timed launch)
# and --warmup still give a checked, timed run. The times themselves are never
# judged (a shared machine); only that they exist and are positive.
set -u
tkc=$1
root=$2
out=$("$tkc" run "$root/examples/gemm.tk" --size M=100,N=70,K=50 --check --json --repeat 3 --warmup 1 --cold --times --threads 2) || {
    echo "FAIL: tkc run --cold exited $?: $out"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
j = json.loads(sys.argv[1])
problems = []
if j.get("error") is not None: problems.append(f"error {j['error']}")
if j.get("correct") is not True: problems.append("not checked correct")
if len(j.get("times_ms", [])) != 3: problems.append(f"times_ms {j.get('times_ms')} is not 3 samples")
if not all(t > 0 for t in j.get("times_ms", [0])): problems.append("a sample is not positive")
if j.get("threads") != 2: problems.append(f"threads {j.get('threads')}")
print("run_options: " + ("; ".join(problems) if problems else f"ok ({j['times_ms']} ms)"))
sys.exit(1 if problems else 0)
PY
status=$?
# an unknown option is a usage error, not a crash
"$tkc" run "$root/examples/gemm.tk" --size M=8,N=8,K=8 --colder >/dev/null 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then echo "FAIL: an unknown option exited $rc, not 2"; status=1; fi
exit $status
