#!/usr/bin/env bash
# build_peers.sh OUTDIR — builds the peak microbenchmark and the C peer drivers
# (bench/peers/*.c) into OUTDIR. A driver whose library is not installed is
# skipped with a message; bench.py then reports that peer as missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build_peers.sh OUTDIR}
mkdir -p "$out"
cc=${CC:-gcc}
cflags=(-std=gnu11 -O2 -Wall -Wextra)
src=$here/peers

build() {   # build NAME HEADER SOURCES... -- LIBS...
  local name=$1 header=$2; shift 2
  local srcs=() libs=()
  while (($#)) && [[ $1 != -- ]]; do srcs+=("$1"); shift; done
  shift
  libs=("$@")
  if [[ -n $header ]] && ! echo "#include <$header>" | "$cc" -E -x c - >/dev/null 2>&1; then
    echo "build_peers: skipping $name: <$header> not found"
    rm -f "$out/$name"
    return
  fi
  if "$cc" "${cflags[@]}" "${srcs[@]}" -o "$out/$name" "${libs[@]}"; then
    echo "build_peers: built $name"
  else
    echo "build_peers: FAILED to build $name"
    rm -f "$out/$name"
  fi
}

build bench_peak "" "$src/peak.c" -- -pthread
build bench_onednn oneapi/dnnl/dnnl.h "$src/onednn.c" "$src/driver.c" -- -fopenmp -ldnnl -pthread
# openblas_config.h comes only with libopenblas-dev; Debian's cblas.h is an
# alternative that may point at netlib's (no blasint, no openblas_* calls)
openblas_inc=/usr/include/$("$cc" -print-multiarch 2>/dev/null)/openblas-pthread
build bench_openblas openblas_config.h "$src/openblas.c" "$src/driver.c" -- -I"$openblas_inc" -lopenblas -pthread
# libxsmm's static library calls BLAS for large shapes; libxsmmnoblas stubs it out
build bench_xsmm libxsmm.h "$src/xsmm.c" "$src/driver.c" -- -lxsmm -lxsmmnoblas -lpthread -lrt -ldl -lm
