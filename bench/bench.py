#!/usr/bin/env python3
"""bench.py — runs the side-by-side benchmark: the machine's peaks, then every
case on our kernels and on every peer, interleaved, and writes the JSON that
report.py turns into the table and the plots. bench/run.sh builds everything
and calls this; see bench/README.md for what each peer runs and how.

  bench.py --tkc build-bench/tools/tkc/tkc --drivers build-bench/bench \
           [--torch-python bench/.venv/bin/python] [--quick] [--threads 1,2]
           [--filter TEXT] [--json FILE] [--out DIR] [--rounds N]
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import cases as casemod   # noqa: E402
import metrics            # noqa: E402
import ours               # noqa: E402
import report             # noqa: E402

# glibc: never give big freed blocks back to the kernel (mmap_max=0 serves them
# from the heap, trim_threshold keeps the heap), so a library that mallocs and
# frees its temporaries on every call does not page-fault again on every call.
GLIBC_TUNABLES = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Driver:
    """A peer process that serves requests over stdin/stdout, one line each."""

    def __init__(self, name, cmd, env, json_requests, log_dir):
        self.name, self.cmd, self.json_requests = name, cmd, json_requests
        self.dead = None
        self.header = None
        # the library's own messages go to OUT/NAME.log, for when a peer misbehaves
        self.log_path = os.path.join(log_dir, "".join(ch if ch.isalnum() else "_" for ch in name) + ".log")
        self.log = None
        try:
            self.log = open(self.log_path, "w")
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                         text=True, bufsize=1, env=env)
        except OSError as e:
            self.proc, self.dead = None, f"cannot start {cmd[0]}: {e}"
        if self.proc and json_requests:   # torch_peer.py describes itself first
            line = self.proc.stdout.readline()
            try:
                self.header = json.loads(line)
            except ValueError:
                self.dead = "the torch peer did not start (import failed?)"

    def request(self, req):
        if self.json_requests:
            line = json.dumps(req)
        else:
            line = (f"{req['op']} {req['dtype']} {req['M']} {req['N']} {req['K']} {req.get('variant', '-')} "
                    f"{req['threads']} {req['reps']} {req['warmup']} {'cold' if req.get('cold') else 'warm'}")
        return self.ask(line)

    def ask(self, line):
        """Sends one request line, returns the parsed one-line JSON reply."""
        if self.dead:
            return {"ok": False, "error": self.dead}
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            reply = ""
        if not reply:
            self.dead = f"{self.name} driver exited (status {self.proc.poll()}; see {self.log_path})"
            return {"ok": False, "error": self.dead}
        return json.loads(reply)

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log:
            self.log.close()


# --- implementations -----------------------------------------------------------

class Peer:
    """One peer configuration: which cases it serves, and the request it sends."""

    def __init__(self, name, driver, serves, variant="-"):
        self.name, self.driver, self.serves, self.variant = name, driver, serves, variant
        self.kind = "peer"

    def run(self, case, reps, warmup):
        req = dict(case["shape"], op=case["family"], dtype=case["dtype"], threads=case["threads"], reps=reps,
                   warmup=warmup, variant=self.variant, cold=case.get("cold", False))
        return self.driver.request(req)


class Ours:
    def __init__(self, variant, tkc, env):
        self.name, self.variant, self.tkc, self.env = "tilekit " + variant["name"], variant, tkc, env
        self.kind = "ours"

    def run(self, case, reps, warmup):
        return ours.run(self.tkc, self.variant, case["threads"], reps, warmup, self.env, cold=case.get("cold", False))


class ReadProbe:
    """bench_peak --probe: the DRAM read bandwidth right now, measured once per
    round of a cold (memory-bound) case between its implementations, so that
    the case's roofline is what the machine delivered while it ran."""

    def __init__(self, exe, env, log_dir):
        self.driver = Driver("read probe", [exe, "--probe"], env, False, log_dir)

    def measure(self, threads):
        reply = self.driver.ask(str(threads))
        return reply.get("read_gbs") if reply.get("ok") else None


def is_gemm(case):
    return case["family"] == "gemm"


def make_peers(args, base_env, missing):
    """Starts every peer driver that was built; says which are missing and why."""
    peers, drivers, info = [], [], {}
    d = args.drivers

    def exe(name):
        p = os.path.join(d, name)
        return p if os.path.exists(p) else None

    if exe("bench_onednn"):
        # OpenMP's default (spin, then sleep) is fastest on a quiet machine, but when
        # another process holds a core a sleeping worker wakes only at the next
        # scheduler tick (times quantised to 4 ms); passive waiting avoids that.
        # Both run on >1 thread (packed weights), and the faster counts.
        drv = Driver("oneDNN", [exe("bench_onednn")], dict(base_env, OMP_WAIT_POLICY="PASSIVE"), False, args.out)
        drivers.append(drv)
        peers.append(Peer("onednn packed", drv, is_gemm, "packed"))
        peers.append(Peer("onednn plain", drv, is_gemm, "plain"))
        spin_env = {k: v for k, v in base_env.items() if k != "OMP_WAIT_POLICY"}
        drv = Driver("oneDNN (OpenMP default wait)", [exe("bench_onednn")], spin_env, False, args.out)
        drivers.append(drv)
        peers.append(Peer("onednn packed spin", drv, lambda c: is_gemm(c) and c["threads"] > 1, "packed"))
        info["onednn"] = {"env": "OpenMP (libgomp), omp_set_num_threads(n); OMP_WAIT_POLICY=PASSIVE, and on >1 thread "
                                 "also 'onednn packed spin' with OpenMP's default wait policy",
                          "variants": "packed: weights desc format_tag::any, reordered once outside the timed calls; "
                                      "plain: row-major weights"}
    else:
        missing.append("oneDNN peer not built (needs libdnnl-dev): no oneDNN numbers")
    if exe("bench_openblas"):
        env_has = {k: base_env[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in base_env}
        f32_gemm = lambda c: is_gemm(c) and c["dtype"] == "f32"
        if env_has:
            drv = Driver("OpenBLAS (environment)", [exe("bench_openblas")], base_env, False, args.out)
            drivers.append(drv)
            peers.append(Peer("openblas env", drv, f32_gemm))
        unset_env = {k: v for k, v in base_env.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
        drv = Driver("OpenBLAS (auto)", [exe("bench_openblas")], unset_env, False, args.out)
        drivers.append(drv)
        peers.append(Peer("openblas auto", drv, f32_gemm))
        info["openblas"] = {"environment": env_has or "OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE not set here: "
                                                      "only the auto-detected variant runs",
                            "threads": "openblas_set_num_threads(n) (its own pthread pool)"}
    else:
        missing.append("OpenBLAS peer not built (needs libopenblas-dev): no OpenBLAS numbers")
    if exe("bench_xsmm"):
        drv = Driver("libxsmm", [exe("bench_xsmm")], base_env, False, args.out)
        drivers.append(drv)
        peers.append(Peer("libxsmm", drv, lambda c: c["group"] == "small" and c["threads"] == 1))
    else:
        missing.append("libxsmm peer not built (needs libxsmm-dev): no libxsmm numbers for 32³/64³")
    if args.torch_python:
        # Debian's torch runs f32 matmul on OpenBLAS: let it pick its own kernel too
        torch_env = {k: v for k, v in base_env.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
        torch_env["OMP_WAIT_POLICY"] = "PASSIVE"
        drv = Driver("torch", [args.torch_python, os.path.join(HERE, "peers", "torch_peer.py")], torch_env, True, args.out)
        drivers.append(drv)
        if drv.dead:
            missing.append(f"PyTorch peer: {drv.dead}")
        else:
            peers.append(Peer("torch", drv, lambda c: True))
            # dense conv2d: NCHW too, since the faster torch layout is the one to beat
            peers.append(Peer("torch nchw", drv, lambda c: c["family"] == "conv", "nchw"))
            info["torch"] = dict(drv.header, installed_by=args.torch_source, env="OMP_WAIT_POLICY=PASSIVE; OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset; torch.set_num_threads(n)" +
                                 ("; openblas_set_num_threads(n) via ctypes" if drv.header.get("openblas") else ""))
    else:
        missing.append("PyTorch peer: no python with torch given (--torch-python): no torch numbers")
    return peers, drivers, info


# --- the run ---------------------------------------------------------------------

def measure_peaks(args, env, attempts=3):
    """bench_peak on every thread count. A compute peak on t threads below 0.75·t
    times the one-thread peak means a core was taken by other work for every
    trial (seen once: f32 on 2 threads at 117 GFLOP/s, one core's worth, in a
    --quick run): measure again, up to `attempts` times, keeping the best."""
    cmd = [os.path.join(args.drivers, "bench_peak"), "--threads", ",".join(map(str, args.threads))]
    if args.quick:
        cmd.append("--quick")
    peaks = {}
    for _ in range(attempts):
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
        now = {}
        for line in out.splitlines():
            p = json.loads(line)
            now[str(p["threads"])] = p
        peaks = combine_peaks(peaks, now) if peaks else now
        if not implausible_peaks(peaks):
            break
        log(f"bench: peaks {implausible_peaks(peaks)} look like a busy core; measuring again")
    return peaks


def implausible_peaks(peaks):
    """The (threads, key) pairs whose compute peak is under 0.75·threads × the
    one-thread peak."""
    one = peaks.get("1")
    if not one:
        return []
    bad = []
    for t, p in peaks.items():
        for key in ("f32_gflops", "bf16_gflops"):
            if int(t) > 1 and one.get(key) and (p.get(key) or 0) < 0.75 * int(t) * one[key]:
                bad.append((int(t), key))
    return bad


def combine_peaks(a, b):
    """Field by field maximum of two peak measurements: a shared machine only
    ever makes a measurement lower than what the hardware does."""
    out = {}
    for t in set(a) | set(b):
        x, y = a.get(t), b.get(t)
        if not x or not y:
            out[t] = x or y
            continue
        out[t] = dict(x)
        for k in ("f32_gflops", "bf16_gflops", "triad_gbs", "read_gbs", "copy_gbs"):
            out[t][k] = max(x.get(k) or 0, y.get(k) or 0)
    return out


def reps_for(median_ms, budget_ms, lo, hi):
    return max(lo, min(hi, int(budget_ms / max(median_ms, 1e-6))))


def run_case(case, impls, rounds, budget_ms, max_reps, warmup, probe=None):
    """Interleaves the implementations: round r runs each once (R reps), in an
    order rotated by r, so slow phases of a shared machine hit all of them. A
    cold case also probes the read bandwidth once per round (case["read_gbs_probed"])."""
    samples = {i.name: [] for i in impls}
    probed = []
    replies, good_replies = {}, {}
    t0 = time.time()
    for r in range(rounds):
        # the slowest cases (4096³ f32: seconds per call) stop after two rounds
        # once they have used a minute; every implementation still has ≥ 6 samples
        if r >= 2 and time.time() - t0 > 60:
            break
        order = impls[r % len(impls):] + impls[:r % len(impls)]
        if probe and case.get("cold"):
            gbs = probe.measure(case["threads"])
            if gbs:
                probed.append(gbs)
        for impl in order:
            prev = samples[impl.name]
            if replies.get(impl.name, {}).get("ok") is False:
                continue
            reps = 3 if not prev else reps_for(sorted(prev)[len(prev) // 2], budget_ms, 3, max_reps)
            reply = impl.run(case, reps, warmup)
            replies[impl.name] = reply
            if reply.get("ok"):
                samples[impl.name] += reply["times_ms"]
                good_replies.setdefault(impl.name, []).append(reply)
    if probed:
        case["read_gbs_probed"] = probed
    results = []
    for impl in impls:
        reply = replies.get(impl.name, {"ok": False, "error": "not run"})
        good = next((x for x in good_replies.get(impl.name, [])), None)
        res = {"name": impl.name, "kind": impl.kind, "ok": bool(samples[impl.name]), "impl": (good or reply).get("impl")}
        if samples[impl.name]:
            res.update(metrics.summarize(samples[impl.name]) or {})
            res["info"] = {k: v for k, v in good.items() if k not in ("ok", "times_ms", "impl")}
        if not reply.get("ok"):   # failed, or failed in a later round after earlier samples
            res["error"] = reply.get("error")
        results.append(res)
    return results


# Tolerances of the check of our conv kernels against the torch peer (inputs uniform
# in [-1, 1), so |Y| grows like sqrt(K)/3 with K = KH·KW·C terms): both sides
# accumulate in f32 in different orders (error ~ sqrt(K)·2^-24·|Y|); bf16 outputs
# are each rounded once and may be neighbours (one ulp, 2^-8 relative, rtol 2^-7
# with margin). A wrong tap, channel or pixel moves an output by ~0.3.
CHECK_TOL = {"f32": (1e-5, 1e-4), "bf16": (1e-2, 2.0 ** -7)}   # (atol per sqrt(K), rtol)


def verify_case(case, impls, torch_drv, args, env):
    """Checks each of our implementations of a conv case against torch's output on
    the same inputs before any timing (ours.verify): those that fail are dropped
    from the case's timing and reported with the reason. Returns the kept impls."""
    if torch_drv is None or torch_drv.dead:
        case["check"] = "not checked: no torch peer"
        return impls
    s = case["shape"]
    work = os.path.join(args.out, "check", re.sub(r"[^\w.-]+", "_", case["id"]))
    req = dict(s, op=case["family"], dtype=case["dtype"], threads=case["threads"], reps=1, warmup=0, dump=work)
    reply = torch_drv.request(req)
    if not reply.get("ok"):
        case["check"] = f"not checked: torch could not write its answer ({reply.get('error')})"
        return impls
    atol_k, rtol = CHECK_TOL[case["dtype"]]
    atol = atol_k * (s["KH"] * s["KW"] * s["C"]) ** 0.5
    kept = []
    case["check"] = "against torch (channels_last) on the same inputs"
    for impl in impls:
        if impl.kind != "ours":
            kept.append(impl)
            continue
        good, detail = ours.verify(impl.tkc, impl.variant, reply["files"], case["threads"], env, atol, rtol, work)
        impl.check = detail
        if good:
            kept.append(impl)
        else:
            log(f"  {impl.name} for {case['id']}: {detail}")
            case.setdefault("failed_check", []).append({"name": impl.name, "kind": "ours", "ok": False, "error": detail})
    return kept


def implementations(cases):
    """What each named implementation actually ran (library, kernel, ISA), as its
    driver reported it: e.g. the OpenBLAS core, the oneDNN implementation."""
    seen = {}
    for c in cases:
        for r in c["results"]:
            if r.get("ok") and r.get("impl"):
                seen.setdefault(r["name"], set()).add(r["impl"])
    return {k: sorted(v) for k, v in seen.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tkc", required=True)
    ap.add_argument("--drivers", required=True, help="directory with bench_peak and the peer drivers")
    ap.add_argument("--torch-python", help="python interpreter that has torch")
    ap.add_argument("--torch-source", default="", help="where that torch came from (PyPI venv, Debian)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--filter", default="", help="only cases whose id matches this regular expression (plain text: contains)")
    ap.add_argument("--json", help="write the results here (default OUT/results.json)")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--rounds", type=int, help="interleaved rounds per case (default 2 quick, 3 full)")
    args = ap.parse_args()
    args.threads = [int(t) for t in args.threads.split(",") if t.strip()]
    os.makedirs(args.out, exist_ok=True)
    json_path = args.json or os.path.join(args.out, "results.json")
    t_start = time.time()

    base_env = dict(os.environ, GLIBC_TUNABLES=GLIBC_TUNABLES)
    load_start = os.getloadavg()
    missing = []
    log(f"bench: measuring the machine's peaks ({','.join(map(str, args.threads))} threads)")
    peaks = measure_peaks(args, base_env)
    for t, p in peaks.items():
        log(f"  {t} thread(s): f32 {p['f32_gflops']:.0f} GFLOP/s, bf16 {p['bf16_gflops']:.0f} GFLOP/s, "
            f"triad {p['triad_gbs']:.1f} GB/s, read {p['read_gbs']:.1f} GB/s, copy {p.get('copy_gbs') or 0:.1f} GB/s (median)")

    all_cases = casemod.quick_cases(args.threads) if args.quick else casemod.all_cases(args.threads)
    selected = [c for c in all_cases if re.search(args.filter, c["id"])]
    if not selected:
        log(f"bench: no case matches --filter '{args.filter}'")
        return 2
    peers, drivers, peer_info = make_peers(args, base_env, missing)
    rounds = args.rounds or (2 if args.quick else 3)
    budget_ms = 100 if args.quick else 400
    max_reps = 10 if args.quick else 30

    # One-time JIT compiles of our kernels (cached on disk) before any timing,
    # so the timed rounds and --quick's budget do not include them.
    t_jit = time.time()
    pairs = [(c, v) for c in selected for v in ours.variants(c, ROOT) if "missing" not in v]
    log(f"bench: compiling our kernels for {len(pairs)} (case, kernel) pairs (cached by tkc after the first run)")
    for n, (case, v) in enumerate(pairs, 1):
        t0 = time.time()
        r = ours.run(args.tkc, v, case["threads"], 1, 0, base_env)
        if time.time() - t0 > 2 or not r.get("ok"):
            log(f"  [{n}/{len(pairs)}] {v['kernel']} for {case['id']}: {time.time() - t0:.1f} s" +
                ("" if r.get("ok") else f" ({r.get('error')})"))
    jit_s = time.time() - t_jit

    t_timed = time.time()
    probe = ReadProbe(os.path.join(args.drivers, "bench_peak"), base_env, args.out)
    for n, case in enumerate(selected, 1):
        impls = []
        case["missing"] = []
        for v in ours.variants(case, ROOT):
            if "missing" in v:
                case["missing"].append(f"tilekit {v['name']}: {v['missing']}")
            else:
                impls.append(Ours(v, args.tkc, base_env))
        impls += [p for p in peers if p.serves(case)]
        if case["family"] == "conv":   # correctness first: only a checked kernel is timed
            torch_drv = next((d for d in drivers if d.name == "torch"), None)
            impls = verify_case(case, impls, torch_drv, args, base_env)
        # two warm-up calls; one for cases that take a second per call (4096³ f32)
        warmup = 2 if case["flops"] < 5e10 else 1
        case["results"] = run_case(case, impls, rounds, budget_ms, max_reps, warmup=warmup, probe=probe)
        for impl, res in zip(impls, case["results"]):
            if getattr(impl, "check", None):
                res["check"] = impl.check
        case["results"] += case.pop("failed_check", [])
        for v in case["missing"]:
            case["results"].append({"name": v.split(":")[0], "kind": "ours", "ok": False, "error": v.split(": ", 1)[1]})
        metrics.derive(case, peaks)
        best = case["best_ours"] or "-"
        ratio = case["ours_vs_best_peer"]
        log(f"[{n}/{len(selected)}] {case['id']}: ours {best} " +
            (f"{ratio:.2f}x best peer ({case['best_peer']})" if ratio else "(no ratio)"))
    timed_s = time.time() - t_timed
    for d in drivers:
        d.close()
    probe.driver.close()
    # the peaks again, now that the drivers are gone: the best of both measurements
    # is the roof every case is judged against
    peaks_end = measure_peaks(args, base_env)
    peaks_start, peaks = peaks, combine_peaks(peaks, peaks_end)
    for case in selected:
        metrics.derive(case, peaks)

    out = {
        "schema": "tilekit-bench/1",
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": {"cpu": report.cpu_name(), "kernel": platform.release(), "cores": os.cpu_count(),
                    # other work on the machine makes every number noisier: say how busy it was
                    "loadavg_1min": {"start": round(load_start[0], 2), "end": round(os.getloadavg()[0], 2)}},
        "mode": "quick" if args.quick else "full",
        "threads": args.threads,
        "rounds": rounds,
        "peaks": peaks,
        "peaks_measured": {"start": peaks_start, "end": peaks_end},
        "peers": peer_info,
        "torch_source": args.torch_source,
        "env": {"GLIBC_TUNABLES": GLIBC_TUNABLES, "torch": "OMP_WAIT_POLICY=PASSIVE"},
        "missing": missing,
        "implementations": implementations(selected),
        "seconds": {"peaks_and_setup": round(t_jit - t_start, 1), "jit_warmup": round(jit_s, 1),
                    "timed": round(timed_s, 1), "total": round(time.time() - t_start, 1)},
        "cases": selected,
    }
    with open(json_path, "w") as f:
        json.dump(out, f, indent=1)
    report.print_table(out, sys.stdout)
    plots = report.plot(out, args.out)
    log(f"bench: JSON {json_path}; " + ("plots " + ", ".join(plots) if plots else "no plots (python3-matplotlib missing)"))
    log(f"bench: {out['seconds']['total']:.0f} s in all ({out['seconds']['jit_warmup']:.0f} s one-time JIT compiles, "
        f"{out['seconds']['timed']:.0f} s timed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
