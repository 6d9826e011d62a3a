#!/usr/bin/env bash
# long_lines.sh TKC — diagnostics on a 240 KB source line (generated or
# minified code) stay small: each of the 100 reported errors shows a window of
# the line around its caret, not the whole line and a caret line as long
# (that was 24 MB of output, written a character at a time: 25 s). Gated on
# the output's size and shape, never on time (the time is printed).
set -u
tkc=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/tk_long_lines_XXXXXX")
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/long.tk" <<'PY'
import sys
parts, total, i = [], 0, 0
while total < 240000:
    p = f"let a{i} = b{i} + 1;"   # b{i} is unknown: one error per statement
    parts.append(p); total += len(p) + 1; i += 1
open(sys.argv[1], "w").write("kernel k() {\n    " + " ".join(parts) + "\n}\n")
PY
start=$(date +%s%N)
"$tkc" check "$dir/long.tk" >"$dir/out" 2>&1
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
bytes=$(wc -c <"$dir/out")
errors=$(grep -c ': error: ' "$dir/out")
longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$dir/out")
echo "long_lines: $(wc -c <"$dir/long.tk") bytes on one line: exit $rc, $errors errors, $bytes bytes of diagnostics, longest line $longest, ${ms} ms"
status=0
[ "$rc" -eq 1 ] || { echo "FAIL: exit status $rc, not 1"; status=1; }
[ "$errors" -eq 100 ] || { echo "FAIL: $errors errors reported, not 100"; status=1; }
grep -q 'too many errors, stopped after 100' "$dir/out" || { echo "FAIL: no 'too many errors' line"; status=1; }
[ "$bytes" -lt 100000 ] || { echo "FAIL: $bytes bytes of diagnostics (a window per error should be ~25 KB)"; status=1; }
[ "$longest" -le 140 ] || { echo "FAIL: an output line of $longest characters (the window is 120)"; status=1; }
# every caret line sits under the name it points at: the character under '^' in the line above is 'b'
awk '/^ *[0-9]+ \| / { src = $0; next }
     /^ +\| *\^/ { c = index($0, "^"); if (substr(src, c, 1) != "b") { bad++ } }
     END { exit bad > 0 }' "$dir/out" || { echo "FAIL: a caret is not under its name"; status=1; }
exit $status
