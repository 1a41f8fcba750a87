// RMSNorm over few long rows as torch-mlir writes x * rsqrt(mean(x.float()
// ** 2, -1, keepdim=True) + eps) * w: the statistics are a 5x1 tensor read
// through a (d0, 0) map, bf16 in and out, f32 sums. The target is pinned
// small (256 threads a block, 4 multiprocessors) so that rows of 8200 need
// a cluster on chip and 5 rows make its clusters run two waves: each row
// streams over a cluster of 2 blocks instead (1025 chunks of 8 lanes, 3
// tiles of 256 a block, the second block's last tile partly past the row).
#id = affine_map<(d0, d1) -> (d0, d1)>
#kd = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 4, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @few_rms_keepdim_bf16_5x8200(%x: tensor<5x8200xbf16>, %w: tensor<8200xbf16>) -> tensor<5x8200xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x1xf32>) -> tensor<5x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #kd], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x8200xbf16>) outs(%f : tensor<5x1xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %v = arith.extf %a : bf16 to f32
    %q = arith.mulf %v, %v : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  } -> tensor<5x1xf32>
  %ey = tensor.empty() : tensor<5x8200xbf16>
  %y = linalg.generic {indexing_maps = [#id, #kd, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<5x8200xbf16>, tensor<5x1xf32>, tensor<8200xbf16>) outs(%ey : tensor<5x8200xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 8200.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %me = arith.addf %m, %eps : f32
    %r = math.rsqrt %me : f32
    %v = arith.extf %a : bf16 to f32
    %gv = arith.extf %g : bf16 to f32
    %p = arith.mulf %v, %r : f32
    %q = arith.mulf %p, %gv : f32
    %t = arith.truncf %q : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<5x8200xbf16>
  return %y : tensor<5x8200xbf16>
}
}
