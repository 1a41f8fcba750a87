// Contract input: softmax over 7 rows of 40000 f32 elements, too long for
// one block's registers: each row is split over a cluster of 3 blocks whose
// slices overrun the row (3 blocks x 480 threads x 7 chunks x 4 = 40320 >
// 40000, so some chunks lie past its end). With few multiprocessors (tests pass
// --multiprocessors) fewer clusters than rows fit at once: the clusters are
// persistent, walk rows with unequal trip counts and prefetch each next row
// into shared memory.
func.func @softmax_long_7x40000(%x: tensor<7x40000xf32>) -> tensor<7x40000xf32> {
  %e = tensor.empty() : tensor<7x40000xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<7x40000xf32>) outs(%e : tensor<7x40000xf32>) -> tensor<7x40000xf32>
  return %y : tensor<7x40000xf32>
}
