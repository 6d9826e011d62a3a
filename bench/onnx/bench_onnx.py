#!/usr/bin/env python3
"""bench_onnx.py TKRUN MODELS_DIR VENV_PY [--rounds N] [--runs N] [--filter TEXT] [--json OUT]

Latency of the models export.py wrote: tkrun (TileKit) beside ONNX Runtime
(ort_peer.py, its best configuration) and PyTorch eager (torch_peer.py), at
batch 1 and 8 on 1 and 2 threads. Rounds are interleaved (every
implementation of a case runs once per round, in turn), each run reports
the median of RUNS timed calls, and the table shows the median over rounds
(and the minimum). Ratios are the peer's time over ours (> 1: TileKit
faster). The image models also run with tkrun --bf16 (their dense convs in
bf16; issue 27's goal: at most 0.6x ONNX Runtime's f32 time, i.e. ORT / TK bf16
>= 1.67x). Also the load time of the 100 MB MLP (tk_onnx_load alone; no stdlib
JIT) and the peak RSS of each process. Never a test: numbers only.
"""
import json
import os
import statistics
import subprocess
import sys

tkrun, models_dir, venv_py = sys.argv[1:4]
args = sys.argv[4:]
opt = lambda k, d: args[args.index(k) + 1] if k in args else d  # noqa: E731
ROUNDS, RUNS, FILTER, OUT = int(opt("--rounds", 3)), int(opt("--runs", 10)), opt("--filter", ""), opt("--json", "")
HERE = os.path.dirname(os.path.abspath(__file__))
SYS_PY = "/usr/bin/python3"


def run_json(cmd):
    """Runs cmd, parses its last JSON line, adds the process's own peak RSS (wait4)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.stdout.read(), p.stderr.read()   # small outputs: no deadlock reading one then the other
    _, status, ru = os.wait4(p.pid, 0)             # reaps it ourselves, for its own rusage
    p.returncode = os.waitstatus_to_exitcode(status)
    rss = ru.ru_maxrss / 1024
    if p.returncode != 0:
        text = (err or out).strip()
        return {"error": text.splitlines()[-1][:200] if text else "failed"}
    line = [l for l in out.splitlines() if l.startswith("{")]
    r = json.loads(line[-1]) if line else {"error": "no output"}
    r.setdefault("peak_rss_mib", rss)
    return r


CNNS = ("resnet", "mobilenet", "squeezenet")   # the models --bf16 applies to (2-d convolutions)


def ours(model, shape, threads, batch, bf16=False):
    r = run_json([tkrun, model, "--bench", str(RUNS), "--threads", str(threads), "--dim", f"batch={batch}", "--json",
                  "--output-dir", "/tmp/tk_bench_onnx_out"] + (["--bf16"] if bf16 else []))
    if "bench" in r:
        r["median_ms"], r["min_ms"] = r["bench"]["median_ms"], r["bench"]["min_ms"]
    return r


models = [l.split() for l in open(os.path.join(models_dir, "models.txt")).read().splitlines() if l.strip()]
results = {}
for rnd in range(ROUNDS):
    print(f"round {rnd + 1} of {ROUNDS}", file=sys.stderr)
    for name, shape, dtype in models:
        if name == "mlp_100mb" or (FILTER and FILTER not in name):
            continue
        path = os.path.join(models_dir, name + ".onnx")
        for batch in (1, 8):
            s = shape.replace("B", str(batch))
            for threads in (1, 2):
                key = f"{name} b{batch} t{threads}"
                row = results.setdefault(key, {"tk": [], "tk_bf16": [], "ort": [], "torch": []})
                row["tk"].append(ours(path, s, threads, batch))
                if any(c in name for c in CNNS):
                    row["tk_bf16"].append(ours(path, s, threads, batch, bf16=True))
                row["ort"].append(run_json([venv_py, os.path.join(HERE, "ort_peer.py"), path, s, dtype, str(threads), str(RUNS)]))
                row["torch"].append(run_json([SYS_PY, os.path.join(HERE, "torch_peer.py"), name, s, dtype, str(threads), str(RUNS)]))


def summary(samples):
    ok = [x["median_ms"] for x in samples if "median_ms" in x]
    if not ok:
        errs = [x.get("error", "") for x in samples]
        return None, None, errs[0] if errs else ""
    return statistics.median(ok), min(x["min_ms"] for x in samples if "min_ms" in x), ""


print("| case | TileKit ms (min) | ONNX Runtime ms | ORT / TK | PyTorch eager ms | torch / TK | TK --bf16 ms | ORT / TK bf16 | "
      "peak RSS TK / ORT MiB |")
print("|---|---|---|---|---|---|---|---|---|")
table = {}
for key, row in results.items():
    tk, tkmin, tkerr = summary(row["tk"])
    ort, _, _ = summary(row["ort"])
    pt, _, _ = summary(row["torch"])
    bf, _, _ = summary(row["tk_bf16"]) if row["tk_bf16"] else (None, None, "")
    rss_tk = max((x.get("peak_rss_mib") or 0) for x in row["tk"])
    rss_ort = max((x.get("peak_rss_mib") or 0) for x in row["ort"])
    fmt = lambda v: f"{v:.2f}" if v is not None else "—"  # noqa: E731
    ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "—"  # noqa: E731
    print(f"| {key} | {fmt(tk)} ({fmt(tkmin)}){' ' + tkerr if tkerr else ''} | {fmt(ort)} | {ratio(ort, tk)} | {fmt(pt)} | "
          f"{ratio(pt, tk)} | {fmt(bf)} | {ratio(ort, bf)} | {rss_tk:.0f} / {rss_ort:.0f} |")
    table[key] = {"tk_ms": tk, "tk_min_ms": tkmin, "ort_ms": ort, "torch_ms": pt, "tk_bf16_ms": bf, "rss_tk_mib": rss_tk,
                  "rss_ort_mib": rss_ort}

big = os.path.join(models_dir, "mlp_100mb.onnx")
if os.path.exists(big) and (not FILTER or FILTER in "mlp_100mb"):
    loads = []
    for _ in range(5):
        p = subprocess.run([tkrun, big, "--json", "--output-dir", "/tmp/tk_bench_onnx_out"], capture_output=True, text=True)
        line = [l for l in p.stdout.splitlines() if l.startswith("{")]
        if line:
            loads.append(json.loads(line[-1])["load_ms"])
    ort_load = run_json([venv_py, os.path.join(HERE, "ort_peer.py"), big, "1x2048", "float32", "1", "3"])
    size = os.path.getsize(big) / 2**20
    if loads:
        print(f"\nload of a {size:.0f} MB model: tk_onnx_load median {statistics.median(loads):.1f} ms "
              f"(min {min(loads):.1f}); ONNX Runtime session creation {ort_load.get('load_ms', float('nan')):.1f} ms")
        table["load_100mb"] = {"tk_ms": statistics.median(loads), "ort_ms": ort_load.get("load_ms")}
if OUT:
    json.dump(table, open(OUT, "w"), indent=1)
