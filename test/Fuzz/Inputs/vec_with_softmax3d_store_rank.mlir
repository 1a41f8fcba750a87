// Fuzz reproducer: a 1-D pointwise op whose length equals the leading dimension of a
// 3-D softmax input. optimized / optimized-host fail with an internal verifier error:
//   error: 'memref.store' op store index operand count not equal to memref rank
func.func @vec_with_softmax3d(%v: tensor<4xf32>, %x: tensor<4x8x100xf32>)
    -> (tensor<4xf32>, tensor<4x8x100xf32>) {
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.abs ins(%v : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x8x100xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<4x8x100xf32>)
         outs(%e1 : tensor<4x8x100xf32>) -> tensor<4x8x100xf32>
  return %a, %s : tensor<4xf32>, tensor<4x8x100xf32>
}
