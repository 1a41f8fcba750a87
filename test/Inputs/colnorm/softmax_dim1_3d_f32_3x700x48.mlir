// Softmax over the middle dim of a 3-D tensor (torch.softmax(x, 1)).
func.func @sm1(%x: tensor<3x700x48xf32>) -> tensor<3x700x48xf32> {
  %e = tensor.empty() : tensor<3x700x48xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x700x48xf32>) outs(%e : tensor<3x700x48xf32>) -> tensor<3x700x48xf32>
  return %r : tensor<3x700x48xf32>
}
