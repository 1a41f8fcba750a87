// Contract input: f16 transpose as the named linalg.transpose, fused with a
// scale, 100 x 200 (no multiple of the 32x32 tile). 2-byte elements share
// shared-memory words: the column read of an unpadded tile is 16-way.
//   y[i,j] = 2 * x[j,i]    x: 100 x 200  ->  y: 200 x 100

func.func @transpose_f16_named_100x200(%x: tensor<100x200xf16>) -> tensor<200x100xf16> {
  %e = tensor.empty() : tensor<200x100xf16>
  %t = linalg.transpose ins(%x : tensor<100x200xf16>) outs(%e : tensor<200x100xf16>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<200x100xf16>
  %y = linalg.map { arith.addf } ins(%t, %t : tensor<200x100xf16>, tensor<200x100xf16>) outs(%e2 : tensor<200x100xf16>)
  return %y : tensor<200x100xf16>
}
