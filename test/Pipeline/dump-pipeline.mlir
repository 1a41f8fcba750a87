// RUN: memopt-opt %s --memopt-pipeline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: memopt-opt %s --memopt-baseline-pipeline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefixes=CHECK,BASE
// RUN: memopt-opt %s --memopt-pipeline="chip=sm_80 features=+ptx75 block-size=128 opt-level=2" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTS
// RUN: memopt-opt %s --memopt-pipeline="column-unroll=8 row-prefetch=true row-shared-elements=16 multiprocessors=7" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=SHAPES
// RUN: memopt-opt %s --memopt-pipeline="approximate-math=false" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PRECISE

// The textual order of the passes is the contract of lib/Pipeline.

// CHECK:       builtin.module(
// CHECK-NEXT:    func.func(
// CHECK-NEXT:      memopt-normalize-frontend-forms
// CHECK-NEXT:    ),
// CHECK-NEXT:    memopt-check-input-contract{max-constant-bytes=16777216},
// CHECK-NEXT:    func.func(
// CHECK-NEXT:      memopt-decompose-linalg
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// CHECK-NEXT:      memopt-pack-sub-byte-integers
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// CHECK-NEXT:      memopt-fold-slices
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// Transposed copies read in place: the optimizing pipeline only.
// OPT-NEXT:        memopt-fold-permutation-copies
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-fold-permutation-copies
// CHECK-NEXT:      linalg-fold-unit-extent-dims{use-rank-reducing-slices=false}
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// Reductions in their largest input's order: the optimizing pipeline only.
// OPT-NEXT:        memopt-interchange-reductions
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-interchange-reductions
// CHECK-NEXT:      memopt-collapse-reduction-dims
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// Arg reductions as one-combiner reductions: the optimizing pipeline only.
// OPT-NEXT:        memopt-arg-reductions
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-arg-reductions
// Welford's recurrence and statistics centred per partial reassociate:
// the optimizing pipeline only.
// OPT-NEXT:        memopt-center-statistics
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-center-statistics
// CHECK-NEXT:      memopt-split-reductions
// CHECK-NEXT:    ),
// CHECK-NEXT:    func.func(
// Integer accumulators in i32 (exact): the optimizing pipeline only.
// OPT-NEXT:        memopt-narrow-integer-accumulators
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-narrow-integer-accumulators
// The staging of reductions reassociates: the optimizing pipeline only.
// OPT-NEXT:        memopt-stage-reductions
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// OPT-NEXT:        memopt-recompute-producers
// OPT-NEXT:      ),
// Math only observed in 16 bits may be approximated: optimizing only.
// OPT-NEXT:      func.func(
// OPT-NEXT:        memopt-approximate-math
// OPT-NEXT:      ),
// OPT-NEXT:      func.func(
// BASE-NOT:        memopt-stage-reductions
// BASE-NOT:        memopt-approximate-math
// OPT-NEXT:        memopt-prepare-boundary{unshare-destinations=true}
// BASE-NEXT:       memopt-prepare-boundary{unshare-destinations=false}
// CHECK-NEXT:    ),
// The layout stage belongs to the optimizing pipeline only.
// OPT-NEXT:      memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32},
// Records kept interleaved are read as whole records.
// OPT-NEXT:      func.func(
// OPT-NEXT:        memopt-widen-records
// OPT-NEXT:      ),
// BASE-NOT:      memopt-aos-to-soa
// BASE-NOT:      memopt-widen-records
// CHECK-NEXT:    one-shot-bufferize{
// CHECK-SAME:      bufferize-function-boundaries=true
// CHECK-SAME:      function-boundary-type-conversion=identity-layout-map
// Reshapes of reshapes fold before results become out-parameters.
// CHECK-NEXT:    canonicalize
// CHECK-NEXT:    cse,
// CHECK-NEXT:    buffer-results-to-out-params{
// CHECK-SAME:      hoist-static-allocs=true modify-public-functions=true
// Results computed through reshapes written through their out-parameters.
// CHECK-NEXT:    func.func(
// CHECK-NEXT:      memopt-fold-output-copies
// CHECK-NEXT:    ),
// CHECK-NEXT:    canonicalize
// CHECK-NEXT:    cse,
// The plan (memopt-plan-stage ends here): the target, the groups, their
// strategies; then the kernels built from it. Chip facts at 0 come from
// the #memopt.target.
// CHECK-NEXT:    memopt-set-target{chip=sm_90},
// CHECK-NEXT:    func.func(
// OPT-NEXT:        memopt-interchange-normalizations{block-size=256 cluster-block-threads=512 column-last-block=true column-rows-per-block=256 column-slice-bytes=64 column-unroll=16 elementwise-load-bytes=16 interleaved-block-rows=0 interleaved-rows-per-thread=1 last-block-tails=true max-cluster-size=0 max-threads-per-block=0 multiprocessors=0 row-chunks-per-thread=8 row-prefetch=false row-register-elements=32 row-shared-elements=32 vector-bytes=0 warp-size=0},
// OPT-NEXT:        memopt-split-row-reductions{block-size=256 cluster-block-threads=512 column-last-block=true column-rows-per-block=256 column-slice-bytes=64 column-unroll=16 elementwise-load-bytes=16 interleaved-block-rows=0 interleaved-rows-per-thread=1 last-block-tails=true max-cluster-size=0 max-threads-per-block=0 multiprocessors=0 row-chunks-per-thread=8 row-prefetch=false row-register-elements=32 row-shared-elements=32 vector-bytes=0 warp-size=0},
// OPT-NEXT:        memopt-form-groups{block-size=256 cluster-block-threads=512 column-last-block=true column-rows-per-block=256 column-slice-bytes=64 column-unroll=16 elementwise-load-bytes=16 interleaved-block-rows=0 interleaved-rows-per-thread=1 last-block-tails=true max-cluster-size=0 max-threads-per-block=0 multiprocessors=0 row-chunks-per-thread=8 row-prefetch=false row-register-elements=32 row-shared-elements=32 strategy=fused vector-bytes=0 warp-size=0},
// BASE-NEXT:       memopt-form-groups{block-size=256 cluster-block-threads=512 column-last-block=true column-rows-per-block=256 column-slice-bytes=64 column-unroll=16 elementwise-load-bytes=16 interleaved-block-rows=0 interleaved-rows-per-thread=1 last-block-tails=true max-cluster-size=0 max-threads-per-block=0 multiprocessors=0 row-chunks-per-thread=8 row-prefetch=false row-register-elements=32 row-shared-elements=32 strategy=naive vector-bytes=0 warp-size=0},
// CHECK-NEXT:      memopt-select-kernel-strategy{block-size=256 cluster-block-threads=512 column-last-block=true column-rows-per-block=256 column-slice-bytes=64 column-unroll=16 elementwise-load-bytes=16 interleaved-block-rows=0 interleaved-rows-per-thread=1 last-block-tails=true max-cluster-size=0 max-threads-per-block=0 multiprocessors=0 row-chunks-per-thread=8 row-prefetch=false row-register-elements=32 row-shared-elements=32 vector-bytes=0 warp-size=0},
// CHECK-NEXT:      memopt-emit-kernels
// CHECK-NEXT:    ),
// CHECK-NEXT:    canonicalize
// CHECK-NEXT:    cse,
// CHECK-NEXT:    memopt-bank-fix{mode=auto shared-memory-bytes=0},
// OPT-NEXT:      memopt-pipeline-loads{max-shared-bytes=0 shared-budget-bytes=65536 stages=0},
// OPT-NEXT:      canonicalize
// OPT-NEXT:      cse,
// CHECK-NEXT:    gpu-launch-sink-index-computations,
// CHECK-NEXT:    memopt-widen-accesses,
// CHECK-NEXT:    gpu-kernel-outlining
// CHECK-NEXT:    memopt-merge-kernel-modules,
// CHECK-NEXT:    memopt-mark-readonly-args,
// CHECK-NEXT:    gpu.module(
// CHECK-NEXT:      memopt-lower-cluster-ops,
// CHECK-NEXT:      memopt-lower-gpu-math,
// CHECK-NEXT:      lower-affine,
// CHECK-NEXT:      convert-scf-to-cf
// CHECK-NEXT:      convert-nvgpu-to-nvvm,
// CHECK-NEXT:      convert-gpu-to-nvvm{
// CHECK-SAME:        use-bare-ptr-memref-call-conv=true
// CHECK-NEXT:      memopt-fix-shared-globals,
// CHECK-NEXT:      memopt-bool-vectors-as-bytes,
// CHECK-NEXT:      canonicalize
// CHECK-NEXT:      cse,
// CHECK-NEXT:      reconcile-unrealized-casts
// CHECK-NEXT:    ),
// CHECK-NEXT:    nvvm-attach-target{O=3 chip=sm_90 {{.*}}features=+ptx80
// CHECK-NEXT:    gpu-module-to-binary{format=isa
// CHECK-NEXT:  )

// Pipeline options reach the passes. (Clusters need sm_90: the sm_80
// target's max_cluster_size of 1 makes older chips stream long rows.)
// OPTS:        memopt-set-target{chip=sm_80}
// OPTS:        memopt-form-groups{block-size=128 {{.*}}strategy=fused
// OPTS:        memopt-select-kernel-strategy{block-size=128
// OPTS:        nvvm-attach-target{O=2 chip=sm_80 {{.*}}features=+ptx75

// Every form-kernels option that memopt-compile has as a flag
// (include/memopt/Pipeline/KernelShapeOptions.def) is a pipeline option.
// SHAPES:      memopt-form-groups{block-size=256 {{.*}}column-unroll=8 {{.*}}multiprocessors=7 {{.*}}row-prefetch=true row-register-elements=32 row-shared-elements=16
// SHAPES:      memopt-select-kernel-strategy{block-size=256 {{.*}}column-unroll=8 {{.*}}multiprocessors=7 {{.*}}row-prefetch=true row-register-elements=32 row-shared-elements=16

func.func @f() {
  return
}

// approximate-math=false keeps every math op precise.
// PRECISE:     memopt-recompute-producers
// PRECISE-NOT: memopt-approximate-math
// PRECISE:     memopt-prepare-boundary
