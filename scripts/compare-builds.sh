#!/usr/bin/env bash
# Compiles every workload bench/make_artifacts.sh compiles (examples, bench
# inputs, contract inputs, variants, the large sizes) with two builds of
# memopt and diffs their PTX and manifests: what a refactoring must leave
# byte-identical, or what a deliberate change changed.
#
# Usage: scripts/compare-builds.sh (--base-commit REV | --base-build DIR)
#                                  [--build DIR] [--out DIR]
#   --base-commit REV  builds memopt-compile of REV in a git worktree under
#                      $TMPDIR (cached: build/base-REV) and compares with it
#   --base-build DIR   an existing build (DIR/bin/memopt-compile)
#   --build DIR        the build to compare (default: build/)
#   --out DIR          keep the artifacts there (default: a temporary dir)
# Both builds compile with this tree's bench/make_artifacts.sh, so the same
# workloads and flags are used. Prints each changed file and a last line
# "N identical, N changed, N only in one build"; exits 1 when any differs.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
BASE_BUILD=""
BASE_REV=""
OUT=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --base-commit) BASE_REV=$2; shift 2 ;;
    --base-build) BASE_BUILD=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "usage: $0 (--base-commit REV | --base-build DIR) [--build DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [[ -n $BASE_REV ]]; then
  sha=$(git -C "$ROOT" rev-parse --short "$BASE_REV")
  tree=${TMPDIR:-/tmp}/memopt-base-$sha
  BASE_BUILD=$ROOT/build/base-$sha
  if [[ ! -x $BASE_BUILD/bin/memopt-compile ]]; then
    [[ -d $tree ]] || git -C "$ROOT" worktree add --detach "$tree" "$sha" >/dev/null
    linker=()
    command -v mold >/dev/null && linker=(-DLLVM_USE_LINKER=mold)
    cmake -S "$tree" -B "$BASE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ "${linker[@]}" \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
    ninja -C "$BASE_BUILD" memopt-compile
  fi
fi
[[ -x $BASE_BUILD/bin/memopt-compile ]] || { echo "no memopt-compile in $BASE_BUILD" >&2; exit 2; }
[[ -x $BUILD/bin/memopt-compile ]] || { echo "no memopt-compile in $BUILD" >&2; exit 2; }
if [[ -z $OUT ]]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT/base" "$OUT/new"
# (--keep-going: the base may refuse programs or options newer than it;
# their artifacts are then "only in one build".)
"$ROOT/bench/make_artifacts.sh" "$BASE_BUILD" "$OUT/base" --kernels-only --keep-going >/dev/null
"$ROOT/bench/make_artifacts.sh" "$BUILD" "$OUT/new" --kernels-only >/dev/null
same=0 changed=0 only=0
while IFS= read -r f; do
  if [[ ! -f $OUT/base/$f || ! -f $OUT/new/$f ]]; then
    echo "only in one build: $f"; only=$((only + 1)); continue
  fi
  if cmp -s "$OUT/base/$f" "$OUT/new/$f"; then
    same=$((same + 1))
  else
    echo "changed: $f"; changed=$((changed + 1))
  fi
done < <(cd "$OUT" && { find base new -type f \( -name '*.ptx' -o -name '*.json' \) | sed 's|^[a-z]*/||'; } | sort -u)
echo "$same identical, $changed changed, $only only in one build"
[[ $changed -eq 0 && $only -eq 0 ]]
