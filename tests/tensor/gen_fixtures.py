#!/usr/bin/env python3
"""gen_fixtures.py OUTDIR [AREA...] — PyTorch as the oracle of the tensor runtime.

Every module tests/tensor/fixtures/fx_<area>.py defines generate(save); each
case calls save(case, **arrays) with torch tensors (inputs and expected
outputs), written as OUTDIR/<case>/<name>.npy. bf16 tensors are written as
their bit patterns (<u2), which tk_load_npy reads as bf16. The C tests
(test_<area>.c) load them and compare with stated tolerances.

Needs Debian's python3-torch (scripts/setup.sh installs it); run with the
system interpreter (/usr/bin/python3). Missing torch is an error, never a skip.
"""
import importlib.util
import os
import sys

try:
    import numpy as np
    import torch
except ImportError as e:  # the oracle is required: fail loudly
    sys.exit(f"gen_fixtures.py: {e}; install python3-torch and python3-numpy (bash scripts/setup.sh does)")

HERE = os.path.dirname(os.path.abspath(__file__))


def make_saver(outdir):
    def save(case, **arrays):
        d = os.path.join(outdir, case)
        os.makedirs(d, exist_ok=True)
        for name, value in arrays.items():
            if isinstance(value, torch.Tensor):
                t = value.detach().cpu().contiguous()
                if t.dtype == torch.bfloat16:
                    a = t.view(torch.int16).numpy().view(np.uint16)
                else:
                    a = t.numpy()
            else:
                a = np.asarray(value)
            np.save(os.path.join(d, name + ".npy"), np.require(a, requirements="C"))   # keeps 0-d arrays 0-d
    return save


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    areas = sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    save = make_saver(outdir)
    fxdir = os.path.join(HERE, "fixtures")
    names = sorted(f[3:-3] for f in os.listdir(fxdir) if f.startswith("fx_") and f.endswith(".py"))
    for area in names:
        if areas and area not in areas:
            continue
        spec = importlib.util.spec_from_file_location("fx_" + area, os.path.join(fxdir, "fx_" + area + ".py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        before = sum(len(files) for _, _, files in os.walk(outdir))
        mod.generate(save)
        after = sum(len(files) for _, _, files in os.walk(outdir))
        print(f"fixtures {area}: {after - before} files (torch {torch.__version__})")


if __name__ == "__main__":
    main()
