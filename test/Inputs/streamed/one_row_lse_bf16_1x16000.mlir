// Log-sum-exp as torch-mlir decomposes torch.logsumexp(x.float(), -1) over
// one row of 16000 bf16 (decode with a batch of one): the unit dim folds
// away, so the maximum and the sum reduce a 1-D tensor into 0-d results
// and their fills are rank 0. Those fills join the row group as its row
// scalars (they ended it before, so the row was read twice), and the row
// streams in one walk, the maximum and the exp sum online. The target is
// pinned small (256 threads a block, 1 multiprocessor); the on-chip
// cluster of 2 would run two waves of its one slot.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 1, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @lse_torch_bf16_1x16000(%x: tensor<1x16000xbf16>) -> tensor<1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x16000xbf16>) outs(%f0 : tensor<1xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %o : f32
    linalg.yield %m : f32
  } -> tensor<1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<1x16000xbf16>, tensor<1xf32>) outs(%f1 : tensor<1xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %o : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<1xf32>, tensor<1xf32>) outs(%e : tensor<1xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %y : tensor<1xf32>
}
}
