// y = x * 2 (a correct reference for cpu-diff-detects-mismatch.test).
func.func @scale(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %c = arith.constant 2.000000e+00 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y = linalg.mul ins(%x, %f : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}
