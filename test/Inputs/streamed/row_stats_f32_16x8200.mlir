// Two independent statistics of long f32 rows, their mean of squares and
// their maximum absolute value (an fp8 scaling recipe's amax beside an
// RMS): neither reads the other, so the streamed kernel computes both in
// one pass over the row. Rows of 8200 f32 take 4 lanes.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 2, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @row_stats_f32_16x8200(%x: tensor<16x8200xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8200.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8200xf32>) outs(%f0 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.mulf %a, %a : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %am = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8200xf32>) outs(%f1 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = math.absf %a : f32
    %m = arith.maximumf %o, %b : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %ms = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%ss : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %s, %n : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %ms, %am : tensor<16xf32>, tensor<16xf32>
}
}
