#!/usr/bin/env python3
"""mutants.py — the planted bugs of scripts/mutation.sh: find mutation sites in
C sources and apply one mutant to a file.

  mutants.py list --root SRC --dirs lower,intrinsics,targets,runtime --seed S --count N
                  [--covered FILE] > mutants.tsv
  mutants.py apply --root SRC --mutant LINE_OF_TSV      (rewrites one file in place)

A mutant is one edit of one line, by one operator:
  cmp       flip a comparison:        <  <=   >  >=   ==  !=   (each to its partner)
  logic     drop a mask or term:      A && B -> A   A || B -> A,  if (C) -> if (1) / if (0)
  offby1    an integer literal +1 or -1 (a bound, an index, a size)
  swap      swap operands:            a - b -> b - a,  a / b -> b / a, and the two value
                                      operands of LLVMBuild{Sub,FSub,SDiv,UDiv,FDiv,ICmp,FCmp}
  skip      skip a store:             a statement line LLVMBuildStore/LLVMBuildMemCpy/MemSet(...);
                                      or a plain assignment `lhs = rhs;` becomes `;`
  const     a wrong constant:         a float literal halved, an integer literal doubled
Sites: code only (comments, string and character literals masked out), not
preprocessor lines, and not lines that only report errors (fprintf, snprintf,
ti_fail, tk_error, return -1, assert) — a mutant there changes no result a test
could see. Nor memory management: lines that allocate (their sizes) or test
whether an allocation failed, which only a failing allocator or AddressSanitizer
could tell apart (the fast suite has neither; CI runs the whole suite under
ASan), and the sizes of local arrays in declarations. With --covered (a file of "path:line" the fast suite executed, from
gcov), only executed lines. The choice is reproducible: the same seed, sources
and coverage give the same mutants.

TSV columns: id, file (relative to SRC), line, operator, column, original text,
replacement text (the matched span and what replaces it; whole-line edits have
column 0)."""
import argparse
import os
import random
import re
import sys

SKIP_LINE = re.compile(r"\b(fprintf|printf|snprintf|vsnprintf|ti_fail|ti_unreliable|tk_error|tk_diag_|assert|die|perror|fputs)\s*\(|return\s+-1\s*;")
INT = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
FLOAT = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\d*\.\d+(?:[eE][-+]?\d+)?)[fF]?(?![\w.])")
CMP = re.compile(r"(?<![<>=!&|+\-*/%^])(<=|>=|==|!=|<|>)(?![<>=])")
LOGIC = re.compile(r"\s*(&&|\|\|)\s*")
IF_COND = re.compile(r"\bif\s*\(")
SWAP_OP = re.compile(r"(?<![\w\]\)])([A-Za-z_][\w.>\-]*|\d+)\s+([-/])\s+([A-Za-z_][\w.>\-]*|\d+)(?![\w(\[])")
SWAP_CALL = re.compile(r"\bLLVMBuild(Sub|FSub|SDiv|UDiv|FDiv|NSWSub|NUWSub)\(([^,()]+),\s*([^,()]+),\s*([^,()]+),")
STORE_STMT = re.compile(r"^\s*(LLVMBuildStore|LLVMBuildMemCpy|LLVMBuildMemSet|LLVMBuildMemMove)\(.*\);\s*$")
ASSIGN_STMT = re.compile(r"^\s*[A-Za-z_][\w\[\]\.\->*+ ]*\s=\s[^=].*;\s*$")
ALLOC = re.compile(r"\b(malloc|calloc|realloc|strdup|strndup|open_memstream|fopen|xcalloc|xmalloc|ti_out_val|free|xfree)\s*\(")
ALLOC_ASSIGN = re.compile(r"([A-Za-z_][\w]*(?:(?:->|\.)[A-Za-z_]\w*|\[[^\]]*\])*)\s*=\s*(?:\([^()]*\)\s*)?(?:malloc|calloc|realloc|strdup|strndup|open_memstream|fopen|xcalloc|xmalloc|ti_out_val)\s*\(")
ARRAY_DECL = re.compile(r"\b[A-Za-z_]\w*\s*\[\s*\d+\s*\]\s*(=|;|,)")
PARTNER = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def mask_code(lines):
    """Each line with comments and string/char literals replaced by spaces
    (same length), and whether the line is a preprocessor line."""
    out, in_block = [], False
    for text in lines:
        m, i, n = [], 0, len(text)
        pre = text.lstrip().startswith("#") and not in_block
        while i < n:
            if in_block:
                j = text.find("*/", i)
                if j < 0:
                    m.append(" " * (n - i))
                    i = n
                else:
                    m.append(" " * (j + 2 - i))
                    i = j + 2
                    in_block = False
                continue
            c = text[i]
            if text.startswith("/*", i):
                in_block = True
                m.append("  ")
                i += 2
            elif text.startswith("//", i):
                m.append(" " * (n - i))
                i = n
            elif c in "\"'":
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                m.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
                i = min(j + 1, n)
            else:
                m.append(c)
                i += 1
        out.append(("".join(m), pre))
    return out


def sites_of(path, rel, covered):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    allocated = {}   # names assigned an allocation, and the line: their NULL checks follow closely
    for no, ((code, pre), text) in enumerate(zip(mask_code(lines), lines), 1):
        for m in ALLOC_ASSIGN.finditer(code):
            allocated[m.group(1)] = no
        if pre or not code.strip() or SKIP_LINE.search(code) or ALLOC.search(code):
            continue
        recent = [n for n, at in allocated.items() if no - at <= 6]
        if any(re.search(r"!\s*" + re.escape(n) + r"(?![\w\[.-])|\b" + re.escape(n) + r"\s*==\s*NULL", code) for n in recent):
            continue
        if covered is not None and (rel, no) not in covered:
            continue
        s = code.strip()
        if s.startswith(("static const", "const char", "X(")) or s.endswith(("{", "}")) and "(" not in s:
            continue
        for m in CMP.finditer(code):
            op = m.group(1)
            # not a template-ish or shift context: skip '<' '>' that are part of '->'
            if op in "<>" and (code[m.start() - 1:m.start()] == "-" if m.start() else False):
                continue
            yield (rel, no, "cmp", m.start(1), op, PARTNER[op])
        for m in LOGIC.finditer(code):
            # drop the right-hand term: from the operator to the end of the term (same depth)
            depth, j = 0, m.end()
            while j < len(code):
                ch = code[j]
                if ch in "([":
                    depth += 1
                elif ch in ")]":
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and (code.startswith("&&", j) or code.startswith("||", j) or ch in ";?,:"):
                    break
                j += 1
            if j > m.end():
                yield (rel, no, "logic", m.start(), text[m.start():j], "")
        for m in IF_COND.finditer(code):
            depth, j = 1, m.end()
            while j < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[j], 0)
                j += 1
            if depth == 0 and j - 1 > m.end():
                yield (rel, no, "logic", m.end(), text[m.end():j - 1], random.Random(f"{rel}:{no}").choice(["1", "0"]))
        for m in SWAP_OP.finditer(code):
            a, op, b = m.group(1), m.group(2), m.group(3)
            if a != b:
                yield (rel, no, "swap", m.start(), text[m.start():m.end()], f"{b} {op} {a}")
        for m in SWAP_CALL.finditer(code):
            x, y = m.group(3).strip(), m.group(4).strip()
            if x != y:
                yield (rel, no, "swap", m.start(), text[m.start():m.end()],
                       f"LLVMBuild{m.group(1)}({m.group(2)}, {y}, {x},")
        if STORE_STMT.match(code) or (ASSIGN_STMT.match(code) and "==" not in code and not s.startswith(("return", "for", "if", "while"))
                                       and not re.match(r"^\s*(static\s+)?(const\s+)?(unsigned|int|bool|double|float|char|size_t|uint\w*|int\w*|Tk\w*|Tir\w*|LLVM\w*|Emit\w*|Val|Node)\b", code)):
            yield (rel, no, "skip", 0, text, ";")
        for m in FLOAT.finditer(code):
            v = float(m.group(1))
            if v != 0.0:
                yield (rel, no, "const", m.start(1), m.group(1), repr(v / 2))
        decl_sizes = {m.start() for m in ARRAY_DECL.finditer(code)}
        for m in INT.finditer(code):
            v = int(m.group(1))
            if code[m.start(1) - 1:m.start(1)] == "[" and any(code.find("[", d) == m.start(1) - 1 for d in decl_sizes):
                continue
            if code[m.start(1) - 2:m.start(1)] == "0x" or (m.start(1) and code[m.start(1) - 1] == "x"):
                continue
            yield (rel, no, "offby1", m.start(1), m.group(1), str(v + random.Random(f"{rel}:{no}:{m.start(1)}").choice([1, -1]) if v else 1))
            if v > 1:
                yield (rel, no, "const", m.start(1), m.group(1), str(v * 2))


def cmd_list(args):
    covered = None
    if args.covered:
        covered = set()
        with open(args.covered) as f:
            for ln in f:
                p, _, n = ln.strip().rpartition(":")
                if p:
                    covered.add((p, int(n)))
    sites = []
    for d in args.dirs.split(","):
        base = os.path.join(args.root, d)
        for dirpath, _, files in os.walk(base):
            for name in sorted(files):
                if name.endswith(".c"):
                    path = os.path.join(dirpath, name)
                    sites.extend(sites_of(path, os.path.relpath(path, args.root), covered))
    sites.sort()
    rng = random.Random(args.seed)
    # one mutant per line at most, spread over the sites
    rng.shuffle(sites)
    chosen, lines = [], set()
    for s in sites:
        if (s[0], s[1]) in lines:
            continue
        lines.add((s[0], s[1]))
        chosen.append(s)
        if len(chosen) == args.count:
            break
    print(f"# {len(sites)} sites on {len({(s[0], s[1]) for s in sites})} lines in {args.dirs}; seed {args.seed}", file=sys.stderr)
    for i, (rel, no, op, col, orig, repl) in enumerate(chosen, 1):
        esc = lambda t: t.replace("\\", "\\\\").replace("\t", "\\t")
        print(f"{i}\t{rel}\t{no}\t{op}\t{col}\t{esc(orig)}\t{esc(repl)}")


def unesc(t):
    return re.sub(r"\\(\\|t)", lambda m: "\t" if m.group(1) == "t" else "\\", t)


def cmd_apply(args):
    f = args.mutant.rstrip("\n").split("\t")
    _, rel, no, op, col, orig, repl = f[0], f[1], int(f[2]), f[3], int(f[4]), unesc(f[5]), unesc(f[6])
    path = os.path.join(args.root, rel)
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().split("\n")
    text = lines[no - 1]
    if op == "skip":
        if text != orig:
            sys.exit(f"mutants.py: {rel}:{no} changed since the mutants were listed")
        lines[no - 1] = text[:len(text) - len(text.lstrip())] + repl
    else:
        if text[col:col + len(orig)] != orig:
            sys.exit(f"mutants.py: {rel}:{no}:{col} is not '{orig}' any more")
        lines[no - 1] = text[:col] + repl + text[col + len(orig):]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("--root", required=True)
    ls.add_argument("--dirs", default="lower,intrinsics,targets,runtime")
    ls.add_argument("--seed", type=int, default=1)
    ls.add_argument("--count", type=int, default=100)
    ls.add_argument("--covered")
    ap_ = sub.add_parser("apply")
    ap_.add_argument("--root", required=True)
    ap_.add_argument("--mutant", required=True)
    args = ap.parse_args()
    (cmd_list if args.cmd == "list" else cmd_apply)(args)


if __name__ == "__main__":
    main()
