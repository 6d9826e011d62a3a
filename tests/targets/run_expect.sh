#!/usr/bin/env bash
# run_expect.sh [--cpu-flags "f1 f2 .."] --expect REGEX -- COMMAND [ARGS..]
# Runs COMMAND, shows its output, and passes only if it exits 0 and a line of
# its output matches the extended REGEX. With --cpu-flags, exits 77 (ctest:
# skipped) when /proc/cpuinfo lacks one of the flags, since the program would
# die of an illegal instruction rather than test anything.
set -u
flags="" expect=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu-flags) flags="$2"; shift 2 ;;
        --expect) expect="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "run_expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "$expect" ] || [ $# -eq 0 ]; then
    echo "usage: run_expect.sh [--cpu-flags \"F..\"] --expect REGEX -- COMMAND [ARGS..]" >&2
    exit 2
fi
if [ -n "$flags" ]; then
    have=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
    for f in $flags; do
        case " ${have#*:} " in
            *" $f "*) ;;
            *) echo "skipped: this CPU lacks '$f' (needs: $flags), so the program cannot run here"; exit 77 ;;
        esac
    done
fi
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
    echo "FAILED: exit status $rc"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq "$expect"; then
    echo "FAILED: no output line matches /$expect/"
    exit 1
fi
exit 0
