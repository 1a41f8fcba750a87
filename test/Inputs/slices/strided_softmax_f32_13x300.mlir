// Softmax over the odd columns of each row (x[:, 1::2]: a strided
// tensor.extract_slice of offset 1 and stride 2) through linalg.softmax.
func.func @odd_softmax(%x: tensor<13x300xf32>) -> tensor<13x150xf32> {
  %s = tensor.extract_slice %x[0, 1] [13, 150] [1, 2] : tensor<13x300xf32> to tensor<13x150xf32>
  %e = tensor.empty() : tensor<13x150xf32>
  %r = linalg.softmax dimension(1) ins(%s : tensor<13x150xf32>) outs(%e : tensor<13x150xf32>) -> tensor<13x150xf32>
  return %r : tensor<13x150xf32>
}
