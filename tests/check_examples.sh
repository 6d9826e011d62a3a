#!/usr/bin/env bash
# check_examples.sh TKC ROOT — every .tk in examples/ and stdlib-kernels/ must
# check cleanly, and the AST printer must round-trip: printing a program and
# printing the printed program again gives the same text, which checks cleanly.
set -u
tkc=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for f in "$root"/examples/*.tk "$root"/stdlib-kernels/*.tk "$root"/tests/lang/ok/*.tk; do
    [ -e "$f" ] || continue
    name=${f#"$root"/}
    if ! "$tkc" check "$f" 2>"$tmp/err"; then
        echo "FAIL check: $name"; cat "$tmp/err"; failed=$((failed + 1)); continue
    fi
    if [ -s "$tmp/err" ]; then
        echo "FAIL check printed diagnostics: $name"; cat "$tmp/err"; failed=$((failed + 1)); continue
    fi
    if ! "$tkc" --emit=ast "$f" -o "$tmp/once.tk" 2>"$tmp/err" ||
       ! "$tkc" --emit=ast "$tmp/once.tk" -o "$tmp/twice.tk" 2>>"$tmp/err"; then
        echo "FAIL round trip (printed program does not check): $name"; cat "$tmp/err"; failed=$((failed + 1)); continue
    fi
    if ! diff -u "$tmp/once.tk" "$tmp/twice.tk"; then
        echo "FAIL round trip (printer not idempotent): $name"; failed=$((failed + 1)); continue
    fi
    passed=$((passed + 1))
done
echo "check_examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
