#!/usr/bin/env bash
# Runs generated programs (utils/fuzz/gen.py, compiled by memopt-compile into
# DIR/<name>.{baseline,optimized,reference}.*) on the GPU under
# compute-sanitizer memcheck: memopt-run verifies baseline and optimized
# against the CPU reference. Prints one line per program and a summary.
# Usage: bench/gpu_fuzz.sh DIR MEMOPT_RUN
set -uo pipefail
DIR=${1:?dir}
RUN=${2:?memopt-run}
pass=0; fail=0
for f in "$DIR"/*.optimized.json; do
  w=$(basename "$f" .optimized.json)
  # Programs with 16-bit floats: outputs inherit 16-bit rounding.
  tol=""
  grep -q '"dtype": "\(bf16\|f16\)"' "$DIR/$w.reference.json" && tol="--atol 2e-2 --rtol 2e-2"
  # shellcheck disable=SC2086
  out=$(timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 "$RUN" \
    --baseline "$DIR/$w.baseline.json" --optimized "$f" \
    --reference "$DIR/$w.reference.json" --no-timing $tol 2>&1)
  rc=$?
  summary=$(echo "$out" | grep -E "ERROR SUMMARY" | tail -1)
  if [[ $rc -eq 0 ]]; then pass=$((pass+1)); st=PASS; else fail=$((fail+1)); st="FAIL(rc=$rc)"; echo "$out" | grep -E "FAIL|mismatch|Invalid|error" | head -5; fi
  echo "$w $st $summary"
done
echo "gpu-fuzz: $((pass+fail)) programs, $pass passed (verified + memcheck clean), $fail failed"
