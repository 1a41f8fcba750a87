// Low-precision accumulation: column sums of a bf16 512 x 384 input over the
// 512 rows (reduction over the OUTER dim), accumulated in bf16. Written as
// StableHLO-to-linalg emits a reduce: parallel dims first, the reduced dim
// last, so the input map is transposed, (d0, d1) -> (d1, d0).
//   y[j] = sum_i x[i,j]   (bf16 adds)
#in_t = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @colsum_bf16_512x384(%x: tensor<512x384xbf16>) -> tensor<384xbf16> {
  %zero = arith.constant 0.000000e+00 : bf16
  %e = tensor.empty() : tensor<384xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<384xbf16>) -> tensor<384xbf16>
  %y = linalg.generic {indexing_maps = [#in_t, #out],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x384xbf16>) outs(%init : tensor<384xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %s = arith.addf %a, %acc : bf16
    linalg.yield %s : bf16
  } -> tensor<384xbf16>
  return %y : tensor<384xbf16>
}
