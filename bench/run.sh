#!/usr/bin/env bash
# run.sh — the one command of the benchmark harness (see bench/README.md):
#
#   bash bench/run.sh [--quick] [--json FILE] [--threads 1,2] [--filter TEXT]
#                     [--out DIR] [--rounds N] [--no-install]
#
# 1. installs what is missing (TileKit's build deps through scripts/setup.sh; the
#    peers' Debian packages the same way: apt-get, through sudo when not root);
# 2. builds tkc (Release) in build-bench/ and the peer drivers in build-bench/bench/;
# 3. makes bench/.venv with the current PyTorch from PyPI (once; falls back to
#    Debian's python3-torch when PyPI is unreachable);
# 4. runs bench/bench.py: peaks, every case on our kernels and every peer,
#    the table on stdout, JSON and PNG plots in bench/out/ (or --out).
# --no-install skips steps 1 and 3's downloads (use what is there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

install=1
args=()
while (($#)); do
  case $1 in
    --no-install) install=0 ;;
    --quick) args+=("$1") ;;
    --json|--threads|--filter|--out|--rounds)
      (($# >= 2)) || { echo "run.sh: $1 needs a value" >&2; exit 2; }
      args+=("$1" "$2"); shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# --- 1. packages ---------------------------------------------------------------
BENCH_PACKAGES=(
  libdnnl-dev          # oneDNN 2.x: matmul f32/bf16
  libopenblas-dev      # OpenBLAS: sgemm
  libxsmm-dev          # libxsmm: small-matrix JIT kernels
  python3-matplotlib   # the plots
  python3-venv python3-pip   # the PyTorch virtual environment
)
apt_install() {   # installs the missing ones among "$@"; never fatal: a missing peer is reported, not an error
  local missing=() p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ $status == "install ok installed" ]] || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "run.sh: not root and no sudo; missing (install by hand): ${missing[*]}" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  echo "run.sh: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    { echo "run.sh: could not install ${missing[*]}; the harness will report what is missing" >&2; return 1; }
}
if ((install)); then
  bash scripts/setup.sh
  apt_install "${BENCH_PACKAGES[@]}" || true
fi

# --- 2. builds -----------------------------------------------------------------
build=$root/build-bench
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
fi
make -C "$build" -j2 tkc >/dev/null
tkc=$(find "$build/tools/tkc" -maxdepth 1 -name tkc -type f -perm -u+x | head -1)
[[ -n $tkc ]] || { echo "run.sh: tkc did not build" >&2; exit 1; }
bash bench/build_peers.sh "$build/bench"

# --- 3. PyTorch ----------------------------------------------------------------
venv=$root/bench/.venv
torch_python=""
torch_source=""
if [[ -x $venv/bin/python ]] && "$venv/bin/python" -c "import torch" 2>/dev/null; then
  torch_python=$venv/bin/python; torch_source="PyPI (bench/.venv)"
elif ((install)); then
  echo "run.sh: creating bench/.venv with the current torch from PyPI (large download: CUDA libraries come along)"
  if /usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check torch numpy; then
    torch_python=$venv/bin/python; torch_source="PyPI (bench/.venv)"
  else
    echo "run.sh: PyPI unreachable or pip failed; falling back to Debian's python3-torch" >&2
    apt_install python3-torch || true
  fi
fi
if [[ -z $torch_python ]] && /usr/bin/python3 -c "import torch" 2>/dev/null; then
  torch_python=/usr/bin/python3; torch_source="Debian python3-torch"
fi
[[ -n $torch_python ]] || echo "run.sh: no PyTorch available; torch will be reported missing" >&2

# --- 4. run --------------------------------------------------------------------
exec /usr/bin/python3 bench/bench.py --tkc "$tkc" --drivers "$build/bench" \
  ${torch_python:+--torch-python "$torch_python"} --torch-source "$torch_source" "${args[@]}"
