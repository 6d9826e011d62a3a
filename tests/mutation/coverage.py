#!/usr/bin/env python3
"""coverage.py --build DIR --root SRC --dirs lower,... — the lines of the C
sources under SRC/DIRS that a --coverage build in DIR executed (its .gcda
files, read with gcov), as "path:line", one per line, for mutants.py --covered."""
import argparse
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--build", required=True)
ap.add_argument("--root", required=True)
ap.add_argument("--dirs", required=True)
a = ap.parse_args()
root = os.path.realpath(a.root)
wanted = tuple(os.path.join(root, d) + os.sep for d in a.dirs.split(","))
covered = set()
with tempfile.TemporaryDirectory() as tmp:
    for dirpath, _, files in os.walk(a.build):
        for f in files:
            if not f.endswith(".gcda"):
                continue
            # gcov writes NAME.c.gcov files into the current directory
            subprocess.run(["gcov", "-p", os.path.join(dirpath, f)], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for g in os.listdir(tmp):
        if not g.endswith(".gcov"):
            continue
        src = None
        for ln in open(os.path.join(tmp, g), errors="replace"):
            parts = ln.split(":", 2)
            if len(parts) < 3:
                continue
            count, no = parts[0].strip(), parts[1].strip()
            if no == "0" and parts[2].startswith("Source:"):
                src = os.path.realpath(os.path.join(a.build, parts[2][7:].strip())) if not os.path.isabs(parts[2][7:].strip()) else os.path.realpath(parts[2][7:].strip())
                if not src.startswith(wanted) or not src.endswith(".c"):
                    break
                continue
            if src and count not in ("-", "#####", "=====") and count.rstrip("*").isdigit() and int(count.rstrip("*")) > 0:
                covered.add((os.path.relpath(src, root), int(no)))
for rel, no in sorted(covered):
    print(f"{rel}:{no}")
print(f"coverage.py: {len(covered)} executed lines", file=sys.stderr)
