// Log-sum-exp of scaled f16 logits over the last dim of a 3-D tensor with
// keepdim results (maps into [2, 5, 1], as torch-mlir writes keepdim=True):
// the scale x * 0.5 is its own elementwise op, the maximum takes maxnumf
// with the accumulator first, the exp is a separate elementwise op whose
// values the sum adds with the accumulator on the left. Rows of 8203 (not a
// multiple of 8) take chunks shifted to the buffers' alignment: 4 tiles of
// 256 whole chunks, then up to 2 more chunks a thread with lanes masked.
#x3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#k3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 2, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @lse_keepdim_scaled_f16_2x5x8203(%x: tensor<2x5x8203xf16>) -> tensor<2x5x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %es = tensor.empty() : tensor<2x5x8203xf32>
  %sc = linalg.generic {indexing_maps = [#x3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x5x8203xf16>) outs(%es : tensor<2x5x8203xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.mulf %w, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x5x8203xf32>
  %e = tensor.empty() : tensor<2x5x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %mx = linalg.generic {indexing_maps = [#x3, #k3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x5x8203xf32>) outs(%f0 : tensor<2x5x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maxnumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<2x5x1xf32>
  %ex = linalg.generic {indexing_maps = [#x3, #k3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<2x5x8203xf32>, tensor<2x5x1xf32>) outs(%es : tensor<2x5x8203xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x5x8203xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %sm = linalg.generic {indexing_maps = [#x3, #k3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x5x8203xf32>) outs(%f1 : tensor<2x5x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x5x1xf32>
  %y = linalg.generic {indexing_maps = [#x3, #x3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %mx : tensor<2x5x1xf32>, tensor<2x5x1xf32>) outs(%e : tensor<2x5x1xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x5x1xf32>
  return %y : tensor<2x5x1xf32>
}
}
