#!/usr/bin/env bash
# tests/install/run.sh BUILD SRC — `cmake --install` into a fresh prefix, then
# build the tensor runtime's examples (mlp.c, custom_kernel.c) against it, and
# examples/c/jit_kernel.c three ways —
# pkg-config with libtk.so, pkg-config --static with libtk.a, and a CMake
# project with find_package(TileKit) — run each, and check that the installed
# tkc runs and that an AOT object links against the installed libtkrt.a.
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
libdir=$prefix/lib
[[ -d $prefix/lib64 ]] && libdir=$prefix/lib64
for f in bin/tkc include/tk/compiler.h include/tk/rt.h; do
  [[ -e $prefix/$f ]] || { echo "install: missing $f"; exit 1; }
done
for f in libtk.so libtk.a libtkrt.a pkgconfig/tk.pc pkgconfig/tkrt.pc cmake/TileKit/TileKitConfig.cmake; do
  [[ -e $libdir/$f ]] || { echo "install: missing lib/$f"; exit 1; }
done
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc=${CC:-cc}

echo "== pkg-config, shared"
$cc "$src/examples/c/jit_kernel.c" $(pkg-config --cflags --libs tk) -lm -o "$work/jit_shared"
# ldd's output is captured first: under pipefail, `ldd | grep -q` fails at
# random when grep exits on the first match and ldd dies of SIGPIPE.
deps=$(ldd "$work/jit_shared")
grep -q "libtk.so" <<<"$deps" || { echo "jit_shared does not link libtk.so"; exit 1; }
LD_LIBRARY_PATH=$libdir TK_CACHE_DIR=$work/cache "$work/jit_shared"

echo "== pkg-config --static"
$cc "$src/examples/c/jit_kernel.c" $(pkg-config --cflags tk) "$libdir/libtk.a" $(pkg-config --static --libs-only-L --libs-only-l tk | sed 's/-ltk //') -lm -o "$work/jit_static"
deps=$(ldd "$work/jit_static")
if grep -q "libtk.so" <<<"$deps"; then echo "jit_static links libtk.so"; exit 1; fi
TK_CACHE_DIR=$work/cache "$work/jit_static"

echo "== the tensor runtime through pkg-config (examples/c/mlp.c and custom_kernel.c)"
for f in tensor.h ops.h nn.h shape.h io.h call.h dlpack.h tk.h; do
  [[ -e $prefix/include/tk/$f ]] || { echo "install: missing include/tk/$f"; exit 1; }
done
for ex in mlp custom_kernel; do
  $cc "$src/examples/c/$ex.c" $(pkg-config --cflags --libs tk) -lm -o "$work/$ex"
  LD_LIBRARY_PATH=$libdir TK_CACHE_DIR=$work/cache "$work/$ex"
done

echo "== find_package(TileKit)"
mkdir -p "$work/proj"
cat > "$work/proj/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(use_tilekit C)
find_package(TileKit 0.1 REQUIRED)
add_executable(jit_kernel $src/examples/c/jit_kernel.c)
target_link_libraries(jit_kernel PRIVATE TileKit::tk m)
CM
cmake -S "$work/proj" -B "$work/proj/build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/proj.log"
cmake --build "$work/proj/build" > "$work/proj-build.log"
TK_CACHE_DIR=$work/cache "$work/proj/build/jit_kernel"

echo "== installed tkc and libtkrt.a"
"$prefix/bin/tkc" check "$src/examples/softmax.tk"
"$prefix/bin/tkc" -c "$src/examples/softmax.tk" -o "$work/softmax.o"
cat > "$work/aot.c" <<C
#include "softmax.h"
int main(void) { return 0; }
C
$cc -I"$work" "$work/aot.c" "$work/softmax.o" $(pkg-config --cflags --libs tkrt) -o "$work/aot"
"$work/aot"
echo "install: all checks passed"
