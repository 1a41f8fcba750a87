#!/usr/bin/env bash
# Installs memopt's build dependencies (Debian 12) and builds it into
# build/. Sourced by run.sh and test.sh; safe to run again (incremental).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${MEMOPT_BUILD_DIR:-$ROOT/build}
PKGS=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools ninja-build mold
      cmake g++ gcc libgtest-dev python3)
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  echo "memopt: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
LINKER_FLAG=()
command -v mold >/dev/null && LINKER_FLAG=(-DLLVM_USE_LINKER=mold)
if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ "${LINKER_FLAG[@]}" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$BUILD" memopt-opt memopt-compile memopt-run memopt-cpu-diff \
  memopt-runtime-unittests
