// LayerNorm over the last dim of a 2x3x8200 f16 tensor, f32 statistics in
// two reductions (the mean, then the mean of squared deviations from it:
// two walks over each row before the output walk), f16 out, written as
// generics over 3-D maps. The target is pinned small (256 threads a block,
// 4 multiprocessors): 6 rows that need a cluster on chip, whose clusters
// would run two waves (12 blocks in 8 slots), each streamed over a cluster
// of 2 blocks instead, each walk's totals exchanged through
// distributed shared memory before the next.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rw = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 4, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @few_layernorm_f16_2x3x8200(%x: tensor<2x3x8200xf16>) -> tensor<2x3x8200xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.generic {indexing_maps = [#id, #rw], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x3x8200xf16>) outs(%f : tensor<2x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %v = arith.extf %a : f16 to f32
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %var = linalg.generic {indexing_maps = [#id, #rw, #rw], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %sum : tensor<2x3x8200xf16>, tensor<2x3xf32>) outs(%f : tensor<2x3xf32>) {
  ^bb0(%a: f16, %s: f32, %o: f32):
    %n = arith.constant 8200.0 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.extf %a : f16 to f32
    %d = arith.subf %v, %m : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %o, %q : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %ey = tensor.empty() : tensor<2x3x8200xf16>
  %y = linalg.generic {indexing_maps = [#id, #rw, #rw, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %var : tensor<2x3x8200xf16>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%ey : tensor<2x3x8200xf16>) {
  ^bb0(%a: f16, %s: f32, %q: f32, %o: f16):
    %n = arith.constant 8200.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %vr = arith.divf %q, %n : f32
    %ve = arith.addf %vr, %eps : f32
    %rs = math.rsqrt %ve : f32
    %v = arith.extf %a : f16 to f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %rs : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x3x8200xf16>
  return %y : tensor<2x3x8200xf16>
}
}
