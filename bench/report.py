#!/usr/bin/env python3
"""report.py — the table and the plots of a benchmark run (bench.py's JSON).

  report.py RESULTS.json [--out DIR]    print the table again, redraw the plots
  report.py --selftest                  check metrics, table and plots on synthetic data

Plots (matplotlib, Debian's python3-matplotlib):
  roofline.png   GFLOP/s against arithmetic intensity, one panel per thread count:
                 the measured compute peaks and read bandwidth, our best variant
                 (filled) and the best peer (hollow) for every case
  ratio.png      our best time against the best peer's, per case (> 1: we are faster)
"""

import copy
import io
import json
import math
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import metrics   # noqa: E402


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def print_table(out, fp):
    """Per case: every implementation with its median, spread, GFLOP/s, % of the
    case's roofline bound and ratio to the best peer; then a summary line per case."""
    w = fp.write
    w(f"TileKit benchmark ({out['mode']}, {out['date']}, {out['machine']['cpu']}, "
      f"{out['rounds']} interleaved rounds per case)\n")
    load = out["machine"].get("loadavg_1min")
    if load:
        w(f"load average (1 min) {load['start']} at the start, {load['end']} at the end, on {out['machine'].get('cores')} cores: "
          "other work makes every number noisier\n")
    for t, p in sorted(out["peaks"].items()):
        w(f"peaks, {t} thread(s): f32 {p['f32_gflops']:.0f} GFLOP/s, bf16 {p['bf16_gflops']:.0f} GFLOP/s, "
          f"read {p['read_gbs']:.1f} GB/s, triad {p['triad_gbs']:.1f} GB/s, "
          f"copy {fmt(p.get('copy_gbs'), '.1f')} GB/s (median; the memory-bound cases' roofline)\n")
    for name, info in sorted(out.get("peers", {}).items()):
        w(f"peer {name}: {json.dumps(info, sort_keys=True)}\n")
    for name, impls in sorted(out.get("implementations", {}).items()):
        w(f"  {name}: {'; '.join(impls)}\n")
    for m in out.get("missing", []):
        w(f"missing: {m}\n")
    w("\n")
    hdr = f"  {'implementation':<30} {'median ms':>11} {'p25-p75 ms':>21} {'GFLOP/s':>9} {'% bound':>8} {'x best peer':>11}\n"
    for c in out["cases"]:
        probed = c.get("read_gbs_probed")
        dram = (f" at {statistics.median(probed):.1f} GB/s read, probed in its rounds ({min(probed):.0f}-{max(probed):.0f})"
                if probed and c.get("bound_kind") == "dram" else "")
        w(f"{c['id']}   bound {fmt(c.get('bound_gflops'), '.0f')} GFLOP/s ({c.get('bound_kind') or '?'}{dram}), "
          f"{c['flops'] / 1e9:.3g} GFLOP, {c['bytes'] / 2**20:.1f} MiB min traffic\n")
        w(hdr)
        for r in c["results"]:
            if not r.get("ok"):
                w(f"  {r['name']:<30} {'n/a':>11}  {r.get('error') or ''}\n")
                continue
            spread = f"{r['p25_ms']:.4g}-{r['p75_ms']:.4g}"
            w(f"  {r['name']:<30} {r['median_ms']:>11.4g} {spread:>21} {fmt(r.get('gflops'), '9.1f'):>9} "
              f"{fmt(r.get('pct_bound'), '7.1f'):>7}% {fmt(r.get('ratio_to_best_peer'), '10.2f'):>10}x"
              + (f"  (then failed: {r['error']})" if r.get("error") else "") + "\n")
        w("\n")
    w("Summary: our best variant against the best peer (ratio > 1: we are faster)\n")
    w(f"  {'case':<46} {'ours (best)':<30} {'% bound':>8} {'best peer':<20} {'x best':>7} {'x oneDNN packed':>16}\n")
    for c in out["cases"]:
        ours = next((r for r in c["results"] if r["name"] == c.get("best_ours")), None)
        w(f"  {c['id']:<46} {(c.get('best_ours') or 'none'):<30} "
          f"{fmt(ours.get('pct_bound') if ours else None, '7.1f'):>7}% {(c.get('best_peer') or 'none'):<20} "
          f"{fmt(c.get('ours_vs_best_peer'), '6.2f'):>6}x {fmt(c.get('ours_vs_onednn_packed'), '15.2f'):>15}x\n")
    print_memory_table(out, fp)
    print_conv_table(out, fp)


def _goal(flag):
    return "-" if flag is None else ("yes" if flag else "no")


def print_memory_table(out, fp):
    """The memory-bound cases (issue 25): our best time, PyTorch's, the ratio, % of
    the measured copy roofline, and whether each of the issue's goals is met —
    reported only; nothing here fails a run."""
    mem = [c for c in out["cases"] if c["family"] == "memory"]
    if not mem:
        return
    w = fp.write
    w(f"\nMemory-bound cases: % of roofline = (minimum bytes / median time) / copy bandwidth measured in this run; "
      f"goals (issue 25, not asserted): >= {metrics.MEMORY_GOAL_PCT:.0f}% of roofline, >= {metrics.MEMORY_GOAL_X}x PyTorch\n")
    w(f"  {'case':<36} {'ours (best)':<26} {'ours ms':>9} {'torch ms':>9} {'x torch':>8} {'GB/s':>7} "
      f"{'roof GB/s':>9} {'% roofline':>10} {'torch %':>8} {'>=80%':>6} {'>=1.3x':>6}\n")
    for c in mem:
        ours = next((r for r in c["results"] if r["name"] == c.get("best_ours")), None)
        torch = next((r for r in c["results"] if r["name"] == "torch" and r.get("ok")), None)
        w(f"  {c['id']:<36} {(c.get('best_ours') or 'none'):<26} {fmt(ours and ours.get('median_ms'), '9.4g'):>9} "
          f"{fmt(torch and torch.get('median_ms'), '9.4g'):>9} {fmt(c.get('ours_vs_torch'), '7.2f'):>7}x "
          f"{fmt(ours and ours.get('gbs'), '7.1f'):>7} {fmt(c.get('roofline_gbs'), '9.1f'):>9} "
          f"{fmt(ours and ours.get('pct_roofline'), '9.1f'):>9}% {fmt(torch and torch.get('pct_roofline'), '7.1f'):>7}% "
          f"{_goal(c.get('goal_roofline')):>6} {_goal(c.get('goal_torch')):>6}\n")


def print_conv_table(out, fp):
    """The dense conv2d cases (issue 25): our best time against the faster torch
    layout, the ratio, our GFLOP/s and % of the measured compute peak, and whether
    the goal (>= 1.0x PyTorch) is met — reported only."""
    conv = [c for c in out["cases"] if c["family"] == "conv"]
    if not conv:
        return
    w = fp.write
    w(f"\nDense conv2d (batch 1, NHWC): the best torch layout is the peer; % peak = our GFLOP/s / the measured "
      f"compute peak; goal (issue 25, not asserted): >= {metrics.CONV_GOAL_X}x PyTorch on every shape\n")
    w(f"  {'case':<56} {'ours (best)':<22} {'ours ms':>9} {'torch':<11} {'torch ms':>9} {'x torch':>8} "
      f"{'GFLOP/s':>8} {'% peak':>7} {'torch %':>8} {'>=1.0x':>6}\n")
    for c in conv:
        ours = next((r for r in c["results"] if r["name"] == c.get("best_ours")), None)
        torch = next((r for r in c["results"] if r["name"] == c.get("best_torch") and r.get("ok")), None)
        w(f"  {c['id']:<56} {(c.get('best_ours') or 'none').replace('tilekit ', ''):<22} "
          f"{fmt(ours and ours.get('median_ms'), '9.4g'):>9} {(c.get('best_torch') or 'none'):<11} "
          f"{fmt(torch and torch.get('median_ms'), '9.4g'):>9} {fmt(c.get('ours_vs_torch'), '7.2f'):>7}x "
          f"{fmt(ours and ours.get('gflops'), '8.1f'):>8} {fmt(ours and ours.get('pct_bound'), '6.1f'):>6}% "
          f"{fmt(torch and torch.get('pct_bound'), '7.1f'):>7}% {_goal(c.get('goal_torch')):>6}\n")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


FAMILY_COLOR = {"gemm": "tab:blue", "attention": "tab:orange", "ffn": "tab:green", "memory": "tab:purple",
                "conv": "tab:brown"}


def plot(out, outdir):
    """Writes roofline.png and ratio.png into outdir; returns their paths, or []
    when matplotlib is not installed."""
    try:
        plt = _pyplot()
    except ImportError:
        return []
    paths = []
    threads = sorted(out["peaks"], key=int)
    fig, axes = plt.subplots(1, len(threads), figsize=(6.5 * len(threads), 5.2), squeeze=False)
    for ax, t in zip(axes[0], threads):
        p = out["peaks"][t]
        ai = [2 ** (i / 4) for i in range(-8, 60)]
        bw = p["read_gbs"]
        for peak, label, style in ((p["f32_gflops"], "f32 peak", "--"), (p["bf16_gflops"], "bf16 peak", "-")):
            if peak:
                ax.plot(ai, [min(peak, a * bw) for a in ai], style, color="gray", lw=1)
                ax.text(ai[-1], peak, f" {label} {peak:.0f}", va="bottom", ha="right", fontsize=8, color="gray")
        for c in out["cases"]:
            if str(c["threads"]) != t or not c["flops"]:   # a transpose has no FLOPs to place
                continue
            a = c["flops"] / c["bytes"]
            col = FAMILY_COLOR.get(c["family"], "k")
            for name, filled in ((c.get("best_ours"), True), (c.get("best_peer"), False)):
                r = next((r for r in c["results"] if r["name"] == name and r.get("gflops")), None)
                if r:
                    ax.scatter([a], [r["gflops"]], s=28, marker="o" if c["dtype"] == "bf16" else "s",
                               facecolors=col if filled else "none", edgecolors=col, linewidths=1.2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (FLOP per byte of minimum traffic)")
        ax.set_ylabel("GFLOP/s")
        ax.set_title(f"{t} thread(s): read {bw:.0f} GB/s")
        ax.grid(True, which="both", alpha=0.3)
    handles = [plt.Line2D([], [], marker="o", ls="", color=v, label=k) for k, v in FAMILY_COLOR.items()]
    handles += [plt.Line2D([], [], marker="o", ls="", color="k", label="ours (filled)"),
                plt.Line2D([], [], marker="o", ls="", mfc="none", color="k", label="best peer (hollow)"),
                plt.Line2D([], [], marker="s", ls="", mfc="none", color="k", label="square: f32, circle: bf16")]
    axes[0][0].legend(handles=handles, fontsize=8, loc="lower right")
    fig.suptitle(f"Roofline ({out['machine']['cpu']}, {out['mode']} run)")
    fig.tight_layout()
    paths.append(os.path.join(outdir, "roofline.png"))
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    rows = [c for c in out["cases"]]
    fig, ax = plt.subplots(figsize=(10, max(2.5, 0.28 * len(rows) + 1.2)))
    labels = [c["id"] for c in rows]
    vals = [c.get("ours_vs_best_peer") or 0 for c in rows]
    colors = ["tab:green" if v >= 1 else "tab:red" for v in vals]
    ax.barh(range(len(rows)), vals, color=colors)
    for i, (c, v) in enumerate(zip(rows, vals)):
        ax.text(v, i, f" {v:.2f}x {c.get('best_peer') or 'no peer'}" if v else " no ratio (missing ours or peer)",
                va="center", fontsize=7)
    ax.axvline(1.0, color="k", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("best peer's median time / our best median time (> 1: TileKit faster)")
    ax.set_title("TileKit against the best peer, per case")
    fig.tight_layout()
    paths.append(os.path.join(outdir, "ratio.png"))
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


# --- selftest ------------------------------------------------------------------

def _synthetic():
    """A tiny run: one compute-bound gemm, one DRAM-bound decode gemm, one case
    whose kernel is missing. Numbers chosen so the derived values are exact."""
    peaks = {"1": {"threads": 1, "f32_gflops": 200.0, "bf16_gflops": 400.0, "triad_gbs": 20.0, "read_gbs": 25.0, "copy_gbs": 20.0},
             "2": {"threads": 2, "f32_gflops": 400.0, "bf16_gflops": 800.0, "triad_gbs": 50.0, "read_gbs": 50.0, "copy_gbs": 40.0}}
    big = {"id": "gemm bf16 1000x1000x1000 t1", "family": "gemm", "group": "squares", "dtype": "bf16", "threads": 1,
           "shape": {"M": 1000, "N": 1000, "K": 1000}, "flops": 2e9, "bytes": 8e6,
           "results": [{"name": "tilekit gemm_bf16", "kind": "ours", "ok": True, **metrics.summarize([10.0, 9.0, 11.0, 10.0])},
                       {"name": "onednn packed", "kind": "peer", "ok": True, **metrics.summarize([8.0, 8.0, 8.0])},
                       {"name": "torch", "kind": "peer", "ok": True, **metrics.summarize([20.0])}]}
    decode = {"id": "gemm bf16 1x4096x4096 t2", "family": "gemm", "group": "proj", "dtype": "bf16", "threads": 2,
              "shape": {"M": 1, "N": 4096, "K": 4096}, "flops": 2.0 * 4096 * 4096, "bytes": 2.0 * (4096 + 4096 * 4096) + 4 * 4096,
              "results": [{"name": "tilekit gemv_bf16", "kind": "ours", "ok": True, **metrics.summarize([1.0, 1.0, 1.0])},
                          {"name": "onednn packed", "kind": "peer", "ok": True, **metrics.summarize([1.5, 1.5])},
                          {"name": "onednn packed spin", "kind": "peer", "ok": True, **metrics.summarize([1.6, 1.6])},
                          {"name": "libxsmm", "kind": "peer", "ok": False, "error": "1 thread only"}]}
    gone = {"id": "attention bf16 B1 H8 S512 D64 full t1", "family": "attention", "group": "attention", "dtype": "bf16",
            "threads": 1, "shape": {"B": 1, "H": 8, "S": 512, "SKV": 512, "D": 64, "causal": False},
            "flops": 4.0 * 8 * 512 * 512 * 64, "bytes": 2.0 * 4 * 8 * 512 * 64,
            "results": [{"name": "tilekit attention_bf16_d64", "kind": "ours", "ok": False,
                         "error": "stdlib-kernels/attention.tk does not exist yet"},
                        {"name": "torch", "kind": "peer", "ok": True, **metrics.summarize([2.0, 2.2, 1.8])}]}
    # a softmax moving exactly 32 MB: 2 ms → 16 GB/s = 40% of the 2-thread copy
    # roofline (40 GB/s); torch 2.6 ms → 1.3x, which meets that goal exactly
    mem = {"id": "softmax f32 4000x1000 t2", "family": "memory", "group": "memory", "dtype": "f32", "threads": 2,
           "shape": {"fn": "softmax", "R": 4000, "C": 1000}, "flops": 5.0 * 4e6, "bytes": 32e6,
           "results": [{"name": "tilekit softmax_f32", "kind": "ours", "ok": True, **metrics.summarize([2.0, 1.9, 2.1])},
                       {"name": "torch", "kind": "peer", "ok": True, **metrics.summarize([2.6, 2.6])}]}
    # a conv of 0.2 GFLOP: ours 2 ms → 100 GFLOP/s = 50% of the 1-thread f32 peak;
    # torch channels_last 2.5 ms, NCHW 2.2 ms: the faster (NCHW) is the peer → 1.1x
    conv = {"id": "conv2d f32 resnet50 3x3 56x56x64->64 k3s1 t1", "family": "conv", "group": "resnet50", "dtype": "f32",
            "threads": 1, "shape": {"fn": "conv2d", "N": 1, "H": 56, "W": 56, "C": 64, "OC": 64, "KH": 3, "KW": 3},
            "flops": 0.2e9, "bytes": 2e6,
            "results": [{"name": "tilekit conv2d_nhwc_f32", "kind": "ours", "ok": True, **metrics.summarize([2.0, 2.0, 2.0])},
                        {"name": "torch", "kind": "peer", "ok": True, **metrics.summarize([2.5, 2.5])},
                        {"name": "torch nchw", "kind": "peer", "ok": True, **metrics.summarize([2.2, 2.2])},
                        {"name": "tilekit conv2d_1x1_nhwc_f32", "kind": "ours", "ok": False,
                         "error": "wrong result against the peer: max abs err 0.3"}]}
    out = {"mode": "selftest", "date": "now", "machine": {"cpu": "synthetic"}, "rounds": 1, "peaks": peaks,
           "peers": {"torch": {"torch": "0"}}, "missing": ["libxsmm peer not built (synthetic)"],
           "cases": [big, decode, gone, mem, conv]}
    for c in out["cases"]:
        metrics.derive(c, peaks)
    return out


def selftest():
    fails = []

    def expect(cond, what):
        if not cond:
            fails.append(what)

    def close(a, b, rel=1e-9):
        return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b))

    s = metrics.summarize([4.0, 1.0, 3.0, 2.0, 5.0])
    expect(s["median_ms"] == 3.0 and s["p25_ms"] == 2.0 and s["p75_ms"] == 4.0 and s["min_ms"] == 1.0
           and s["max_ms"] == 5.0 and s["n"] == 5, f"summarize: {s}")
    expect(metrics.summarize([]) is None, "summarize of nothing is None")
    expect(close(metrics.quantile([0.0, 10.0], 0.25), 2.5), "quantile interpolates")

    out = _synthetic()
    big, decode, gone, mem, conv = out["cases"]
    ours = big["results"][0]
    # 2 GFLOP in 10 ms = 200 GFLOP/s; 8 MB > 1 MiB so the DRAM roofline is checked:
    # AI 250 × 25 GB/s = 6250 > 400, so the bound is the bf16 compute peak
    expect(close(ours["gflops"], 200.0), f"gflops {ours.get('gflops')}")
    expect(big["bound_kind"] == "compute" and close(big["bound_gflops"], 400.0), f"bound {big['bound_gflops']} {big['bound_kind']}")
    expect(close(ours["pct_bound"], 50.0), f"pct_bound {ours.get('pct_bound')}")
    expect(big["best_peer"] == "onednn packed" and close(big["ours_vs_best_peer"], 0.8), f"ratio {big['ours_vs_best_peer']}")
    expect(close(big["results"][2]["ratio_to_best_peer"], 0.4), "a slower peer's ratio")
    expect(close(big["ours_vs_onednn_packed"], 0.8), "ratio to oneDNN packed")
    # decode: AI = 2·4096² / (2·(4096 + 4096²) + 4·4096) ≈ 1 FLOP/byte → DRAM-bound at 2 threads (50 GB/s)
    ai = decode["flops"] / decode["bytes"]
    expect(decode["bound_kind"] == "dram" and close(decode["bound_gflops"], ai * 50.0), f"decode bound {decode['bound_gflops']}")
    expect(close(decode["ours_vs_best_peer"], 1.5), "decode ratio")
    expect(close(decode["ours_vs_onednn_packed"], 1.5), "the faster oneDNN packed variant counts")
    expect(close(decode["results"][0]["gbs"], decode["bytes"] / 1e6), "GB/s of a 1 ms call")
    # a cold case's bound follows the bandwidth probed during it, not the peak
    cold = dict(copy.deepcopy(decode), read_gbs_probed=[30.0, 20.0, 25.0])
    metrics.derive(cold, out["peaks"])
    buf = io.StringIO()
    print_table(dict(out, cases=[cold]), buf)
    expect("at 25.0 GB/s read, probed in its rounds (20-30)" in buf.getvalue(), "the table says the bound was probed")
    expect(close(cold["bound_gflops"], ai * 25.0) and close(cold["results"][0]["pct_bound"], 100.0 * (decode["flops"] / 1e6) / (ai * 25.0)),
           f"probed bound {cold['bound_gflops']}")
    # a missing kernel: no ratio, but the case and the reason stay in the report
    expect(gone["ours_vs_best_peer"] is None and gone["best_peer"] == "torch", "missing ours gives no ratio")

    # memory-bound: % of roofline against the copy bandwidth of the case's thread count
    expect(close(mem["roofline_gbs"], 40.0), f"memory roofline {mem.get('roofline_gbs')}")
    expect(close(mem["results"][0]["gbs"], 16.0) and close(mem["results"][0]["pct_roofline"], 40.0),
           f"pct_roofline {mem['results'][0].get('pct_roofline')}")
    expect(close(mem["results"][1]["pct_roofline"], 100.0 * 32e6 / 2.6e6 / 40.0), "torch's % of roofline")
    expect(close(mem["ours_vs_torch"], 1.3) and mem["goal_torch"] is True and mem["goal_roofline"] is False,
           f"memory goals {mem.get('ours_vs_torch')} {mem.get('goal_torch')} {mem.get('goal_roofline')}")
    one = dict(copy.deepcopy(mem), threads=1)
    metrics.derive(one, out["peaks"])
    expect(close(one["results"][0]["pct_roofline"], 80.0) and one["goal_roofline"] is True, "1-thread roofline (20 GB/s)")
    nocopy = copy.deepcopy(mem)
    metrics.derive(nocopy, {t: {k: v for k, v in p.items() if k != "copy_gbs"} for t, p in out["peaks"].items()})
    expect(nocopy["results"][0]["pct_roofline"] is None and nocopy["goal_roofline"] is None, "no copy peak, no % of roofline")
    expect("pct_roofline" not in big["results"][0] and big.get("ours_vs_torch") is None, "only memory cases get a roofline %")
    # dense conv: compute bound, the faster torch layout is the peer, a failed check is not timed
    expect(conv["bound_kind"] == "compute" and close(conv["results"][0]["pct_bound"], 50.0), "conv % of peak")
    expect(conv["best_torch"] == "torch nchw" and close(conv["ours_vs_torch"], 1.1) and conv["goal_torch"] is True,
           f"conv against torch {conv.get('best_torch')} {conv.get('ours_vs_torch')}")
    expect(conv["best_ours"] == "tilekit conv2d_nhwc_f32", "a kernel that failed its check is never the best")

    buf = io.StringIO()
    print_table(out, buf)
    table = buf.getvalue()
    memtable = table.split("Memory-bound cases", 1)[-1]
    memline = next((l for l in memtable.splitlines() if l.startswith("  softmax f32 4000x1000 t2")), "")
    for needle in (" 1.30x", "16.0", "40.0", "40.0%", "no", "yes"):
        expect(needle in memline, f"memory row lacks {needle!r}: {memline!r}")
    expect("copy 40.0 GB/s (median" in table, "the copy peak is in the table")
    convline = next((l for l in table.split("Dense conv2d", 1)[-1].splitlines() if l.startswith("  conv2d f32 resnet50")), "")
    for needle in ("conv2d_nhwc_f32", "torch nchw", " 1.10x", "100.0", " 50.0%", "yes"):
        expect(needle in convline, f"conv row lacks {needle!r}: {convline!r}")
    expect("wrong result against the peer" in table, "a failed check is in the table")
    for needle in ("gemm bf16 1000x1000x1000 t1", "0.80x", "1.50x", "attention.tk does not exist yet",
                   "libxsmm peer not built", "dram", "   50.0%"):
        expect(needle in table, f"table lacks {needle!r}")

    try:
        _pyplot()
    except ImportError:
        for f in fails:
            print(f"selftest: FAIL {f}", file=sys.stderr)
        if fails:
            return 1
        print("selftest: metrics and table ok; plots not checked: python3-matplotlib is not installed "
              "(apt-get install python3-matplotlib)")
        return 77
    with tempfile.TemporaryDirectory() as d:
        paths = plot(out, d)
        expect([os.path.basename(p) for p in paths] == ["roofline.png", "ratio.png"], f"plots {paths}")
        for p in paths:
            with open(p, "rb") as f:
                head = f.read(8)
            expect(head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(p) > 5000, f"{p} is not a real PNG")
    for f in fails:
        print(f"selftest: FAIL {f}", file=sys.stderr)
    print("selftest: " + ("FAILED" if fails else "ok (metrics, table, roofline.png, ratio.png)"))
    return 1 if fails else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--selftest":
        return selftest()
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        out = json.load(f)
    outdir = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else os.path.dirname(os.path.abspath(sys.argv[1]))
    print_table(out, sys.stdout)
    paths = plot(out, outdir)
    print("plots: " + (", ".join(paths) if paths else "none (python3-matplotlib missing)"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
