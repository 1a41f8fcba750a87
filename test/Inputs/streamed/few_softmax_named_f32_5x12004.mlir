// linalg.softmax over 5 rows of 12004 f32 (3001 chunks of 4 lanes). The
// target is pinned small (256 threads a block, 4 multiprocessors): rows
// that need a cluster on chip, whose clusters would run two waves. Each row
// streams over a cluster of 4 blocks: one walk for the maximum and the
// exp sum (online), exchanged through distributed shared memory, one for
// the outputs; the last block's slice ends inside its third tile.
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 4, warp_size = 32, max_threads_per_block = 256, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 128>} {
func.func @few_softmax_named_f32_5x12004(%x: tensor<5x12004xf32>) -> tensor<5x12004xf32> {
  %e = tensor.empty() : tensor<5x12004xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<5x12004xf32>) outs(%e : tensor<5x12004xf32>) -> tensor<5x12004xf32>
  return %y : tensor<5x12004xf32>
}
}
