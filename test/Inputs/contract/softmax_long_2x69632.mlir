// Contract input: softmax over rows of 69632 f32 elements (272 KiB), too
// long to keep in registers: the row kernel streams the row in tiles, one
// pass per reduction (max, sum) and one for the output, and
// memopt-pipeline-loads prefetches the tiles with cp.async.
func.func @softmax_long_2x69632(%x: tensor<2x69632xf32>) -> tensor<2x69632xf32> {
  %e = tensor.empty() : tensor<2x69632xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x69632xf32>) outs(%e : tensor<2x69632xf32>) -> tensor<2x69632xf32>
  return %y : tensor<2x69632xf32>
}
