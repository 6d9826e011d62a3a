#!/usr/bin/env bash
# check_dwarf.sh TKC EXAMPLE — `tkc -g -c` puts the .tk file and its lines into
# the object's DWARF line table (what gdb, perf and valgrind read), and
# without -g there is none.
set -u
tkc=$1
src=$2
dump=/usr/lib/llvm-22/bin/llvm-dwarfdump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tkc" -g -c "$src" -o "$tmp/k.o" || { echo "FAIL: tkc -g -c"; exit 1; }
"$tkc" -c "$src" -o "$tmp/plain.o" || { echo "FAIL: tkc -c"; exit 1; }
name=$(basename "$src")
lines=$("$dump" --debug-line "$tmp/k.o" | awk '/^0x[0-9a-f]+ +[0-9]+/ {print $2}' | sort -nu | tr '\n' ' ')
fail=0
"$dump" --debug-line "$tmp/k.o" | grep -q "name: \"$name\"" || { echo "FAIL: $name is not in the line table"; fail=1; }
# the example's statements span many lines: expect at least 8 distinct ones
[ "$(echo $lines | wc -w)" -ge 8 ] || { echo "FAIL: only lines '$lines' in the table"; fail=1; }
"$dump" --debug-line "$tmp/plain.o" | grep -q "name: \"$name\"" && { echo "FAIL: a line table without -g"; fail=1; }
echo "dwarf: $name lines $lines"
[ $fail -eq 0 ] && echo "dwarf_lines: 1 passed, 0 failed" || echo "dwarf_lines: 0 passed, 1 failed"
exit $fail
