#!/usr/bin/env bash
# Kernel-shape tuning sweeps, in two halves.
#   bench/tune.sh compile BUILD_DIR ART_DIR   (build host: needs memopt-compile)
#   bench/tune.sh run ART_DIR MEMOPT_RUN OUT_DIR   (GPU host)
# Every variant is timed by memopt-run against the default optimized build of
# the same workload in the same process ("baseline" slot = default), so the
# two fractions of copy bandwidth in each line are directly comparable.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
case "${1:-}" in
compile)
  BUILD=${2:?build dir}; ART=${3:?artifact dir}/tune
  mkdir -p "$ART"
  # W7 column sum: block size x contiguous slice bytes x row unroll.
  W7="$ROOT/examples/w7_colsum.mlir"
  "$BUILD/bin/memopt-compile" "$W7" --pipeline=optimized -o "$ART/w7.default"
  "$BUILD/bin/memopt-compile" "$W7" --pipeline=reference -o "$ART/w7.reference"
  for b in 256 512 1024; do for s in 32 64 128; do for u in 4 8 16; do
    "$BUILD/bin/memopt-compile" "$W7" --pipeline=optimized --block-size=$b \
      --column-slice-bytes=$s --column-unroll=$u -o "$ART/w7-b$b-s$s-u$u"
  done; done; done
  ;;
run)
  ART=${2:?artifact dir}/tune; RUN=${3:?memopt-run}; OUTD=${4:?out dir}
  mkdir -p "$OUTD"
  for v in "$ART"/w7-*.json; do
    name=$(basename "$v" .json)
    "$RUN" --baseline "$ART/w7.default.json" --optimized "$v" \
      --reference "$ART/w7.reference.json" --atol 2e-2 --iters 30 \
      --json "$OUTD/$name.json" > "$OUTD/$name.log" 2>&1
    echo "$name exit $?"
  done
  python3 - "$OUTD" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
lines = ["variant                 kernels grid  default%copy  variant%copy  variant ms"]
for f in sorted(out.glob("w7-*.json")):
    r = json.load(open(f))
    p = r["pipelines"]
    d, v = p["baseline"]["total"], p["optimized"]["total"]
    grid = p["optimized"]["steps"][0].get("grid", ["?"])[0]
    lines.append(f"{f.stem:24s} {v['kernels']:7d} {grid:5} {100*d['fraction_of_copy']:12.1f} "
                 f"{100*v['fraction_of_copy']:13.1f} {v['median_ms']:11.4f}")
open(out / "tune.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
  ;;
*) echo "usage: $0 compile BUILD ART | run ART MEMOPT_RUN OUT" >&2; exit 2;;
esac
