#!/usr/bin/env bash
# mutation.sh — the planted-bug score: plant bugs one at a time into the
# compiler (lower/, intrinsics/, targets/, runtime/), rebuild, run the fast
# part of the test suite (tests/mutation/fast_suite.sh), and report the
# fraction caught, per directory, and every survivor.
#
#   bash scripts/mutation.sh [--seed S] [--count N] [--dirs lower,intrinsics,targets,runtime]
#                            [--work DIR] [--ids 3,17,40-45] [--from MUTANTS.tsv] [--no-coverage] [--keep] [--dry-run]
#
# --ids runs only those mutants of the seed's list (to check that a new test
# kills a survivor, without rerunning the other 99). --from takes the list
# from an earlier run's DIR/mutants.tsv instead of making it (the same
# mutants even after mutants.py or the coverage changed).
# --keep keeps the coverage build (DIR/build-cov) for another run; the lines
# it found are cached in DIR/covered.txt either way.
#
# It works on a copy of the working tree (tracked and untracked, not ignored
# files) in DIR (default /tmp/tk-mutation-SEED): the tree you edit is never
# touched. First a --coverage build runs the fast suite once, so that bugs are
# planted only in lines the suite executes (--no-coverage: any line); then a
# plain Debug build, and per mutant (tests/mutation/mutants.py picks them,
# reproducibly from the seed): apply → rebuild the suite's four programs →
# run the suite (a hang past its time-out counts as caught) → put the line
# back. A mutant that does not compile is "stillborn": reported, not scored.
# --dry-run lists the mutants and checks that each applies and reverts
# cleanly, without building.
#
# Output: a table per directory (planted, caught, survived, stillborn,
# score), each survivor with its file:line, operator and the line before and
# after, and DIR/results.tsv (one row per mutant: id, file, line, operator,
# outcome, the stage that caught it). About 30 s per mutant on 2 cores.
# The whole script is one { } block: bash reads it all before running any of
# it, so editing this file during an hour-long run cannot break that run.
{
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seed=1 count=100 dirs=lower,intrinsics,targets,runtime work= coverage=1 keep=0 dry=0 ids= from=
while (($#)); do
  case $1 in
    --seed) seed=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --dirs) dirs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --ids) ids=$2; shift 2 ;;
    --from) from=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --no-coverage) coverage=0; shift ;;
    --keep) keep=1; shift ;;
    --dry-run) dry=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "mutation.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
work=${work:-${TMPDIR:-/tmp}/tk-mutation-$seed}
jobs=${TK_JOBS:-2}
targets=(tkc tk_unit_tests tk_numeric_tests tk_difftest)
src=$work/src
mkdir -p "$work/logs"
work=$(cd "$work" && pwd)
src=$work/src

echo "mutation: copying the tree to $src"
rm -rf "$src"
mkdir -p "$src"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$src"

covered_arg=()
if [[ -n $from ]]; then coverage=0; fi   # the list is given: no coverage needed
if ((coverage && !dry)); then
  cov=$work/build-cov
  if [[ ! -f $work/covered.txt ]]; then
    echo "mutation: coverage build in $cov (once per work directory)"
    cmake -S "$src" -B "$cov" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="--coverage" >"$work/logs/cov-cmake.log"
    cmake --build "$cov" -j "$jobs" --target "${targets[@]}" >"$work/logs/cov-build.log" 2>&1
    find "$cov" -name '*.gcda' -delete
    bash "$src/tests/mutation/fast_suite.sh" "$cov" "$src" --all >"$work/logs/cov-suite.log" 2>&1 || true
    python3 "$src/tests/mutation/coverage.py" --build "$cov" --root "$src" --dirs "$dirs" >"$work/covered.txt"
  fi
  echo "mutation: $(wc -l <"$work/covered.txt") lines of $dirs executed by the fast suite"
  covered_arg=(--covered "$work/covered.txt")
fi

if [[ -n $from ]]; then
  cp "$from" "$work/mutants.tsv.given"
  mv "$work/mutants.tsv.given" "$work/mutants.tsv"
else
  python3 "$src/tests/mutation/mutants.py" list --root "$src" --dirs "$dirs" --seed "$seed" --count "$count" "${covered_arg[@]}" \
    >"$work/mutants.tsv"
fi
if [[ -n $ids ]]; then
  python3 - "$work/mutants.tsv" "$ids" <<'PY'
import sys
want = set()
for part in sys.argv[2].split(","):
    lo, _, hi = part.partition("-")
    want.update(range(int(lo), int(hi or lo) + 1))
rows = [r for r in open(sys.argv[1]) if int(r.split("\t")[0]) in want]
open(sys.argv[1], "w").writelines(rows)
PY
fi
n=$(wc -l <"$work/mutants.tsv")
echo "mutation: $n mutants (seed $seed) in $work/mutants.tsv"

build=$work/build
if ((!dry)); then
  echo "mutation: building the fast suite in $build"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug >"$work/logs/cmake.log"
  cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$work/logs/build.log" 2>&1
  if ! bash "$src/tests/mutation/fast_suite.sh" "$build" "$src" >"$work/logs/baseline.log" 2>&1; then
    echo "mutation: the fast suite fails without any mutant (see $work/logs/baseline.log)" >&2
    exit 1
  fi
fi

results=$work/results.tsv
printf 'id\tfile\tline\toperator\toutcome\tcaught_by\n' >"$results"
start=$SECONDS
# the mutant list on fd 3: the commands in the loop read their own stdin
while IFS=$'\t' read -r id file line op col orig repl <&3; do
  out=
  row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s' "$id" "$file" "$line" "$op" "$col" "$orig" "$repl")
  cp "$src/$file" "$work/original"
  python3 "$src/tests/mutation/mutants.py" apply --root "$src" --mutant "$row"
  if ((dry)); then
    cmp -s "$src/$file" "$work/original" && { echo "mutation: mutant $id changed nothing" >&2; exit 1; }
    cp "$work/original" "$src/$file"
    cmp -s "$src/$file" "$work/original" || { echo "mutation: mutant $id did not revert" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$file" "$line" "$op" "applied" "-" >>"$results"
    continue
  fi
  log=$work/logs/mutant-$id.log
  outcome=survived by=-
  if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$log" 2>&1; then
    outcome=stillborn
  elif ! out=$(bash "$src/tests/mutation/fast_suite.sh" "$build" "$src" 2>&1); then
    outcome=caught
    by=$(sed -n 's/^caught by //p' <<<"$out" | head -1)
    by=${by:-timeout}
  fi
  printf '%s\n' "$out" >>"$log" 2>/dev/null || true
  out=
  cp "$work/original" "$src/$file"   # a new mtime: the next build recompiles it
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$file" "$line" "$op" "$outcome" "$by" >>"$results"
  printf 'mutation: %3s/%s %-9s %-34s %-7s %s -> %s\n' "$id" "$n" "$outcome" "$file:$line" "$op" "${orig:0:50}" "${repl:0:40}"
done 3<"$work/mutants.tsv"
if ((!dry)); then
  # leave the build matching the sources
  cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$work/logs/final-build.log" 2>&1 || true
fi

python3 - "$results" "$work/mutants.tsv" "$((SECONDS - start))" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
muts = {r[0]: r for r in csv.reader(open(sys.argv[2]), delimiter="\t")}
dirs = {}
for r in rows:
    d = r["file"].split("/")[0]
    s = dirs.setdefault(d, {"planted": 0, "caught": 0, "survived": 0, "stillborn": 0, "applied": 0})
    s["planted"] += 1
    s[r["outcome"]] += 1
print(f"\nmutation: {len(rows)} mutants in {sys.argv[3]} s")
print(f"{'directory':<12} {'planted':>7} {'caught':>7} {'survived':>8} {'stillborn':>9} {'score':>7}")
tot = {"planted": 0, "caught": 0, "survived": 0, "stillborn": 0}
for d, s in sorted(dirs.items()):
    scored = s["caught"] + s["survived"]
    print(f"{d:<12} {s['planted']:>7} {s['caught']:>7} {s['survived']:>8} {s['stillborn']:>9} "
          f"{(100 * s['caught'] / scored if scored else 0):>6.1f}%")
    for k in tot: tot[k] += s[k]
scored = tot["caught"] + tot["survived"]
print(f"{'all':<12} {tot['planted']:>7} {tot['caught']:>7} {tot['survived']:>8} {tot['stillborn']:>9} "
      f"{(100 * tot['caught'] / scored if scored else 0):>6.1f}%")
by = {}
for r in rows:
    if r["outcome"] == "caught": by[r["caught_by"]] = by.get(r["caught_by"], 0) + 1
if by: print("caught by stage: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))
surv = [r for r in rows if r["outcome"] == "survived"]
if surv:
    print("\nsurvivors:")
    for r in surv:
        m = muts[r["id"]]
        print(f"  #{r['id']} {r['file']}:{r['line']} {r['operator']}: '{m[5]}' -> '{m[6]}'")
PY
echo "mutation: results in $results, logs in $work/logs"
if ((!keep)); then rm -rf "$work/build-cov"; fi
exit
}
