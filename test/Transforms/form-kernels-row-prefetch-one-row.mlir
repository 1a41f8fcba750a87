// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused row-prefetch=1}))"

// With --row-prefetch and 132 multiprocessors, 52 clusters of 5 blocks fit
// at once: 4 rows are one per cluster, nothing to prefetch.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @four_rows(%x: memref<4x69632xf32>, %s: memref<4xf32>) {
  // expected-remark @+1 {{rows not prefetched: 4 rows, at most one per cluster (52 clusters fit at once)}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x69632xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
