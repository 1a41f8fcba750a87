// Bench input sm0: softmax over the leading dim, f32 8192 x 4096
// (linalg.softmax dimension(0), as torch.softmax(x, 0) after torch-mlir).
func.func @sm0(%x: tensor<8192x4096xf32>) -> tensor<8192x4096xf32> {
  %e = tensor.empty() : tensor<8192x4096xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<8192x4096xf32>) outs(%e : tensor<8192x4096xf32>) -> tensor<8192x4096xf32>
  return %r : tensor<8192x4096xf32>
}
