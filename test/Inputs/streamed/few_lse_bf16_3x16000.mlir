// Log-sum-exp as torch-mlir decomposes torch.logsumexp(x.float(), -1), over
// 3 rows of 16000 bf16 on a target pinned small (256 threads a block, 2
// multiprocessors): too few rows to stream a block per row (the one-pass
// rule asks for four a multiprocessor), and the on-chip clusters (6 blocks
// in 4 slots) would run two waves, so each row streams over a
// cluster of 4 blocks (2000 chunks of 8 lanes: 2 tiles of 256 a block,
// the last block's second tile partly past the row), the maximum and the
// exp sum online in one walk, their totals exchanged once through
// distributed shared memory.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 2, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @lse_torch_bf16_3x16000(%x: tensor<3x16000xbf16>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x16000xbf16>) outs(%f0 : tensor<3xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %o : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<3x16000xbf16>, tensor<3xf32>) outs(%f1 : tensor<3xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %o : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %y : tensor<3xf32>
}
}
