// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused max-threads-per-block=1024 row-register-elements=32 max-cluster-size=16}))" | FileCheck %s

// A row of 1048576 f32 would take a cluster of 32 blocks to hold in
// registers: it is streamed in tiles instead, and a remark says why.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @too_long_for_a_cluster
// CHECK:         gpu.launch blocks
// CHECK-NOT:     clusters
// CHECK:           scf.for
// CHECK-NOT:       memopt.cluster
func.func @too_long_for_a_cluster(%a: memref<2x1048576xf32>, %o: memref<2xf32>) {
  // expected-remark @+1 {{row of 1048576 elements streamed in tiles: holding it in registers takes a cluster of 32 blocks, more than max-cluster-size (16)}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<2x1048576xf32>) outs(%o : memref<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
