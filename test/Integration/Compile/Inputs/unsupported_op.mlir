func.func @slice(%x: tensor<16x8xf32>) -> tensor<16x1xf32> {
  %s = tensor.extract_slice %x[0, 3] [16, 1] [1, 1] : tensor<16x8xf32> to tensor<16x1xf32>
  return %s : tensor<16x1xf32>
}
