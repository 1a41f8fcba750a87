// Contract input: linalg.softmax on f16, rows of 1000, shape 64 x 1000.
//   y[i,j] = exp(x[i,j] - max_k x[i,k]) / sum_k exp(x[i,k] - max_k x[i,k]), all f16.
// (Upstream's decompose_interface for linalg.softmax emits a max reduction with
//  arith.maxnumf and a NaN init, 0xFE00 for f16, and keeps all arithmetic in f16.)

func.func @softmax_named_f16_64x1000(%x: tensor<64x1000xf16>) -> tensor<64x1000xf16> {
  %e = tensor.empty() : tensor<64x1000xf16>
  %y = linalg.softmax dimension(1)
         ins(%x : tensor<64x1000xf16>) outs(%e : tensor<64x1000xf16>)
         -> tensor<64x1000xf16>
  return %y : tensor<64x1000xf16>
}
