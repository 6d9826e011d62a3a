#!/usr/bin/env bash
# generic_tkc.sh TKC ROOT — tkc and instances of a generic kernel
# (docs/LANGUAGE.md §5.11): `tkc run --kernel 'gemm<...>'` compiles, runs and
# checks that instance (one timed sample: the time is not judged); `tkc -c
# --instance` writes an object and a header declaring each instance under its
# linkage name; an unknown instance is an input error (exit 1) with a
# diagnostic, not a crash; --emit=tir names the instance's function.
set -u
tkc=$1
root=$2
src=$root/tests/lang/ok/generic_gemm.tk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

out=$("$tkc" run "$src" --kernel 'gemm<64, 32, 16>' --size M=50,N=70,K=45 --check --json --repeat 1 --threads 2) ||
    fail "tkc run --kernel 'gemm<64, 32, 16>' exited $?: $out"
python3 - "$out" <<'PY' || status=1
import json, sys
j = json.loads(sys.argv[1])
bad = []
if j.get("kernel") != "gemm<64,32,16>": bad.append(f"kernel {j.get('kernel')!r}, not 'gemm<64,32,16>'")
if j.get("correct") is not True: bad.append("not checked correct")
if bad: print("FAIL: tkc run: " + "; ".join(bad)); sys.exit(1)
PY

# the default instance is there under the plain name
"$tkc" run "$src" --kernel gemm --size M=33,N=17,K=20 --check --repeat 1 --threads 1 >"$tmp/out" 2>&1 ||
    fail "tkc run --kernel gemm (the default instance): $(cat "$tmp/out")"

"$tkc" run "$src" --kernel 'gemm<64,32>' --size M=8,N=8,K=8 --repeat 1 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a wrong count exited $rc, not 1"
grep -q "'gemm' takes 3 compile-time arguments, not 2" "$tmp/out" || fail "no count diagnostic: $(cat "$tmp/out")"

"$tkc" run "$src" --kernel 'gemn<64,32,16>' --size M=8,N=8,K=8 --repeat 1 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "an unknown instance exited $rc, not 1"
grep -q "no kernel named 'gemn' for the instance 'gemn<64,32,16>'" "$tmp/out" || fail "no diagnostic: $(cat "$tmp/out")"

"$tkc" -c --instance 'gemm<64,32,16>' --instance 'gemm<16,48,32>' "$src" -o "$tmp/g.o" 2>"$tmp/err" ||
    fail "tkc -c --instance exited $?: $(cat "$tmp/err")"
for decl in 'static inline int gemm(' 'static inline int gemm__64_32_16(' 'static inline int gemm__16_48_32(' \
            '/\* gemm<64,32,16>(A: gl<bf16, M, K>' 'void gemm__16_48_32__grid('; do
    grep -q "$decl" "$tmp/g.h" || fail "g.h lacks '$decl'"
done
nm "$tmp/g.o" 2>/dev/null | grep -q ' T gemm__64_32_16__block' || fail "g.o has no gemm__64_32_16__block"

"$tkc" --emit=tir --kernel 'gemm<16,48,32>' "$src" >"$tmp/tir" 2>&1 || fail "--emit=tir --kernel exited $?"
grep -q '^kernel gemm__16_48_32(' "$tmp/tir" || fail "the TIR has no gemm__16_48_32"

[ "$status" -eq 0 ] && echo "generic_tkc: ok"
exit $status
