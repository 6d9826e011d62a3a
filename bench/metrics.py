"""metrics.py — from raw samples to the numbers the report shows: medians and
spreads, GFLOP/s, the roofline bound of a case, % of it, ratios to peers.
Pure functions over the JSON structures of bench.py, so report.py's selftest can
check them on synthetic data without any peer installed.

Roofline (per case): compute peak for the case's dtype and thread count
(measured by bench_peak), or, when the data cannot stay in cache, the DRAM
roofline min(peak, AI × read bandwidth) with AI = FLOPs / minimum bytes moved;
the read bandwidth of a cold case is probed in each of its rounds (bench.py).
"Cannot stay in cache": the case's minimum bytes exceed CACHE_BYTES_PER_THREAD
per thread (Zen 5: 1 MiB L2 per core); below that, repeated calls run from cache
and only the compute peak applies. The read-only streaming bandwidth is used
because the minimum traffic of these kernels is almost all reads (weights, K, V).

Memory-bound cases (family "memory": softmax, layernorm, rmsnorm) are judged by
bandwidth instead: % of roofline = (minimum bytes / median time) / the copy
bandwidth bench_peak measured on the same thread count in the same run (a
read + write stream, like these ops' traffic). Issue 25's goals for them,
≥ MEMORY_GOAL_PCT % of roofline and ≥ MEMORY_GOAL_X × PyTorch eager, are
reported as columns and never asserted.

Dense conv2d cases (family "conv") are compute-bound: % of bound is GFLOP/s
against the measured FMA (f32) or vdpbf16ps (bf16) peak. Their goal (issue 25),
≥ CONV_GOAL_X × PyTorch on every layer shape, is judged against the faster of
torch's two layouts (channels_last and NCHW), and also reported, not asserted.
"""

import statistics

CACHE_BYTES_PER_THREAD = 1 << 20
MEMORY_GOAL_PCT = 80.0
MEMORY_GOAL_X = 1.3
CONV_GOAL_X = 1.0


def quantile(sorted_xs, q):
    """Linear-interpolated quantile of an already sorted list."""
    if not sorted_xs:
        return None
    pos = (len(sorted_xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def summarize(times_ms):
    """median, quartiles, min, max and count of a list of samples (ms)."""
    xs = sorted(t for t in times_ms if t is not None and t > 0)
    if not xs:
        return None
    return {"median_ms": statistics.median(xs), "p25_ms": quantile(xs, 0.25), "p75_ms": quantile(xs, 0.75),
            "min_ms": xs[0], "max_ms": xs[-1], "n": len(xs)}


def peak_for(peaks, dtype, threads):
    """The measured compute peak (GFLOP/s) and read bandwidth (GB/s) for a thread count."""
    p = peaks.get(str(threads)) or peaks.get(threads)
    if not p:
        return None, None
    compute = p["bf16_gflops"] if dtype == "bf16" and p.get("bf16_gflops") else p["f32_gflops"]
    return compute, p["read_gbs"]


def copy_bw_for(peaks, threads):
    """The measured streaming-copy bandwidth (GB/s) for a thread count, or None."""
    p = peaks.get(str(threads)) or peaks.get(threads)
    return (p or {}).get("copy_gbs") or None


def bound(case, peaks):
    """(bound GFLOP/s, "compute" | "dram") for a case. The bandwidth is the median
    of the read probes taken during the case when it has them (cold cases: the
    DRAM a shared machine delivers moves by 2x within an hour), else the peak."""
    compute, bw = peak_for(peaks, case["dtype"], case["threads"])
    if compute is None:
        return None, None
    if case.get("read_gbs_probed"):
        bw = statistics.median(case["read_gbs_probed"])
    if case["bytes"] <= CACHE_BYTES_PER_THREAD * case["threads"] or not bw:
        return compute, "compute"
    dram = case["flops"] / case["bytes"] * bw   # FLOP/byte × GB/s = GFLOP/s
    return (dram, "dram") if dram < compute else (compute, "compute")


def derive(case, peaks):
    """Fills in every result's GFLOP/s, % of bound and ratio to the best peer,
    and the case's best peer, our best variant and our ratio. Ratio r for an
    implementation = best peer's median time / its median time, so r > 1 means
    faster than every peer and the best peer itself has r = 1."""
    b, kind = bound(case, peaks)
    case["bound_gflops"], case["bound_kind"] = b, kind
    ok = [r for r in case["results"] if r.get("ok") and r.get("median_ms")]
    for r in ok:
        r["gflops"] = case["flops"] / (r["median_ms"] * 1e6)
        r["gbs"] = case["bytes"] / (r["median_ms"] * 1e6)
        r["pct_bound"] = 100.0 * r["gflops"] / b if b else None
    peers = [r for r in ok if r["kind"] == "peer"]
    ours = [r for r in ok if r["kind"] == "ours"]
    best_peer = min(peers, key=lambda r: r["median_ms"]) if peers else None
    best_ours = min(ours, key=lambda r: r["median_ms"]) if ours else None
    for r in ok:
        r["ratio_to_best_peer"] = best_peer["median_ms"] / r["median_ms"] if best_peer else None
    case["best_peer"] = best_peer["name"] if best_peer else None
    case["best_ours"] = best_ours["name"] if best_ours else None
    case["ours_vs_best_peer"] = best_ours["ratio_to_best_peer"] if best_ours and best_peer else None
    if case["family"] == "memory":
        bw = copy_bw_for(peaks, case["threads"])
        case["roofline_gbs"] = bw
        for r in ok:
            r["pct_roofline"] = 100.0 * r["gbs"] / bw if bw else None
        torch = next((r for r in ok if r["name"] == "torch"), None)
        case["ours_vs_torch"] = torch["median_ms"] / best_ours["median_ms"] if torch and best_ours else None
        pct = best_ours.get("pct_roofline") if best_ours else None
        case["goal_roofline"] = None if pct is None else pct >= MEMORY_GOAL_PCT
        case["goal_torch"] = None if case["ours_vs_torch"] is None else case["ours_vs_torch"] >= MEMORY_GOAL_X
    if case["family"] == "conv":
        torches = [r for r in ok if r["name"].startswith("torch")]
        torch = min(torches, key=lambda r: r["median_ms"]) if torches else None
        case["best_torch"] = torch["name"] if torch else None
        case["ours_vs_torch"] = torch["median_ms"] / best_ours["median_ms"] if torch and best_ours else None
        case["goal_torch"] = None if case["ours_vs_torch"] is None else case["ours_vs_torch"] >= CONV_GOAL_X
    packed_runs = [r for r in ok if r["name"].startswith("onednn packed")]   # either OpenMP wait policy
    packed = min(packed_runs, key=lambda r: r["median_ms"]) if packed_runs else None
    case["ours_vs_onednn_packed"] = packed["median_ms"] / best_ours["median_ms"] if packed and best_ours else None
    return case
