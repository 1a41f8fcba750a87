// Softmax over rows of 1000 f64 (torch.softmax(x.double(), -1)), a named op.
func.func @sm64(%x: tensor<64x1000xf64>) -> tensor<64x1000xf64> {
  %e = tensor.empty() : tensor<64x1000xf64>
  %r = linalg.softmax dimension(1) ins(%x : tensor<64x1000xf64>) outs(%e : tensor<64x1000xf64>) -> tensor<64x1000xf64>
  return %r : tensor<64x1000xf64>
}
