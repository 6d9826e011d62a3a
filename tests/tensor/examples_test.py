#!/usr/bin/env python3
"""examples_test.py BINDIR — runs examples/c/mlp and custom_kernel, which save
their inputs, weights and outputs as .npy, and checks the outputs against
PyTorch computing the same from the same inputs. Run by /usr/bin/python3 (Debian's torch)."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch


def load(d, name):
    return torch.from_numpy(np.load(os.path.join(d, name + ".npy")))


def check(name, got, want, rtol, atol):
    if not torch.allclose(got, want, rtol=rtol, atol=atol):
        err = (got - want).abs().max().item()
        sys.exit(f"{name}: differs from PyTorch by up to {err:.3g} (rtol {rtol}, atol {atol})")
    print(f"{name}: matches PyTorch (max abs diff {(got - want).abs().max().item():.2g})")


def main():
    bindir = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(bindir, "tk_example_mlp"), d], check=True)
        x, w1, b1, w2, b2, y = (load(d, n).double() for n in ("x", "w1", "b1", "w2", "b2", "y"))
        h = torch.nn.functional.gelu(torch.nn.functional.linear(x, w1, b1))
        want = torch.softmax(torch.nn.functional.linear(h, w2, b2), -1)
        check("mlp", y, want, 1e-4, 1e-6)
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(bindir, "tk_example_custom_kernel"), d], check=True)
        x, w, b, y = (load(d, n).double() for n in ("x", "w", "b", "y"))
        check("custom_kernel", y, torch.nn.functional.gelu(x @ w + b), 1e-4, 1e-5)
    check_block(bindir)


def block_reference(d):
    """The decoder block of examples/c/transformer_block.c in f64 PyTorch: prefill x, then decode t1, t2."""
    w = {n: load(d, n).double() for n in ("wq", "wk", "wv", "wo", "w1", "w3", "w2", "g_attn", "g_ffn")}
    heads, kv_heads = 4, 2
    dim = w["wq"].shape[1]
    dh = dim // heads
    cache = {"k": None, "v": None, "len": 0}

    def rms(x, g):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * g

    def rotary(x, pos0):
        t = x.shape[2]
        half = dh // 2
        i = torch.arange(dh) % half
        ang = (pos0 + torch.arange(t, dtype=torch.float64)).unsqueeze(1) * torch.pow(10000.0, -2.0 * i.double() / dh)
        rot = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * torch.cos(ang).float().double() + rot * torch.sin(ang).float().double()

    def forward(x):
        t = x.shape[0]
        h = rms(x, w["g_attn"])
        q = (h @ w["wq"].T).view(t, heads, dh).permute(1, 0, 2).unsqueeze(0)
        k = (h @ w["wk"].T).view(t, kv_heads, dh).permute(1, 0, 2).unsqueeze(0)
        v = (h @ w["wv"].T).view(t, kv_heads, dh).permute(1, 0, 2).unsqueeze(0)
        q, k = rotary(q, cache["len"]), rotary(k, cache["len"])
        cache["k"] = k if cache["k"] is None else torch.cat([cache["k"], k], 2)
        cache["v"] = v if cache["v"] is None else torch.cat([cache["v"], v], 2)
        cache["len"] += t
        kk = cache["k"].repeat_interleave(heads // kv_heads, 1)
        vv = cache["v"].repeat_interleave(heads // kv_heads, 1)
        skv = kk.shape[2]
        sc = (q @ kk.transpose(-1, -2)) / dh ** 0.5
        i = torch.arange(t).unsqueeze(1)
        j = torch.arange(skv).unsqueeze(0)
        sc = sc.masked_fill(j > i + skv - t, float("-inf"))
        att = (torch.softmax(sc, -1) @ vv).permute(0, 2, 1, 3).reshape(t, heads * dh)
        x1 = x + att @ w["wo"].T
        h2 = rms(x1, w["g_ffn"])
        return x1 + (torch.nn.functional.silu(h2 @ w["w1"].T) * (h2 @ w["w3"].T)) @ w["w2"].T

    return [forward(load(d, n).double()) for n in ("x", "t1", "t2")]


def check_block(bindir):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(bindir, "tk_example_transformer_block"), d], check=True)
        want = block_reference(d)
        for name, ref in zip(("y", "y1", "y2"), want):
            check("transformer_block " + name, load(d, name).double(), ref, 1e-3, 1e-4)


if __name__ == "__main__":
    main()
