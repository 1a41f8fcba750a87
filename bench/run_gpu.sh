#!/usr/bin/env bash
# ===- bench/run_gpu.sh - One complete memopt GPU run ------------------=== #
#
# Part of the memopt project.
#
# Usage: bench/run_gpu.sh ARTIFACT_DIR
#
# ARTIFACT_DIR holds, per workload W, W.baseline.{ptx,json},
# W.optimized.{ptx,json} and W.reference.{so,json} (every *.optimized.json is
# a workload). On the GPU host this script:
#   1. builds the runtime (cmake -G Ninja into /tmp, no LLVM/MLIR needed),
#   2. records nvidia-smi and tool versions,
#   3. runs memopt-run on every workload (verify + time + copy bandwidth),
#   4. runs compute-sanitizer memcheck on every workload (--no-timing,
#      120 s per workload; timeouts are recorded as such),
#   5. runs bench/peers.py (PyTorch eager, torch.compile and JAX jit, same
#      shapes),
#   6. merges everything with bench/report.py and prints the final table.
# Between 4 and 5, bench/accuracy.py runs the accuracy programs of
# ARTIFACT_DIR/accuracy (every 16-bit input against f64) into accuracy.json.
#
# Output goes to $OUT (default ./bench-out), at most 6 files:
#   results.json bandwidth.png table.txt log.txt env.txt sanitizer.txt
# Per-workload raw reports are merged into results.json (raw.memopt_run).
#
# Environment: OUT, MEMOPT_GIT_COMMIT (overrides git rev-parse),
# MEMOPT_RUN_ARGS (extra memopt-run flags, e.g. "--iters 50"),
# MEMOPT_SANITIZER_TIMEOUT (seconds, default 120), MEMOPT_SANITIZER_SKIP
# (regex of workloads not run under memcheck), MEMOPT_RACECHECK_ONLY (regex
# of workloads also run under racecheck and synccheck, default the contract
# inputs c-*), MEMOPT_SKIP_PEERS=1,
# MEMOPT_SKIP_SANITIZER=1.
# A workload with W.expect (planted errors, from make_artifacts.sh) must end
# in verification_failed (memopt-run exit 1); it is not timed or sanitized.
# Exit status: 0 if every workload verified and passed memcheck, 1 otherwise,
# 2 usage, 3 no GPU.
#
# ===--------------------------------------------------------------------=== #
set -uo pipefail

if [[ $# -ne 1 || ! -d "$1" ]]; then
  echo "usage: $0 ARTIFACT_DIR" >&2
  exit 2
fi
ART=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
OUT=${OUT:-./bench-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SCRATCH=$(mktemp -d /tmp/memopt-bench.XXXXXX)
BUILD=/tmp/memopt-runtime-build
SAN_TIMEOUT=${MEMOPT_SANITIZER_TIMEOUT:-120}
LOG="$OUT/log.txt"
: > "$LOG"
mkdir -p "$SCRATCH/runs"

log() { echo "$@" | tee -a "$LOG"; }
section() { log ""; log "=== $* ==="; }

# --- 0. Commit -----------------------------------------------------------
COMMIT=${MEMOPT_GIT_COMMIT:-}
if [[ -z "$COMMIT" ]]; then
  COMMIT=$(git -C "$REPO" rev-parse --verify -q HEAD 2>/dev/null || true)
  if [[ -n "$COMMIT" && -n "$(git -C "$REPO" status --porcelain 2>/dev/null | head -1)" ]]; then
    COMMIT="$COMMIT-dirty"
  fi
fi
if [[ -z "$COMMIT" && -f "$REPO/.git-commit" ]]; then
  COMMIT=$(head -1 "$REPO/.git-commit")
fi
COMMIT=${COMMIT:-unknown}

# --- 1. Build --------------------------------------------------------------
section "build runtime ($BUILD)"
if ! { cmake -S "$REPO/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DMEMOPT_RUNTIME_BUILD_TESTS=OFF && ninja -C "$BUILD"; } >>"$LOG" 2>&1; then
  log "runtime build failed; see $LOG"
  tail -30 "$LOG"
  exit 1
fi
RUN="$BUILD/bin/memopt-run"
log "built $RUN"

# --- 2. Environment ------------------------------------------------------
section "environment"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "commit: $COMMIT"
  echo "artifacts: $ART"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,clocks.max.memory,power.limit,temperature.gpu,persistence_mode --format=csv 2>&1
  nvidia-smi 2>&1
  nvcc --version 2>&1 | tail -2
  compute-sanitizer --version 2>&1 | head -2
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' 2>&1
  XLA_PYTHON_CLIENT_PREALLOCATE=false python3 -c 'import jax; print("jax", jax.__version__)' 2>&1
} > "$OUT/env.txt"
head -8 "$OUT/env.txt" | tee -a "$LOG"

# --- 3. memopt-run ----------------------------------------------------------
WORKLOADS=()
for f in "$ART"/*.optimized.json; do
  [[ -e "$f" ]] || continue
  WORKLOADS+=("$(basename "$f" .optimized.json)")
done
if [[ ${#WORKLOADS[@]} -eq 0 ]]; then
  log "no *.optimized.json in $ART"
  exit 2
fi
log "workloads: ${WORKLOADS[*]}"

STATUS=0
NO_GPU=0
for w in "${WORKLOADS[@]}"; do
  section "memopt-run $w"
  # Per-workload flags written by make_artifacts.sh (tolerances).
  EXTRA=""
  [[ -f "$ART/$w.runargs" ]] && EXTRA=$(cat "$ART/$w.runargs")
  # A planted error (W.expect: verification_failed) must fail verification
  # (exit 1); its report stays out of the performance table.
  EXPECT=""
  [[ -f "$ART/$w.expect" ]] && EXPECT=$(cat "$ART/$w.expect")
  JSON="$SCRATCH/runs/$w.json"
  [[ -n "$EXPECT" ]] && JSON="$SCRATCH/$w.expected.json"
  # shellcheck disable=SC2086
  "$RUN" --baseline "$ART/$w.baseline.json" --optimized "$ART/$w.optimized.json" \
    --reference "$ART/$w.reference.json" --name "$w" \
    --json "$JSON" $EXTRA ${MEMOPT_RUN_ARGS:-} 2>&1 | tee -a "$LOG"
  rc=${PIPESTATUS[0]}
  log "memopt-run $w: exit $rc"
  if [[ -n "$EXPECT" && $rc -ne 3 ]]; then
    if [[ $rc -eq 1 ]]; then
      log "memopt-run $w: $EXPECT, as expected (planted error caught)"
    else
      log "memopt-run $w: expected $EXPECT, got exit $rc (planted error NOT caught)"
      STATUS=1
    fi
    continue
  fi
  [[ $rc -ne 0 ]] && STATUS=1
  if [[ $rc -eq 3 ]]; then
    NO_GPU=1
    log "no GPU: skipping the remaining GPU steps"
    break
  fi
done

# --- 4. compute-sanitizer ---------------------------------------------------
SAN_TSV="$SCRATCH/sanitizer.tsv"
printf 'name\tstatus\texit\tseconds\tsummary\n' > "$SAN_TSV"
: > "$OUT/sanitizer.txt"
if [[ $NO_GPU -eq 0 && -z "${MEMOPT_SKIP_SANITIZER:-}" ]] && ! command -v compute-sanitizer >/dev/null; then
  log "compute-sanitizer not found on PATH: memcheck not run"
  for w in "${WORKLOADS[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\n' "$w" "unavailable" "127" "0" "compute-sanitizer not found" >> "$SAN_TSV"
  done
  STATUS=1
elif [[ $NO_GPU -eq 0 && -z "${MEMOPT_SKIP_SANITIZER:-}" ]]; then
  for w in "${WORKLOADS[@]}"; do
    [[ -f "$ART/$w.expect" ]] && continue # planted errors: verify only
    # MEMOPT_SANITIZER_SKIP: extended regex of workloads not run under
    # memcheck (variants whose kernels the contract inputs already cover).
    if [[ -n "${MEMOPT_SANITIZER_SKIP:-}" && $w =~ ^(${MEMOPT_SANITIZER_SKIP})$ ]]; then
      printf '%s\t%s\t%s\t%s\t%s\n' "$w" "skipped" "0" "0" "not run (MEMOPT_SANITIZER_SKIP)" >> "$SAN_TSV"
      continue
    fi
    section "compute-sanitizer memcheck $w (timeout ${SAN_TIMEOUT}s)"
    slog="$SCRATCH/sanitizer.$w.log"
    start=$(date +%s%N)
    EXTRA=""
    [[ -f "$ART/$w.runargs" ]] && EXTRA=$(cat "$ART/$w.runargs")
    # shellcheck disable=SC2086
    timeout -k 10 "$SAN_TIMEOUT" compute-sanitizer --tool memcheck \
      --error-exitcode 99 --print-limit 20 \
      "$RUN" --baseline "$ART/$w.baseline.json" --optimized "$ART/$w.optimized.json" \
      --reference "$ART/$w.reference.json" --name "$w" --no-timing $EXTRA \
      > "$slog" 2>&1
    rc=$?
    end=$(date +%s%N)
    secs=$(( (end - start) / 1000000000 ))
    summary=$(grep -E "ERROR SUMMARY" "$slog" | tail -1 | sed 's/^=*\s*//')
    case $rc in
      0) st=pass ;;
      99) st=errors ;;
      124|137) st=timeout; summary="timed out after ${SAN_TIMEOUT}s" ;;
      1) st=verify-fail ;; # memcheck clean, but memopt-run's checks failed
      *) st="exit-$rc" ;;
    esac
    [[ $st != pass ]] && STATUS=1
    summary=${summary:-no summary}
    printf '%s\t%s\t%s\t%s\t%s\n' "$w" "$st" "$rc" "$secs" "$summary" >> "$SAN_TSV"
    { echo "### $w: $st (exit $rc, ${secs}s): $summary"; tail -60 "$slog"; echo; } >> "$OUT/sanitizer.txt"
    log "memcheck $w: $st (exit $rc): $summary"
  done
  # Shared-memory races and barrier misuse (tiles, block reductions,
  # cp.async rings) on the contract inputs: small shapes, every strategy.
  : > "$OUT/racecheck.txt"
  for w in "${WORKLOADS[@]}"; do
    [[ -f "$ART/$w.expect" ]] && continue
    [[ $w =~ ^(${MEMOPT_RACECHECK_ONLY:-c-.*})$ ]] || continue
    for tool in racecheck synccheck; do
      slog="$SCRATCH/$tool.$w.log"
      EXTRA=""
      [[ -f "$ART/$w.runargs" ]] && EXTRA=$(cat "$ART/$w.runargs")
      # shellcheck disable=SC2086
      timeout -k 10 "$SAN_TIMEOUT" compute-sanitizer --tool $tool \
        --error-exitcode 99 --print-limit 20 \
        "$RUN" --baseline "$ART/$w.baseline.json" --optimized "$ART/$w.optimized.json" \
        --reference "$ART/$w.reference.json" --name "$w" --no-timing $EXTRA \
        > "$slog" 2>&1
      rc=$?
      summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$slog" | tail -1 | sed 's/^=*\s*//')
      [[ $rc -ne 0 ]] && STATUS=1 && tail -40 "$slog" >> "$OUT/racecheck.txt"
      echo "$tool $w: exit $rc: ${summary:-no summary}" | tee -a "$OUT/racecheck.txt" >> "$LOG"
    done
  done
  log "racecheck/synccheck: $(grep -c ': exit 0:' "$OUT/racecheck.txt") clean runs, $(grep -c ': exit [1-9]' "$OUT/racecheck.txt") failed"
else
  log "compute-sanitizer skipped"
fi

# --- 4b. Accuracy of the GPU math ------------------------------------------
# Every 16-bit input of the accuracy programs, approximate and precise
# math, against f64 (bench/accuracy.py; written to accuracy.json).
if [[ $NO_GPU -eq 0 && -d "$ART/accuracy" ]]; then
  section "accuracy (bench/accuracy.py)"
  python3 "$HERE/accuracy.py" --artifacts "$ART/accuracy" \
    --json "$OUT/accuracy.json" 2>&1 | tee -a "$LOG"
  rc=${PIPESTATUS[0]}
  log "accuracy.py: exit $rc"
  [[ $rc -ne 0 ]] && STATUS=1
fi

# --- 5. Peers -----------------------------------------------------------------
PEERS_JSON="$SCRATCH/peers.json"
if [[ $NO_GPU -eq 0 && -z "${MEMOPT_SKIP_PEERS:-}" ]]; then
  section "peers: PyTorch eager, torch.compile and JAX jit"
  ONLY=$(printf '%s\n' "${WORKLOADS[@]}" | sed 's/_.*//' | sort -u | paste -sd, -)
  python3 "$HERE/peers.py" --only "$ONLY" --json "$PEERS_JSON" 2>&1 | tee -a "$LOG"
  log "peers.py: exit ${PIPESTATUS[0]}"
else
  log "peers skipped"
fi

# --- 6. Report ----------------------------------------------------------------
section "report"
REPORT_ARGS=(--runs-dir "$SCRATCH/runs" --out "$OUT" --sanitizer "$SAN_TSV"
             --env "$OUT/env.txt" --git-commit "$COMMIT" --artifacts "$ART")
[[ -f "$PEERS_JSON" ]] && REPORT_ARGS+=(--peers "$PEERS_JSON")
python3 "$HERE/report.py" "${REPORT_ARGS[@]}" > "$SCRATCH/table.out" 2>&1
rc=$?
cat "$SCRATCH/table.out" >> "$LOG"
echo
if [[ $rc -eq 0 && -f "$OUT/table.txt" ]]; then
  cat "$OUT/table.txt"
else
  echo "report.py failed (exit $rc):"
  cat "$SCRATCH/table.out"
fi
rm -rf "$SCRATCH"
[[ $rc -ne 0 ]] && exit 1
[[ $NO_GPU -ne 0 ]] && exit 3
exit $STATUS
