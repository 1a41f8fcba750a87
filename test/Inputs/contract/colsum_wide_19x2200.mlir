// Contract input: column sum of a matrix wide enough for the whole-column
// form (every multiprocessor gets a slice of columns; the last slice is
// partial), 19 rows (fewer than one unrolled step of rows), fp32. The fill
// of the output is absorbed into the reduction kernel.
//   y[j] = sum_i x[i,j] * x[i,j]

func.func @colsum_wide_19x2200(%x: tensor<19x2200xf32>) -> tensor<2200xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2200xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2200xf32>) -> tensor<2200xf32>
  %y = linalg.reduce ins(%x : tensor<19x2200xf32>) outs(%init : tensor<2200xf32>)
         dimensions = [0]
    (%in: f32, %acc: f32) {
      %sq = arith.mulf %in, %in : f32
      %s = arith.addf %sq, %acc : f32
      linalg.yield %s : f32
    }
  return %y : tensor<2200xf32>
}
