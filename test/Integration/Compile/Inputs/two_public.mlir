func.func @a(%x: tensor<16xf32>) -> tensor<16xf32> {
  return %x : tensor<16xf32>
}
func.func @b(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
