// A whole-tensor sum split into segments: the second stage (one row of the
// 1024 partials) runs in the last block of the first stage's kernel to
// finish, with its 256 threads (#memopt.row after_last_block), in place of
// a cluster of 8 blocks of its own; last-block-tails=false keeps that.
// RUN: memopt-opt %s --memopt-plan-stage 2>&1 | FileCheck %s
// RUN: memopt-opt %s --memopt-plan-stage='last-block-tails=false' 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: memopt-opt %s --memopt-plan-stage 2>/dev/null | memopt-opt --pass-pipeline="builtin.module(func.func(memopt-emit-kernels))" | FileCheck %s --check-prefix=EMIT

// CHECK: remark: one row of 1024 elements reduced in the last block of the previous kernel to finish (256 threads): no launch of its own
// CHECK: strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 1,
// CHECK: strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, after_last_block = true>
// OFF-NOT: after_last_block
// OFF: strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 1, cluster = 8,
// OFF-NOT: after_last_block
// EMIT-COUNT-1: gpu.launch
// EMIT-NOT:     gpu.launch
func.func @sum(%x: tensor<1x8388608xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x8388608xf32>) outs(%f : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}
