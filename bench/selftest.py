#!/usr/bin/env python3
"""selftest.py — the harness's own checks, without timing anything or needing a
peer: the case list (FLOP and byte counts, --quick is a subset of the full run),
how our kernels' signatures are read and bound to a case's sizes, then
report.py's selftest (metrics, table, plots). Run by the `bench_selftest` ctest.
Exit 0 ok, 1 failure, 77 only when python3-matplotlib is missing for the plots."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench    # noqa: E402
import cases    # noqa: E402
import ours     # noqa: E402
import report   # noqa: E402

TK = """// a comment mentioning kernel fake(gl<f32, Q> X) must be ignored
const BN = 256;
const KC = 128;
kernel gemm_bf16(gl<bf16, M, K> A, gl<bf16, K, N> B, gl<f32, M, N> C)
    grid(cdiv(N, BN), cdiv(M, 128)) warps(1)
{ }
kernel gemm_bf16_packed(gl<bf16, M, K> A, gl<bf16, NB, KT, KC, BN> P, gl<f32, M, N> C)
    grid(NB, 1) warps(1)
{ }
kernel attention_bf16_d64(gl<bf16, B, H, S, 64> Q, gl<bf16, B, HKV, SKV, 64> K, gl<bf16, B, HKV, SKV, 64> V,
                          gl<f32, B, HM, S, SKV> Mask, gl<bf16, B, H, S, 64> O, f32 scale, bool causal, bool use_mask)
    grid(1) warps(1)
{ }
kernel part(gl<f32, B, H> X, gl<f32, B * H, NS, 2> PartML, gl<f32, N> Z, gl<f32, cdiv(N, BN), 4> Y)
    grid(1) warps(1)
{ }
"""


def main():
    fails = []

    def expect(cond, what):
        if not cond:
            fails.append(what)

    # cases: counts from the math, --quick drawn from the full run
    g = cases.gemm_case("squares", "bf16", 1000, 2000, 3000, 2)
    expect(g["flops"] == 2.0 * 1000 * 2000 * 3000, "gemm FLOPs")
    expect(g["bytes"] == 2 * (1000 * 3000 + 3000 * 2000) + 4 * 1000 * 2000, "gemm bytes")
    a = cases.attention_case("bf16", 2048, 128, True, 2)
    expect(a["flops"] == 4.0 * 8 * 2048 * 2048 * 128 / 2, "causal attention FLOPs are halved")
    f = cases.ffn_case("bf16", 512, 1024, "swiglu", 2)
    expect(f["shape"]["F"] == 2816 and f["flops"] == 2.0 * 512 * 1024 * 2816 * 3, "SwiGLU hidden width and FLOPs")
    expect(cases.ffn_hidden(4096, "swiglu") == 11008 and cases.ffn_hidden(1024, "gelu") == 4096, "FFN widths")
    full = {c["id"] for c in cases.all_cases([1, 2])}
    quick = [c["id"] for c in cases.quick_cases([1, 2])]
    expect(len(full) == len(cases.all_cases([1, 2])), "case ids are unique")
    expect(all(q in full for q in quick), f"--quick cases not in the full run: {[q for q in quick if q not in full]}")
    nconv = len(cases.CONV) * len(cases.CONV_DTYPES)
    expect(len(full) == 2 * (2 * (5 + 9) + 2 * 8 + 2 + 2 * 8 + 11 + nconv) + 4, f"full run has {len(full)} cases")
    # memory-bound cases: bytes are X read once, Y written once, γ/β read once
    sm = cases.memory_case("softmax", "f32", 4096, 1000, 2)
    ln = cases.memory_case("layernorm", "f32", 8192, 768, 1)
    rb = cases.memory_case("rmsnorm", "bf16", 8192, 768, 1)
    expect(sm["bytes"] == 2 * 4 * 4096 * 1000 and ln["bytes"] == 2 * 4 * 8192 * 768 + 2 * 4 * 768
           and rb["bytes"] == 2 * 2 * 8192 * 768 + 4 * 768, "memory case bytes")
    expect(sum(c["family"] == "memory" for c in cases.all_cases([1, 2])) == 22, "11 memory cases per thread count")
    dw = cases.dwconv_case("bf16", 8, 112, 112, 32, 2)
    expect(dw["bytes"] == 2 * (2 * 8 * 112 * 112 * 32 + 9 * 32) + 4 * 32 and dw["flops"] == 2.0 * 9 * 8 * 112 * 112 * 32,
           "depthwise conv bytes and FLOPs")
    dv = ours.variants(dw, os.path.dirname(HERE))
    expect(len(dv) == 1 and dv[0].get("sizes") == {"N": 8, "H": 112, "W": 112, "C": 32, "KH": 3, "KW": 3, "OH": 112, "OW": 112}
           and dv[0].get("sets") == {"stride": 1, "pad": 1, "use_relu": "false", "use_clamp": "false"}, f"depthwise conv variant {dv}")
    # dense conv: FLOPs and bytes from the shape; the variants bind views of the same tensors
    root = os.path.dirname(HERE)
    st = cases.conv_case("f32", "resnet50", "stem", 224, 224, 3, 64, 7, 2, 3, 1)
    expect(st["shape"]["OH"] == 112 and st["flops"] == 2.0 * 112 * 112 * 64 * 49 * 3
           and st["bytes"] == 4 * (224 * 224 * 3 + 49 * 3 * 64 + 112 * 112 * 64) + 4 * 64, "conv stem FLOPs and bytes")
    sv = {v["name"]: v for v in ours.variants(st, root)}
    expect(sorted(sv) == ["conv2d_nhwc_f32", "conv2d_stem_nhwc_f32"]
           and sv["conv2d_stem_nhwc_f32"].get("sizes") == {"N": 1, "H": 224, "WC": 672, "KK": 147, "OC": 64, "OH": 112, "OW": 112}
           and sv["conv2d_stem_nhwc_f32"]["sets"] == {"channels": 3, "kernel_h": 7, "stride": 2, "pad": 3, "use_relu": "false",
                                                      "use_clamp": "false"}
           and sv["conv2d_stem_nhwc_f32"]["kernel"] == "conv2d_stem_nhwc_f32<21,7,160,64,128>", f"stem variants {sv}")
    pw = cases.conv_case("f32", "mobilenetv2", "expand", 56, 56, 24, 144, 1, 1, 0, 2)
    pv = {v["name"]: v for v in ours.variants(pw, root)}
    expect(pv.get("conv2d_1x1_nhwc_f32", {}).get("sizes") == {"P": 3136, "C": 24, "OC": 144}
           and pv["conv2d_1x1_nhwc_f32"]["kernel"] == "conv2d_1x1_nhwc_f32<32,160,32>"
           and pv["conv2d_1x1_nhwc_f32"]["sets"] == {"use_relu": "false", "use_clamp": "false"},
           f"1x1 variant {pv.get('conv2d_1x1_nhwc_f32')}")
    expect(ours.conv1x1_config(49, 320, 1280, 2) == "64,256,160" and ours.conv1x1_config(64, 64, 64, 2) == "32,64,64" and
           ours.conv1x1_config(12544, 16, 96, 1) == "32,96,16" and ours.conv1x1_config(12544, 16, 96, 1, "bf16") == "128,96,16",
           "1x1 tile configurations: K in the fewest steps of <= 256, a block for every thread")
    s3 = cases.conv_case("f32", "resnet50", "3x3s2", 56, 56, 128, 128, 3, 2, 1, 1)
    expect(s3["shape"]["OH"] == 28 and [v["name"] for v in ours.variants(s3, root)] == ["conv2d_nhwc_f32"],
           "a strided 3x3 has only the implicit gemm")
    tr = cases.memory_case("transpose", "f32", 8192, 768, 1)
    cs = cases.memory_case("colsum", "f32", 8192, 768, 2)
    expect(tr["bytes"] == 2 * 4 * 8192 * 768 and cs["bytes"] == 4 * (8192 * 768 + 768), "transpose / colsum bytes")
    dec = cases.decode_case("bf16", 8192, 128, 1)
    expect(dec["flops"] == 4.0 * 8 * 8192 * 128 and dec["shape"]["S"] == 1, "decode FLOPs")
    # a multi-thread compute peak below 0.75·t × one thread's is measured again
    one = {"f32_gflops": 118.0, "bf16_gflops": 235.0}
    expect(bench.implausible_peaks({"1": one, "2": {"f32_gflops": 117.0, "bf16_gflops": 470.0}}) == [(2, "f32_gflops")],
           "a 2-thread f32 peak of one core's worth is implausible")
    expect(bench.implausible_peaks({"1": one, "2": {"f32_gflops": 234.0, "bf16_gflops": 469.0}}) == [], "plausible peaks")
    # single-token cases run with the caches evicted, and say so in their ids
    colds = {c["id"] for c in cases.all_cases([1, 2]) if c["cold"]}
    expect(dec["cold"] and dec["id"].endswith(" cold"), "decode attention is cold")
    expect(cases.gemm_case("proj", "bf16", 1, 4096, 4096, 2)["cold"] and not cases.gemm_case("proj", "bf16", 32, 4096, 4096, 2)["cold"],
           "M = 1 projections, and only they among the gemms, are cold")
    expect(cases.ffn_case("bf16", 1, 1024, "gelu", 1)["cold"] and not f["cold"], "FFN with T = 1 is cold")
    expect(len(colds) == 2 * (2 * 3 + 2 + 2 * 2 * 2) and all(c.endswith(" cold") for c in colds), f"{len(colds)} cold cases")

    # signatures: read from the file, sizes bound by position, constants checked
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.tk")
        with open(path, "w") as fp:
            fp.write(TK)
        info = ours.read_tk(path)
        expect(sorted(info["kernels"]) == ["attention_bf16_d64", "gemm_bf16", "gemm_bf16_packed", "part"],
               f"kernels {sorted(info['kernels'])}")
        expect(info["consts"] == {"BN": 256, "KC": 128}, f"consts {info['consts']}")
        sizes, why = ours.bind_sizes(info, "gemm_bf16", [[17, 65], [65, 1000], [17, 1000]])
        expect(sizes == {"M": 17, "K": 65, "N": 1000} and why is None, f"gemm binding {sizes} {why}")
        sizes, why = ours.bind_sizes(info, "gemm_bf16", [[17, 65], [64, 1000], [17, 1000]])
        expect(sizes is None and "K" in why, f"conflicting K must not bind: {why}")
        sizes, why = ours.bind_sizes(info, "gemm_bf16_packed", [[1, 4096], [16, 32, 128, 256], [1, 4096]])
        expect(sizes == {"M": 1, "K": 4096, "NB": 16, "KT": 32, "N": 4096}, f"packed binding {sizes} {why}")
        sizes, why = ours.bind_sizes(info, "gemm_bf16_packed", [[1, 4096], [16, 32, 128, 128], [1, 4096]])
        expect(sizes is None and "BN" in why, f"a const dimension must match: {why}")
        q = [1, 8, 512, 128]
        sizes, why = ours.bind_sizes(info, "attention_bf16_d64", [q, q, q, [1, 1, 512, 512], q])
        expect(sizes is None and "64" in why, f"D=128 does not fit a d64 kernel: {why}")
        # dimensions that are expressions are checked once the names are bound
        sizes, why = ours.bind_sizes(info, "part", [[2, 8], [16, 3, 2], [1000], [4, 4]])
        expect(sizes == {"B": 2, "H": 8, "NS": 3, "N": 1000} and why is None, f"expression dims {sizes} {why}")
        sizes, why = ours.bind_sizes(info, "part", [[2, 8], [15, 3, 2], [1000], [4, 4]])
        expect(sizes is None and "B * H" in why, f"expression dim mismatch: {why}")
        sizes, why = ours.bind_sizes(info, "part", [[2, 8], [16, 3, 3], [1000], [4, 4]])
        expect(sizes is None and "2" in why, f"literal dim mismatch: {why}")
        expect(ours.eval_dim("B * H", {"B": 2, "H": 8}) == 16 and ours.eval_dim("cdiv(N, BN)", {"N": 1000, "BN": 256}) == 4
               and ours.eval_dim("open(x)", {}) is None, "eval_dim")
        expect(ours.scalars_of(info, "attention_bf16_d64") == {"scale": "f32", "causal": "bool", "use_mask": "bool"}, "scalars")
        # a case whose kernel file is absent is reported, not dropped
        vs = ours.variants(cases.ffn_case("bf16", 1, 1024, "gelu", 1), d)
        expect(len(vs) == 4 and all("does not exist" in v.get("missing", "") for v in vs), f"missing file {vs}")
        os.makedirs(os.path.join(d, "stdlib-kernels"))
        os.rename(path, os.path.join(d, "stdlib-kernels", "gemm.tk"))
        vs = ours.variants(cases.gemm_case("proj", "bf16", 1, 4096, 4096, 1), d)
        names = {v["name"]: v for v in vs}
        expect("sizes" in names.get("gemm_bf16_packed", {}) and names["gemm_bf16_packed"]["sizes"]["KT"] == 32, f"variants {vs}")
        expect("no kernel gemv_bf16" in names.get("gemv_bf16", {}).get("missing", ""), "a missing kernel name is reported")
        small = {v["name"] for v in ours.variants(cases.gemm_case("small", "bf16", 64, 64, 64, 1), d)}
        expect({"gemm_bf16_small", "gemm_bf16_tiny", "gemm_bf16_small_packed", "gemm_bf16_tiny_packed"} <= small, f"small variants {small}")
        big = {v["name"] for v in ours.variants(cases.gemm_case("squares", "f32", 1024, 1024, 1024, 1), d)}
        expect(not any("small" in v or "tiny" in v for v in big), f"no small-tile variants for 1024³: {big}")

    # attention over a packed KV cache (the real attention.tk): the pack kernel is
    # bound as well, and its times are added to the attention's in rank order
    att = {v["name"]: v for v in ours.variants(cases.attention_case("bf16", 2048, 128, False, 2), os.path.dirname(HERE))}
    kvp = att.get("attention_bf16_d128_kvp", {})
    expect(kvp.get("sizes", {}).get("NKB") == 16 and kvp.get("sets", {}).get("SKV") == 2048 and
           kvp.get("also", {}).get("sizes", {}).get("SKVP") == 2048, f"packed-KV attention variant {kvp}")
    # FFN decode: the split-F kernels, with their partial sums as a second launch
    ffn = {v["name"]: v for v in ours.variants(cases.ffn_case("bf16", 1, 1024, "swiglu", 2), os.path.dirname(HERE))}
    part = ffn.get("ffn_swiglu_bf16_packed_part", {})
    expect(part.get("sizes", {}).get("S") == 11 and part.get("also", {}).get("kernel") == "ffn_partial_sum_bf16" and
           part["also"].get("sizes", {}).get("S") == 11, f"FFN decode part variant {part}")
    gelu = {v["name"]: v for v in ours.variants(cases.ffn_case("f32", 1, 1024, "gelu", 2), os.path.dirname(HERE))}
    expect(gelu.get("ffn_gelu_f32_part", {}).get("also", {}).get("kernel") == "ffn_partial_sum_bias_f32", f"GELU part {gelu}")
    expect(not any("part" in v["name"] for v in ours.variants(f, os.path.dirname(HERE))), "no split-F kernels at T = 512")
    saved = ours._run_one
    ours._run_one = lambda tkc, v, *rest: {"ok": True, "times_ms": [0.5, 0.1, 0.3] if "also" in v else [3.0, 1.0, 2.0],
                                           "info": {"command": v["kernel"]}}
    try:
        r = ours.run("tkc", kvp, 2, 3, 1, {})
    finally:
        ours._run_one = saved
    expect([round(t, 9) for t in r.get("times_ms", [])] == [1.1, 2.3, 3.5] and r["info"].get("also_median_ms") == 2.0,
           f"pack + attention times {r}")
    # a cold case reaches tkc run as --cold, for the pack kernel too
    seen = []
    saved_sub = ours.subprocess.run
    ours.subprocess.run = lambda cmd, **kw: (seen.append(cmd), type("P", (), {"stdout": '{"ms": 1.0, "times_ms": [1.0]}',
                                                                               "stderr": "", "returncode": 0})())[1]
    try:
        ours.run("tkc", kvp, 2, 3, 1, {}, cold=True)
        ours.run("tkc", kvp, 2, 3, 1, {})
    finally:
        ours.subprocess.run = saved_sub
    expect(len(seen) == 4 and all("--cold" in c for c in seen[:2]) and not any("--cold" in c for c in seen[2:]),
           f"--cold passed to tkc run only for cold cases: {seen}")

    # the row-wise ops bind to the real stdlib kernels: X, γ (β), Y by position, eps set
    root = os.path.dirname(HERE)
    for case, fn, want in ((sm, "softmax_f32", 2), (ln, "layernorm_f32", 4), (rb, "rmsnorm_bf16", 3),
                           (tr, "transpose_f32", 2), (cs, "colsum_f32", 2)):
        vs = ours.variants(case, root)
        v = vs[0] if len(vs) == 1 else {}
        expect(v.get("kernel") == fn and v.get("sizes") == {"R": case["shape"]["R"], "C": case["shape"]["C"]}
               and len(v.get("tensors", [])) == want, f"memory variant {fn}: {vs}")
        expect(v.get("sets") == ({} if fn in ("softmax_f32", "transpose_f32", "colsum_f32") else {"eps": 1e-5}),
               f"{fn} gets eps: {v.get('sets')}")
    for msg in fails:
        print(f"selftest: FAIL {msg}", file=sys.stderr)
    if fails:
        return 1
    print("selftest: cases and kernel signatures ok")
    return report.selftest()


if __name__ == "__main__":
    sys.exit(main())
