// Bench input sm1: softmax over the middle dim, (16, 2048, 1024) f32 (torch.softmax(x, 1)).
func.func @sm1(%x: tensor<16x2048x1024xf32>) -> tensor<16x2048x1024xf32> {
  %e = tensor.empty() : tensor<16x2048x1024xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<16x2048x1024xf32>) outs(%e : tensor<16x2048x1024xf32>) -> tensor<16x2048x1024xf32>
  return %r : tensor<16x2048x1024xf32>
}
