#!/usr/bin/env bash
# run_golden.sh — golden tests for `tkc check`, in the style of cproc's tests.
#
# usage:
#   run_golden.sh TKC [DIR]            error mode (default DIR: errors/ next to this script)
#   run_golden.sh --update TKC [DIR]   error mode, but (re)write NAME.err instead of comparing
#   run_golden.sh --ok TKC [DIR...]    valid-program mode (default DIR: ok/ next to this script)
#
# Error mode: for every NAME.tk in DIR, run `TKC check NAME.tk` from inside DIR
# (so diagnostics name the file as plain `NAME.tk`) and require
#   - exit status 1 (errors in the input; 0 or 2 or a crash fails the test),
#   - nothing on stdout,
#   - stderr byte-for-byte equal to NAME.err (a unified diff is shown otherwise).
# A NAME.err without its NAME.tk also fails (a renamed or deleted test).
# A NAME.args file beside NAME.tk holds extra tkc options, split at spaces
# and not otherwise interpreted (e.g. `--instance gemm<100,32,16>`).
# Summary line: `golden_errors: P passed, F failed`.
#
# --update (for developers): regenerates NAME.err from the current compiler for
# every NAME.tk (a new test only needs its .tk). It still reports tests whose
# exit status is not 1, and writes nothing for them. Read every changed .err
# (`git diff tests/lang/errors`) before committing: a golden file is only worth
# something if a person has judged the message, position, caret and
# expected/found/hint lines to be right.
#
# --ok: for every NAME.tk in each DIR, `TKC check NAME.tk` (from inside DIR) must
# exit 0 with empty stdout and stderr. Summary line: `ok_programs: P passed, F failed`.
#
# Exit status: 0 when every test passed, 1 when any failed (or none were found),
# 2 on usage errors. Each tkc run is limited to 20 seconds when `timeout` exists.
set -u

mode=errors
while [ $# -gt 0 ]; do
    case "$1" in
    --update) mode=update; shift ;;
    --ok) mode=ok; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "run_golden.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 1 ]; then
    echo "usage: run_golden.sh [--update|--ok] TKC [DIR...]" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
tkc=$1
shift
case "$tkc" in
/*) ;;
*) tkc="$(pwd)/$tkc" ;;
esac
if [ ! -x "$tkc" ]; then
    echo "run_golden.sh: '$tkc' is not an executable" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    if [ "$mode" = ok ]; then set -- "$here/ok"; else set -- "$here/errors"; fi
fi
if [ "$mode" != ok ] && [ $# -ne 1 ]; then
    echo "run_golden.sh: error mode takes one directory" >&2
    exit 2
fi

limit=()
if command -v timeout >/dev/null 2>&1; then limit=(timeout 20); fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tk_golden.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
out="$scratch/stdout"
err="$scratch/stderr"

passed=0
failed=0
fail() {   # NAME, reason
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

# run DIR NAME.tk: runs tkc from DIR; sets $rc, fills $out and $err.
run() {
    local extra=()
    if [ -f "$1/${2%.tk}.args" ]; then read -ra extra <"$1/${2%.tk}.args"; fi
    (cd "$1" && ${limit[@]+"${limit[@]}"} "$tkc" check ${extra[@]+"${extra[@]}"} "$2" >"$out" 2>"$err")
    rc=$?
}

describe_rc() {
    case "$1" in
    0) echo "exit status 0 (no errors reported)" ;;
    124) echo "timed out" ;;
    1|2) echo "exit status $1" ;;
    *) if [ "$1" -gt 128 ]; then echo "crashed (signal $(($1 - 128)))"; else echo "exit status $1"; fi ;;
    esac
}

for dir in "$@"; do
    if [ ! -d "$dir" ]; then
        echo "run_golden.sh: no directory '$dir'" >&2
        exit 2
    fi
    dir=$(cd "$dir" && pwd)
    shopt -s nullglob
    tests=("$dir"/*.tk)
    shopt -u nullglob
    for path in "${tests[@]}"; do
        file=$(basename "$path")
        name=${file%.tk}
        run "$dir" "$file"
        case "$mode" in
        ok)
            if [ "$rc" -ne 0 ]; then
                fail "$name" "$(describe_rc "$rc"), expected 0"
                sed 's/^/    /' "$err"
            elif [ -s "$err" ] || [ -s "$out" ]; then
                fail "$name" "output on a clean check"
                sed 's/^/    /' "$out" "$err"
            else
                passed=$((passed + 1))
            fi
            ;;
        errors)
            if [ ! -f "$dir/$name.err" ]; then
                fail "$name" "no $name.err (create it with --update, then review it)"
            elif [ "$rc" -ne 1 ]; then
                fail "$name" "$(describe_rc "$rc"), expected 1"
                diff -u --label "$name.err (expected)" --label "$name.err (actual)" "$dir/$name.err" "$err"
            elif [ -s "$out" ]; then
                fail "$name" "unexpected output on stdout"
                sed 's/^/    /' "$out"
            elif ! cmp -s "$dir/$name.err" "$err"; then
                fail "$name" "diagnostics differ"
                diff -u --label "$name.err (expected)" --label "$name.err (actual)" "$dir/$name.err" "$err"
            else
                passed=$((passed + 1))
            fi
            ;;
        update)
            if [ "$rc" -ne 1 ]; then
                fail "$name" "$(describe_rc "$rc"), expected 1; $name.err not written"
                sed 's/^/    /' "$err"
            elif [ -f "$dir/$name.err" ] && cmp -s "$dir/$name.err" "$err"; then
                passed=$((passed + 1))
            else
                cp "$err" "$dir/$name.err"
                echo "updated $name.err"
                passed=$((passed + 1))
            fi
            ;;
        esac
    done
    if [ "$mode" != ok ]; then
        shopt -s nullglob
        for e in "$dir"/*.err; do
            name=$(basename "$e" .err)
            [ -f "$dir/$name.tk" ] || fail "$name" "$name.err has no $name.tk"
        done
        shopt -u nullglob
    fi
done

label=golden_errors
[ "$mode" = ok ] && label=ok_programs
if [ $((passed + failed)) -eq 0 ]; then
    echo "$label: no tests found in $*"
    exit 1
fi
echo "$label: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
