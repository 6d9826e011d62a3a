#!/usr/bin/env bash
# bench/fusion/run.sh [TKC] — is an element-wise formula's speed independent of
# its spelling? Times epilogue.tk's ep_lets (lets, two used twice) and ep_one
# (one expression) with `tkc run` on one thread, beside the hand-written C loop
# of epilogue_c.c (cc -O3 -march=native), at a cache-resident size (1024×1024)
# and a DRAM-sized one (4096×4096), interleaved over ROUNDS rounds (default 5),
# and prints the medians and the ratios. The issue's goals: lets vs one
# expression within 5%, and both within 10% of the C loop. Also reports the
# exact-GELU epilogue (ep_gelu_lets vs gelu_erf) for the same question.
# "C tiles" is the same C loop walking the array in epilogue.tk's 16×256
# tiles and block order: what the traversal alone costs against the flat loop
# (at 4096², 16 separate row streams run at about half the flat loop's speed).
# A benchmark, not a test: it never fails on a timing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tkc=${1:-$root/build/tools/tkc/tkc}
rounds=${ROUNDS:-5}
reps=${REPS:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O3 -march=native -o "$tmp/epilogue_c" "$here/epilogue_c.c" -lm
tk_ms() {   # kernel M N → median ms of one `tkc run`
  "$tkc" run "$here/epilogue.tk" --kernel "$1" --size "M=$2,N=$3" --set s=0.75 --set b=0.25 --threads 1 \
    --repeat "$reps" --warmup 5 --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["ms"])'
}
for size in "1024 1024" "4096 4096"; do
  set -- $size
  : > "$tmp/r"
  for ((r = 0; r < rounds; r++)); do   # interleaved: each round times every variant once
    printf '%s %s %s %s %s %s\n' "$(tk_ms ep_lets "$1" "$2")" "$(tk_ms ep_one "$1" "$2")" \
      "$("$tmp/epilogue_c" "$1" "$2" "$reps" | cut -d' ' -f1)" \
      "$(tk_ms ep_gelu_lets "$1" "$2")" "$(tk_ms ep_gelu_one "$1" "$2")" \
      "$("$tmp/epilogue_c" "$1" "$2" "$reps" 16 256 | cut -d' ' -f1)" >> "$tmp/r"
  done
  python3 - "$1" "$2" "$tmp/r" <<'PY'
import statistics, sys
m, n, path = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [list(map(float, l.split())) for l in open(path) if l.strip()]
med = [statistics.median(c) for c in zip(*rows)]
lo = [min(c) for c in zip(*rows)]
lets, one, c, gl, go, ct = med
print(f"{m}x{n} f32, 1 thread, medians of {len(rows)} rounds (min in brackets), ms:")
print(f"  lets {lets:.4f} [{lo[0]:.4f}]  one expression {one:.4f} [{lo[1]:.4f}]  C loop {c:.4f} [{lo[2]:.4f}]")
print(f"  lets/one {lets / one:.3f} (goal within 5%)  lets/C {lets / c:.3f}  one/C {one / c:.3f} (goal <= 1.10)")
print(f"  C loop in the kernel's 16x256 tiles {ct:.4f} [{lo[5]:.4f}]: one/C tiles {one / ct:.3f}, C tiles/C {ct / c:.3f}")
print(f"  exact GELU: lets {gl:.4f}  gelu_erf {go:.4f}  lets/one {gl / go:.3f}")
PY
done
