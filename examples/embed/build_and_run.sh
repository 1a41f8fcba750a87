#!/usr/bin/env bash
#===- examples/embed/build_and_run.sh - install + embed smoke test ---------===//
#
# Part of the memopt project.
#
# Usage: build_and_run.sh <memopt build dir> [<work dir>]
#
#   1. cmake --install <memopt build dir> --prefix <work dir>/prefix
#   2. configures and builds examples/embed against that prefix only
#      (find_package(MemOpt) through CMAKE_PREFIX_PATH),
#   3. runs memopt-embed and checks <out>.ptx has a `.entry` and <out>.json a
#      "schedule".
#
# The work dir (default: a fresh mktemp -d) is wiped first. Needs cmake and a
# C++ compiler; uses Ninja and the mold linker when available.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 <memopt build dir> [<work dir>]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/memopt-embed.XXXXXX")}
src_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix

fail() { echo "build_and_run.sh: error: $*" >&2; exit 1; }
step() { echo "== $*"; }

# 1. Install.
step "installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
for f in include/memopt/InitAll.h include/memopt/Target/Artifacts.h \
         include/memopt/Transforms/Passes.h.inc \
         lib/libMemoptTarget.a lib/libMemoptInitAll.a \
         lib/cmake/memopt/MemOptConfig.cmake \
         lib/cmake/memopt/MemOptConfigVersion.cmake \
         lib/cmake/memopt/MemOptTargets.cmake \
         bin/memopt-opt bin/memopt-compile; do
  [[ -e $prefix/$f ]] || fail "not installed: $f"
done
"$prefix/bin/memopt-opt" --version >/dev/null ||
  fail "installed memopt-opt does not run"

# 2. Configure and build the consumer against the prefix, with the compiler
#    memopt was built with.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
args=(-S "$src_dir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
[[ -n $cxx ]] && args+=(-DCMAKE_CXX_COMPILER="$cxx")
command -v ninja >/dev/null && args+=(-G Ninja)
if command -v mold >/dev/null || command -v ld.mold >/dev/null; then
  args+=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=mold)
fi
step "configuring the consumer"
cmake "${args[@]}" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring examples/embed failed"; }
memopt_dir=$(sed -n 's/^MemOpt_DIR:PATH=//p' "$work/build/CMakeCache.txt")
[[ $memopt_dir == "$prefix/lib/cmake/memopt" ]] ||
  fail "find_package(MemOpt) found '$memopt_dir', not the installed package"
step "building the consumer"
cmake --build "$work/build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building examples/embed failed"; }

# 3. Run and check the artifacts.
mkdir -p "$work/out"
step "running memopt-embed"
"$work/build/memopt-embed" "$work/out/axpby" >"$work/run.log" 2>&1 ||
  { cat "$work/run.log" >&2; fail "memopt-embed failed"; }
cat "$work/run.log"
grep -q '^kernels: [1-9]' "$work/run.log" || fail "no kernel reported"
grep -q '\.entry' "$work/out/axpby.ptx" || fail "axpby.ptx has no .entry"
grep -q '"schedule"' "$work/out/axpby.json" || fail "axpby.json has no schedule"
echo "EMBED OK: $work/out/axpby.ptx $work/out/axpby.json"
