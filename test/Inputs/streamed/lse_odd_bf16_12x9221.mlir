// Log-sum-exp as torch-mlir decomposes torch.logsumexp(x.float(), -1):
// a maximum of extf(x), a sum whose body computes exp(extf(x) - max)
// itself, then log(sum) + max. The target is pinned small (256 threads a
// block, 2 multiprocessors) so that rows of 9221 bf16 need more than one
// block's registers and 12 rows are enough rows to stream: one pass, the
// maximum and the sum online. 9221 is not a multiple of 8: the chunks are
// shifted to the buffers' alignment, each row starting at another offset
// from it (row r at 5r mod 8 elements).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 2, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @lse_torch_bf16_12x9221(%x: tensor<12x9221xbf16>) -> tensor<12xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x9221xbf16>) outs(%f0 : tensor<12xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %o : f32
    linalg.yield %m : f32
  } -> tensor<12xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<12x9221xbf16>, tensor<12xf32>) outs(%f1 : tensor<12xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %o : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<12xf32>
  return %y : tensor<12xf32>
}
}
