#!/usr/bin/env bash
# doc_examples.sh TKC DOC.md... — every ```tk block of the given documents
# must pass `tkc check` without a diagnostic, so the docs cannot drift from
# the compiler. A block whose first line is `// fragment` is a statement
# sequence: it is checked as the body of the host kernel of LANGUAGE.md §6.0
# (the block whose first line starts with `// Host of the fragments`). A block
# whose first line is `// error` shows a mistake on purpose and must FAIL
# the check. A block without any '{' lists signatures: each `kernel`/`fn`
# line is checked with an empty body.
set -u
tkc=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" "$@" <<'PY'
import os, re, sys
out = sys.argv[1]
host = None
blocks = []
for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"^```tk\n(.*?)^```", text, re.S | re.M):
        body = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        if body.startswith("// Host of the fragments"):
            host = body
        blocks.append((os.path.basename(path), line, body))
if host is None:
    sys.exit("doc_examples: no host kernel block ('// Host of the fragments') found")
head, tail = host.split("    // the fragment goes here\n")
for i, (doc, line, body) in enumerate(blocks):
    first = body.split("\n", 1)[0].strip()
    if first == "// fragment":
        src = head + "".join("    " + l + "\n" for l in body.splitlines()) + tail
    elif "{" not in body:
        src = "".join(l + (" {}" if l.startswith(("kernel ", "fn ")) else "") + "\n" for l in body.splitlines())
    else:
        src = body
    kind = "error" if first == "// error" else "ok"
    with open(os.path.join(out, f"{i:03d}.{kind}.tk"), "w") as f:
        f.write(src)
    with open(os.path.join(out, f"{i:03d}.where"), "w") as f:
        f.write(f"{doc}:{line}")
PY
[ $? -eq 0 ] || exit 1
passed=0
failed=0
for f in "$tmp"/*.tk; do
    where=$(cat "${f%.*.tk}.where")
    if "$tkc" check "$f" >"$tmp/out" 2>&1 && [ ! -s "$tmp/out" ]; then ok=1; else ok=0; fi
    case $f in
    *.error.tk) [ $ok -eq 0 ] && passed=$((passed + 1)) || { echo "FAIL $where: an // error example checks cleanly"; failed=$((failed + 1)); } ;;
    *) [ $ok -eq 1 ] && passed=$((passed + 1)) || { echo "FAIL $where:"; cat "$tmp/out"; failed=$((failed + 1)); } ;;
    esac
done
echo "doc_examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
