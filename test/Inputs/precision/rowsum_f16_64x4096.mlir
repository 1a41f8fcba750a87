// Low-precision accumulation: row sums of an f16 64 x 4096 input, accumulated in
// f16 (the fill, the accumulator and the reduction body are all f16), written as
// the named linalg.reduce that StableHLO/torch lowerings produce for x.sum(-1)
// when the accumulator type is left at the input type.
//   y[i] = sum_j x[i,j]   (f16 adds, left to right in the literal reference)
func.func @rowsum_f16_64x4096(%x: tensor<64x4096xf16>) -> tensor<64xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %y = linalg.reduce ins(%x : tensor<64x4096xf16>) outs(%init : tensor<64xf16>)
         dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %y : tensor<64xf16>
}
