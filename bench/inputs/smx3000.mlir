// Softmax with rows of 3000 elements (derived from examples/w4_softmax.mlir).

func.func @smx3000(%x: tensor<16384x3000xf32>) -> tensor<16384x3000xf32> {
  %e = tensor.empty() : tensor<16384x3000xf32>
  %y = linalg.softmax dimension(1)
         ins(%x : tensor<16384x3000xf32>) outs(%e : tensor<16384x3000xf32>)
         -> tensor<16384x3000xf32>
  return %y : tensor<16384x3000xf32>
}
