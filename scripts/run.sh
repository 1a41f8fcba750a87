#!/usr/bin/env bash
# The main job: installs what is needed, builds memopt, compiles every
# workload in examples/ (and bench/inputs/) through the baseline and the
# optimizing pipelines to PTX + launch manifests, plus the CPU reference,
# and prints each kernel's modelled bytes moved, baseline against optimized.
# Where a GPU and driver are present it then runs bench/run_gpu.sh (verify,
# time, compare with PyTorch eager and torch.compile).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
BUILD=${MEMOPT_BUILD_DIR:-$ROOT/build}
ART=${MEMOPT_ARTIFACTS:-$ROOT/artifacts}
"$ROOT/bench/make_artifacts.sh" "$BUILD" "$ART" >/dev/null
python3 "$ROOT/scripts/report_bytes.py" "$ART"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  OUT=${OUT:-$ROOT/bench-out} "$ROOT/bench/run_gpu.sh" "$ART"
else
  echo
  echo "No GPU here: PTX and manifests are in $ART; run bench/run_gpu.sh $ART"
  echo "on a GPU host (see README.md, 'Running on a GPU host')."
fi
