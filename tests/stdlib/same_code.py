#!/usr/bin/env python3
"""same_code.py — does a rewritten .tk file compile to the same code as before?

A refactoring of the stdlib (a generic helper for copied bodies, a thin kernel
over it) must not change performance; rather than timing it, compare what the
compiler makes of each kernel before and after:

  same_code.py OLD.tk NEW.tk [--tkc PATH] [--old-tkc PATH] [--target T] [--llvm]
               [--map OLD_KERNEL=NEW_KERNEL ...] [--instance 'K<V,...>' ...]

For every kernel of OLD.tk (under the same name in NEW.tk unless --map says
otherwise; --instance adds instances of NEW.tk's generic kernels, named by their
linkage name, e.g. --map gemm_f32_small=gemm_f32__64_64_64) it prints one line:

  identical     the TIR is the same after normalising: source locations dropped,
                values renumbered in order, a helper instance's variable names
                ("act<16,64>") read as the helper's, and scalar bindings made once
                folded away (a helper binds its sizes and scalar parameters as
                copies of the caller's values, VAR/SET/GET, which the kernel
                written inline reads directly; tile variables are never folded,
                their copies are real memory)
  DIFFERENT     otherwise, with the first lines of a diff

--llvm compares the O3 LLVM IR instead (names, attribute groups and metadata
numbers normalised), and says `reordered` when the same instructions appear in
another order, listing any few that differ (e.g. the stack estimate the
NAME__grid function stores). Exit status 0 when every kernel is identical (or
only reordered with --llvm), 1 otherwise, 2 on a usage or compile error. """
import argparse
import collections
import difflib
import os
import re
import subprocess
import sys
import tempfile


def emit(tkc, src, stage, target, instances):
    out = tempfile.NamedTemporaryFile(suffix='.' + stage, delete=False)
    out.close()
    cmd = [tkc, '--emit=' + stage, '--target=' + target, src, '-o', out.name]
    for i in instances:
        cmd += ['--instance', i]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(2)
    text = open(out.name).read()
    os.unlink(out.name)
    return text


# ---------------------------------------------------------------- TIR

SCALAR = r'(?:i32|i64|f32|f16|bf16|bool)'


def fold_once(lines):
    """One pass of folding scalar VARs whose only SET follows them directly."""
    sets = collections.Counter(m.group(1) for l in lines for m in [re.match(r'\s*SET (%\d+), ', l)] if m)
    alias, out, i = {}, [], 0
    sub = lambda l: re.sub(r'%\d+', lambda m: alias.get(m.group(0), m.group(0)), l)
    while i < len(lines):
        m = re.match(r'\s*(%\d+) = VAR ' + SCALAR + r'  "\w+"$', lines[i])
        if m and sets[m.group(1)] == 1 and i + 1 < len(lines):
            v = m.group(1)
            # a helper's size: VAR; CONST_INT 1; BINARY.mul 1, SIZE; SET
            if i + 3 < len(lines):
                c = re.match(r'\s*(%\d+) = CONST_INT 1 : i32$', lines[i + 1])
                mul = re.match(r'\s*(%\d+) = BINARY.mul (%\d+), (%\d+) : i32$', lines[i + 2])
                st = re.match(r'\s*SET (%\d+), (%\d+)$', lines[i + 3])
                if c and mul and st and mul.group(2) == c.group(1) and st.group(1) == v and st.group(2) == mul.group(1):
                    alias[v] = mul.group(3)
                    i += 4
                    continue
            st = re.match(r'\s*SET (%\d+), (%\d+)$', lines[i + 1])
            if st and st.group(1) == v:
                alias[v] = alias.get(st.group(2), st.group(2))
                i += 2
                continue
        g = re.match(r'\s*(%\d+) = GET (%\d+) : ' + SCALAR + '$', lines[i])
        if g and g.group(2) in alias:
            alias[g.group(1)] = alias[g.group(2)]
            i += 1
            continue
        out.append(sub(lines[i]))
        i += 1
    return out


def tir_kernels(text):
    ks = {}
    for b in re.split(r'\n(?=kernel )', text):
        m = re.match(r'kernel (\w+)\(', b)
        if not m:
            continue
        name = m.group(1)
        b = b.replace('kernel ' + name + '(', 'kernel K(', 1)
        b = re.sub(r'\s*; \S+:\d+\s*$', '', b, flags=re.M)
        b = re.sub(r'"(\w+)<[-\w,]+>"', r'"\1"', b)
        lines = b.rstrip().split('\n')
        while True:
            folded = fold_once(lines)
            if folded == lines:
                break
            lines = folded
        names = {}
        b = re.sub(r'%\d+', lambda m: names.setdefault(m.group(0), '%' + str(len(names))), '\n'.join(lines))
        ks[name] = b
    return ks


# ---------------------------------------------------------------- LLVM

def llvm_kernels(text):
    attrs = dict(re.findall(r'^attributes (#\d+) = (\{.*\})$', text, re.M))
    meta = dict(re.findall(r'^(![0-9]+) = (.*)$', text, re.M))
    globs = dict(re.findall(r'^(@[\w.$]+) = (.*)$', text, re.M))
    funcs = {m.group(1): m.group(0) for m in re.finditer(r'^define [^\n]*@([\w.$]+)\((?:.|\n)*?^\}$', text, re.M)}
    ks = collections.defaultdict(list)
    for f in sorted(funcs):
        m = re.fullmatch(r'(\w+?)__(grid|block)', f)
        if not m:
            continue
        name, part = m.group(1), m.group(2)
        body = funcs[f].replace('@' + f + '(', '@K__' + part + '(')
        body = re.sub(r'#\d+', lambda m: attrs.get(m.group(0), m.group(0)), body)
        body = re.sub(r'@[\w.$]+', lambda m: '@<' + globs[m.group(0)] + '>'
                      if m.group(0) in globs and ('private' in globs[m.group(0)] or 'internal' in globs[m.group(0)]) else m.group(0), body)
        for _ in range(3):
            body = re.sub(r'![0-9]+', lambda m: meta.get(m.group(0), m.group(0)), body)
        body = re.sub(r'![0-9]+', '!N', body)
        body = re.sub(r'^([-\w$.]+|"[^"]+"):', r'%\1:', body, flags=re.M)
        body = re.sub(r'; preds = .*', '', body)
        names = {}
        body = re.sub(r'%(?:"[^"]*"|[-\w$.]+)', lambda m: names.setdefault(m.group(0), '%v' + str(len(names))), body)
        ks[name].append('== ' + part + '\n' + body)
    return {k: '\n'.join(v) for k, v in ks.items()}


def bag(text):
    return collections.Counter(re.sub(r'%v\d+', '%v', l).strip() for l in text.splitlines())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('old')
    ap.add_argument('new')
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--tkc', default=os.path.join(here, '..', '..', 'build', 'tools', 'tkc', 'tkc'))
    ap.add_argument('--old-tkc', help='the tkc for OLD.tk (default: --tkc)')
    ap.add_argument('--target', default='x86-64-avx512bf16')
    ap.add_argument('--llvm', action='store_true')
    ap.add_argument('--map', action='append', default=[])
    ap.add_argument('--instance', action='append', default=[])
    a = ap.parse_args()
    stage = 'llvm' if a.llvm else 'tir'
    parse = llvm_kernels if a.llvm else tir_kernels
    old = parse(emit(a.old_tkc or a.tkc, a.old, stage, a.target, []))
    new = parse(emit(a.tkc, a.new, stage, a.target, a.instance))
    names = dict(m.split('=', 1) for m in a.map)
    bad = 0
    for k in sorted(old):
        n = names.get(k, k)
        if n not in new:
            print('MISSING    %s -> %s' % (k, n))
            bad += 1
            continue
        if old[k] == new[n]:
            print('identical  %s -> %s (%d lines)' % (k, n, old[k].count('\n') + 1))
            continue
        ca, cb = bag(old[k]), bag(new[n])
        only_old, only_new = list((ca - cb).elements()), list((cb - ca).elements())
        if a.llvm and len(only_old) + len(only_new) <= 6:
            print('reordered  %s -> %s: the same instructions in another order%s' %
                  (k, n, '' if not only_old + only_new else ', except %s -> %s' % (only_old, only_new)))
            continue
        bad += 1
        d = list(difflib.unified_diff(old[k].splitlines(), new[n].splitlines(), lineterm='', n=1))
        print('DIFFERENT  %s -> %s' % (k, n))
        print('\n'.join('    ' + l for l in d[2:40]))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
