#!/usr/bin/env python3
"""report.py PEAK.jsonl RESULTS.jsonl — the runtime bench's table: per case the
median over rounds of each implementation's median time, the ratio of each
peer's time to ours (> 1: we are faster), and for the streaming cases the
share of the measured bandwidth (triad for add/mul, copy for exp/gelu, read
for the sums)."""
import collections
import json
import statistics
import sys


def main():
    peaks = collections.defaultdict(list)
    for line in open(sys.argv[1]):
        p = json.loads(line)
        peaks[p["threads"]].append(p)
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(sys.argv[2]):
        r = json.loads(line)
        rows[r["case"]][r["impl"]].append(r)
    print(f"{'case':28} {'impl':8} {'median':>12} {'min':>12} {'x ours':>8} {'% roofline':>11}")
    for case in sorted(rows):
        threads = int(case.rsplit("_t", 1)[1])
        # the roof of each streaming case: 2 reads + 1 write (triad), 1 read + 1 write (copy), 1 read
        kind = "triad_gbs" if case.startswith(("add", "mul")) else "copy_gbs" if case.startswith(("exp", "gelu")) else \
            "read_gbs" if case.startswith("sum") else None
        bw = statistics.median(p[kind] for p in peaks[threads]) if kind and peaks[threads] else None
        ours = statistics.median(r["median_s"] for r in rows[case]["tilekit"]) if "tilekit" in rows[case] else None
        for impl, rs in sorted(rows[case].items(), key=lambda kv: kv[0] != "tilekit"):
            med = statistics.median(r["median_s"] for r in rs)
            mn = min(r["min_s"] for r in rs)
            ratio = f"{med / ours:8.2f}" if ours else "       -"
            roof = ""
            if bw and rs[0]["bytes"]:
                roof = f"{100 * rs[0]['bytes'] / med / 1e9 / bw:10.0f}%"
            unit = (lambda s: f"{s * 1e6:9.3f} us") if med < 1e-3 else (lambda s: f"{s * 1e3:9.3f} ms")
            print(f"{case:28} {impl:8} {unit(med):>12} {unit(mn):>12} {ratio} {roof:>11}")
    print("x ours: the peer's median time over ours (> 1: TileKit is faster); kernel = the stdlib kernel launched directly")
    if len(sys.argv) > 3:
        blocks = collections.defaultdict(list)
        for line in open(sys.argv[3]):
            r = json.loads(line)
            blocks[(r["threads"], r["impl"])].append(r)
        print(f"\ndecoder block d 1024, 16 heads: {'threads':>7} {'impl':8} {'prefill ms/token':>17} {'decode ms':>10} {'x ours':>14}")
        for (t, impl), rs in sorted(blocks.items()):
            p = statistics.median(r["prefill_ms_per_token"] for r in rs)
            dm = statistics.median(r["decode_ms"] for r in rs)
            ours = blocks.get((t, "tilekit"))
            ratio = ""
            if ours:
                op = statistics.median(r["prefill_ms_per_token"] for r in ours)
                od = statistics.median(r["decode_ms"] for r in ours)
                ratio = f"{p / op:6.2f} {dm / od:6.2f}"
            print(f"{'':32} {t:>7} {impl:8} {p:17.3f} {dm:10.3f} {ratio:>14}")


if __name__ == "__main__":
    main()
