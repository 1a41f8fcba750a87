#!/usr/bin/env bash
# Nsight Compute's launch and occupancy view of the optimized kernels of
# some workloads: clusters that fit at once, theoretical and achieved
# occupancy, what limits blocks per multiprocessor, DRAM throughput and the
# warp stall reasons. Runs on the GPU host after bench/run_gpu.sh has built
# the runtime.
# Usage: bench/ncu_launch.sh ARTIFACT_DIR MEMOPT_RUN OUT_DIR WORKLOAD...
set -uo pipefail
ART=${1:?artifact dir}
RUN=${2:?memopt-run binary}
OUTDIR=${3:?output dir}
shift 3
mkdir -p "$OUTDIR"
for w in "$@"; do
  # --no-timing: the verification run only; the optimized pipeline's
  # kernels are the last launches.
  timeout -k 10 "${MEMOPT_NCU_TIMEOUT:-120}" ncu --clock-control none \
    --section LaunchStats --section Occupancy --section SpeedOfLight \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    --print-summary none \
    "$RUN" --baseline "$ART/$w.baseline.json" --optimized "$ART/$w.optimized.json" \
    --reference "$ART/$w.reference.json" --no-timing > "$OUTDIR/ncu-launch-$w.txt" 2>&1
  echo "ncu launch $w: exit $?"
done
