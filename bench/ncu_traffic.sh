#!/usr/bin/env bash
# Measures, with Nsight Compute hardware counters, the DRAM bytes and shared
# memory bank conflicts of every kernel of every workload (baseline and
# optimized), and compares them with the manifests' static traffic model.
# Caches are flushed before each kernel (ncu's default --cache-control all);
# clocks are left alone (--clock-control none).
# Usage: bench/ncu_traffic.sh ARTIFACT_DIR MEMOPT_RUN [OUT_DIR]
set -uo pipefail
ART=${1:?artifact dir}
RUN=${2:?memopt-run binary}
OUTDIR=${3:-${OUT:-./bench-out}}
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=$(mktemp -d)
mkdir -p "$OUTDIR"
METRICS=dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
# The l1tex bank-conflict counters also count arbitration with other users
# of the data banks (global-load fills, ...), not only address conflicts.
# The instruction-level (SASS) counters behind Nsight Compute's Source view
# ("L1 Wavefronts Shared" and its ideal) count the wavefronts each shared
# instruction needs for its addresses alone. Their names vary between Nsight
# Compute versions: each candidate is kept only if this ncu knows it.
SASS_CANDIDATES="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld_ideal smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st_ideal smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal"
ncu --query-metrics-mode suffix --query-metrics > "$SCRATCH/metrics.txt" 2>&1 || true
ncu --query-metrics > "$SCRATCH/metrics-base.txt" 2>&1 || true
for m in $SASS_CANDIDATES; do
  if grep -qw "$m" "$SCRATCH/metrics.txt" "$SCRATCH/metrics-base.txt"; then
    METRICS="$METRICS,$m.sum"
  fi
done
echo "ncu metrics: $METRICS"
grep -i "shared" "$SCRATCH/metrics-base.txt" | grep -i "sass\|wavefront\|conflict" > "$OUTDIR/ncu-shared-metrics.txt" 2>/dev/null || true
for f in "$ART"/*.optimized.json; do
  w=$(basename "$f" .optimized.json)
  # MEMOPT_NCU_ONLY: extended regex of workload names to profile.
  [[ -n "${MEMOPT_NCU_ONLY:-}" ]] && ! [[ $w =~ ^(${MEMOPT_NCU_ONLY})$ ]] && continue
  timeout -k 10 "${MEMOPT_NCU_TIMEOUT:-120}" ncu --clock-control none --metrics "$METRICS" \
    --csv --print-units base --log-file "$SCRATCH/$w.csv" \
    "$RUN" --baseline "$ART/$w.baseline.json" --optimized "$f" \
    --reference "$ART/$w.reference.json" --no-timing > "$SCRATCH/$w.log" 2>&1
  echo "ncu $w: exit $?"
done
python3 "$HERE/ncu_compare.py" "$ART" "$SCRATCH" "$OUTDIR"
rm -rf "$SCRATCH"
