#!/usr/bin/env python3
"""block_torch.py THREADS — PyTorch eager running the same decoder block as
examples/c/transformer_block.c --bench (d 1024, 16 heads, FFN 2816, f32): a
128-token prefill, then one decode step against a 512-token KV cache. The
cache is preallocated (520 tokens) and attended through its prefix, as the C
program does (PyTorch's "static cache"). Prints one JSON line like the C
program's (best of 3 after a warm-up)."""
import json
import sys
import time

import torch


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    torch.set_num_threads(threads)
    d, heads, ffn = 1024, 16, 2816
    dh = d // heads
    g = torch.Generator().manual_seed(0)
    w = {n: torch.randn(*s, generator=g) / s[1] ** 0.5 for n, s in
         {"wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d), "w1": (ffn, d), "w3": (ffn, d), "w2": (d, ffn)}.items()}
    g_attn, g_ffn = torch.ones(d), torch.ones(d)

    def rms(x, gg):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * gg

    def rotary(x, pos0):
        t, half = x.shape[2], dh // 2
        i = torch.arange(dh) % half
        ang = (pos0 + torch.arange(t)).unsqueeze(1) * torch.pow(10000.0, -2.0 * i / dh)
        return x * torch.cos(ang) + torch.cat([-x[..., half:], x[..., :half]], -1) * torch.sin(ang)

    def forward(x, cache):
        t = x.shape[0]
        h = rms(x, g_attn)
        q = torch.nn.functional.linear(h, w["wq"]).view(t, heads, dh).permute(1, 0, 2).unsqueeze(0)
        k = torch.nn.functional.linear(h, w["wk"]).view(t, heads, dh).permute(1, 0, 2).unsqueeze(0)
        v = torch.nn.functional.linear(h, w["wv"]).view(t, heads, dh).permute(1, 0, 2).unsqueeze(0)
        q, k = rotary(q, cache["len"]), rotary(k, cache["len"])
        pos = cache["len"]
        cache["k"][:, :, pos:pos + t] = k
        cache["v"][:, :, pos:pos + t] = v
        cache["len"] = skv = pos + t
        keys, values = cache["k"][:, :, :skv], cache["v"][:, :, :skv]
        sc = (q @ keys.transpose(-1, -2)) / dh ** 0.5
        i = torch.arange(t).unsqueeze(1)
        j = torch.arange(skv).unsqueeze(0)
        sc = sc.masked_fill(j > i + skv - t, float("-inf"))
        att = (torch.softmax(sc, -1) @ values).permute(0, 2, 1, 3).reshape(t, d)
        x1 = x + torch.nn.functional.linear(att, w["wo"])
        h2 = rms(x1, g_ffn)
        f = torch.nn.functional.silu(torch.nn.functional.linear(h2, w["w1"])) * torch.nn.functional.linear(h2, w["w3"])
        return x1 + torch.nn.functional.linear(f, w["w2"])

    best_p, best_d = 1e9, 1e9
    with torch.no_grad():
        for rep in range(4):
            cache = {"k": torch.empty(1, heads, 520, dh), "v": torch.empty(1, heads, 520, dh), "len": 0}
            x = torch.randn(128, d)
            t0 = time.perf_counter()
            forward(x, cache)
            t1 = time.perf_counter()
            forward(torch.randn(384, d), cache)
            tok = torch.randn(1, d)
            t2 = time.perf_counter()
            forward(tok, cache)
            t3 = time.perf_counter()
            if rep:
                best_p, best_d = min(best_p, t1 - t0), min(best_d, t3 - t2)
    print(json.dumps({"impl": "torch", "threads": threads, "prefill_ms_per_token": 1e3 * best_p / 128, "prefill_ms": 1e3 * best_p,
                      "decode_ms": 1e3 * best_d}))


if __name__ == "__main__":
    main()
