// Softmax over the leading dim, f32 2100 x 24 (linalg.softmax
// dimension(0)): a column max and a column sum of exponentials (rows split
// across blocks), then the normalization.
func.func @sm0(%x: tensor<2100x24xf32>) -> tensor<2100x24xf32> {
  %e = tensor.empty() : tensor<2100x24xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<2100x24xf32>) outs(%e : tensor<2100x24xf32>) -> tensor<2100x24xf32>
  return %r : tensor<2100x24xf32>
}
