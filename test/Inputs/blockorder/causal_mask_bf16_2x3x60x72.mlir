// Block order: softmax(float(x) * scale + mask) to bf16 over bf16 scores
// 2x3x60x72 with an f32 mask [60, 72] broadcast over batch and heads
// (a function of neither outer dim b nor h), linalg.softmax. L2 pinned at
// 64 KiB: one head's sweep touches 34 KiB, so blocks walk (s, b, h), the
// mask's row reused by every batch and head while it is in L2.
#x4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 65536, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @causal_mask_bf16_2x3x60x72(%x: tensor<2x3x60x72xbf16>, %mask: tensor<60x72xf32>) -> tensor<2x3x60x72xbf16> {
  %scale = arith.constant 0.0883883461 : f32
  %e = tensor.empty() : tensor<2x3x60x72xf32>
  %s = linalg.generic {indexing_maps = [#x4, #m4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mask : tensor<2x3x60x72xbf16>, tensor<60x72xf32>) outs(%e : tensor<2x3x60x72xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %scale : f32
    %u = arith.addf %t, %m : f32
    linalg.yield %u : f32
  } -> tensor<2x3x60x72xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x3x60x72xf32>) outs(%e : tensor<2x3x60x72xf32>) -> tensor<2x3x60x72xf32>
  %eb = tensor.empty() : tensor<2x3x60x72xbf16>
  %y = linalg.generic {indexing_maps = [#x4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x3x60x72xf32>) outs(%eb : tensor<2x3x60x72xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %v = arith.truncf %a : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<2x3x60x72xbf16>
  return %y : tensor<2x3x60x72xbf16>
}
}
