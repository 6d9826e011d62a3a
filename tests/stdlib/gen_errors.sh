#!/usr/bin/env bash
# gen_errors.sh GEN — the stdlib generator (tk_stdlib_gen) refuses broken
# input loudly: each case below must exit 1 and name the problem, never
# write a data file. (The stdlib suite itself only shows that good input works.)
set -u
gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME MESSAGE_REGEX -- the files are set up in $tmp/k and $tmp/cases.txt
expect() {
    local name=$1 want=$2
    rm -f "$tmp/out.dat"
    out=$("$gen" --oracle=reference --manifest "$tmp/cases.txt" --kernels "$tmp/k" --data "$tmp/out.dat" --registry "$tmp/out.c" 2>&1)
    rc=$?
    if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -Eq "$want" || [ -e "$tmp/out.dat" ]; then
        echo "FAIL $name: exit $rc, want 1 and /$want/; output:"; printf '%s\n' "$out"; failed=$((failed + 1))
    else
        echo "ok $name: $(printf '%s\n' "$out" | tail -1)"; passed=$((passed + 1))
    fi
}
reset() { rm -rf "$tmp/k"; mkdir -p "$tmp/k"; : > "$tmp/cases.txt"; }
rms='kernel rmsnorm_f32(gl<f32, R, C> X, gl<f32, C> gamma, gl<f32, R, C> Y, f32 eps) grid(1) { }'

reset
printf 'kernel no_such_reference(gl<f32, N> X) { }\n' > "$tmp/k/a.tk"
echo 'a.tk no_such_reference N=3 -' > "$tmp/cases.txt"
expect "kernel without a reference" "kernel no_such_reference has no reference"

reset
echo "$rms" > "$tmp/k/a.tk"; echo "$rms" > "$tmp/k/b.tk"
echo 'a.tk rmsnorm_f32 R=3,C=5 eps=1e-5' > "$tmp/cases.txt"
expect "kernel name in two files" "kernel rmsnorm_f32 is defined in a.tk and in b.tk"

reset
echo "$rms" > "$tmp/k/a.tk"
echo '# no cases' > "$tmp/cases.txt"
expect "kernel without a case" "kernel rmsnorm_f32 of a.tk has no case"

reset
echo "$rms" > "$tmp/k/a.tk"
echo 'a.tk rmsnorm_f32 R=3,C=5 eps=1e-5 Z.lo=0' > "$tmp/cases.txt"
expect "option of a tensor the kernel lacks" "has no option .*'Z.lo'"

reset
echo "$rms" > "$tmp/k/a.tk"
echo 'a.tk rmsnorm_f32 R=3,C=5 eps=1e-5 gamma.lo=2,gamma.hi=1' > "$tmp/cases.txt"
expect "empty input range" "the input range \[2, 1\] is empty"

reset
echo "$rms" > "$tmp/k/a.tk"
echo 'a.tk rmsnorm_f32 R=3,C=5 eps=1e-5 X.pick=' > "$tmp/cases.txt"
expect "pick without values" "X.pick= needs values"

reset
echo "$rms" > "$tmp/k/a.tk"
echo 'a.tk rmsnorm_f32 R=3 eps=1e-5' > "$tmp/cases.txt"
expect "missing size" "the sizes must give C"

reset
printf 'kernel broken(gl<f32, N> X) { rt<f32, 16, 16> t = load(X, 0); }\n' > "$tmp/k/a.tk"
echo 'a.tk broken N=3 -' > "$tmp/cases.txt"
expect "kernel file with errors" "a.tk has errors"

echo "gen_errors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
