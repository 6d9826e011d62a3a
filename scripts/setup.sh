#!/usr/bin/env bash
# setup.sh — install the Debian packages TileKit needs to build and test.
# Idempotent: checks each package first, and only when something is missing
# runs `apt-get update` and `apt-get install`. Uses sudo only when not root.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config     # C11 compiler, CMake, pkg-config (finds Check)
  llvm-22-dev clang-22 lld-22          # LLVM-C API; clang-22 builds the fuzzer
  libclang-rt-22-dev                   # libFuzzer + ASan/UBSan runtimes for clang-22
  re2c lemon                           # lexer and parser generators
  libdrm-dev                           # AMDGPU launcher (libdrm_amdgpu)
  check                                # unit-test framework
  python3                              # test generators (tests/perf/gen_big.py)
  python3-matplotlib                   # bench_selftest checks the plots of the bench report
  python3-numpy python3-torch          # the tensor runtime's oracle (tests/tensor/gen_fixtures.py)
  python3-onnx                         # ONNX TensorProto fixtures written by onnx itself (tests/tensor/fixtures/fx_io.py)
  python3-torchvision python3-venv     # real models exported to ONNX at test time; a venv for the pinned onnx/onnxruntime
  libonnx-testdata                     # the onnx 1.12 conformance suites (tests/onnx, ctest onnx_debian_*)
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static   # AArch64 code, run under qemu
)

missing=()
for p in "${PACKAGES[@]}"; do
  # `dpkg -s` also succeeds for removed packages whose config files remain,
  # so look at the status itself.
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: not root and no sudo; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
  SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
