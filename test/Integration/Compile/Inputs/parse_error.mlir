func.func @broken(%x: tensor<16xf32>) -> tensor<16xf32> {
  return %y : tensor<16xf32>
}
