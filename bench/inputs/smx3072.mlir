// Softmax with rows of 3072 elements (derived from examples/w4_softmax.mlir).

func.func @smx3072(%x: tensor<16384x3072xf32>) -> tensor<16384x3072xf32> {
  %e = tensor.empty() : tensor<16384x3072xf32>
  %y = linalg.softmax dimension(1)
         ins(%x : tensor<16384x3072xf32>) outs(%e : tensor<16384x3072xf32>)
         -> tensor<16384x3072xf32>
  return %y : tensor<16384x3072xf32>
}
