// RUN: memopt-opt %s --memopt-plan-stage 2>/dev/null | FileCheck %s
// The sub-warp row rule reads the target's cache line: with 64-byte lines
// a bf16 row of 128 (8-byte chunks with f32 statistics) takes 8 threads of
// 4 chunks (16 x 2 with the default 128 bytes:
// cpu-diff-rmsnorm_rows128_bf16_2112x128.test).
// CHECK: #memopt.row<vector = 4, {{.*}}threads = 8, chunks = 4,
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 64>} {
func.func @rmsnorm_rows128_bf16_2112x128(%x: tensor<2112x128xbf16>, %g: tensor<128xbf16>) -> tensor<2112x128xbf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2112xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2112xf32>) -> tensor<2112xf32>
  %ssq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2112x128xbf16>) outs(%f0 : tensor<2112xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2112xf32>
  %e2 = tensor.empty() : tensor<2112x128xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : tensor<2112x128xbf16>, tensor<2112xf32>, tensor<128xbf16>) outs(%e2 : tensor<2112x128xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gv: bf16, %out: bf16):
    %n = arith.constant 128.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %w = arith.extf %a : bf16 to f32
    %gw = arith.extf %gv : bf16 to f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %o = arith.truncf %u : f32 to bf16
    linalg.yield %o : bf16
  } -> tensor<2112x128xbf16>
  return %y : tensor<2112x128xbf16>
}
}
