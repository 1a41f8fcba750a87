// Block order, elementwise: x + pos with a positional table [1, 70, 101]
// f16 broadcast over a batch of 3 (keepdim map). Rows of 101 f16 are not a
// multiple of the 8-lane vector (shifted rows). L2 pinned at 64 KiB: one
// batch's sweep touches 42 KiB, so blocks walk (s, b), the batch fastest.
#x3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#p3 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 65536, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @pos_add_f16_3x70x101(%x: tensor<3x70x101xf16>, %pos: tensor<1x70x101xf16>) -> tensor<3x70x101xf16> {
  %e = tensor.empty() : tensor<3x70x101xf16>
  %y = linalg.generic {indexing_maps = [#x3, #p3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %pos : tensor<3x70x101xf16>, tensor<1x70x101xf16>) outs(%e : tensor<3x70x101xf16>) {
  ^bb0(%a: f16, %p: f16, %o: f16):
    %v = arith.addf %a, %p : f16
    linalg.yield %v : f16
  } -> tensor<3x70x101xf16>
  return %y : tensor<3x70x101xf16>
}
}
