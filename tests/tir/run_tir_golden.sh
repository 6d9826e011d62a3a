#!/usr/bin/env bash
# run_tir_golden.sh TKC DIR [--update] — golden tests of the middle of the
# compiler: for every NAME.tk in DIR, `tkc --emit=tir --target=x86-64-avx2
# NAME.tk` must print exactly NAME.tir (after the target's passes, so shared
# offsets and operand packing show), and where NAME.ll exists, `tkc
# --emit=llvm -O0 --target=x86-64-avx2 NAME.tk` must print exactly NAME.ll
# (unoptimised, for a fixed target, so the text depends only on our emitter). Run from DIR so
# that file names in the output are relative. --update rewrites the goldens
# (read the diff before committing them).
set -u
tkc=$1
dir=$2
update=${3:-}
cd "$dir" || exit 2
passed=0
failed=0
check() {   # check NAME KIND GOLDEN COMMAND...
    local name=$1 kind=$2 golden=$3
    shift 3
    local out
    out=$("$@" 2>&1)
    local rc=$?
    if [ "$update" = "--update" ]; then
        [ $rc -eq 0 ] && printf '%s\n' "$out" > "$golden"
    fi
    if [ $rc -ne 0 ]; then
        echo "FAIL $name ($kind): tkc exited $rc"; printf '%s\n' "$out" | head -20; failed=$((failed + 1)); return
    fi
    if ! diff -u "$golden" <(printf '%s\n' "$out") > /tmp/tir_golden_diff.$$ 2>&1; then
        echo "FAIL $name ($kind): output differs from $golden"; head -40 /tmp/tir_golden_diff.$$; failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
    rm -f /tmp/tir_golden_diff.$$
}
for tk in *.tk; do
    name=${tk%.tk}
    check "$name" tir "$name.tir" "$tkc" --emit=tir --target=x86-64-avx2 "$tk"
    if [ -f "$name.ll" ] || { [ "$update" = "--update" ] && [ "$name" = "mma_small" -o "$name" = "axpy" ]; }; then
        check "$name" llvm "$name.ll" "$tkc" --emit=llvm -O0 --target=x86-64-avx2 "$tk"
    fi
done
echo "tir_golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
