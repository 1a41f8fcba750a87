func.func @gather(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) -> tensor<4x8xf32> {
  %g = tensor.gather %x[%i] gather_dims([0]) : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
