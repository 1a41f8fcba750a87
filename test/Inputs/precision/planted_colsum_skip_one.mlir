// PLANTED ERROR, perturbs colsum_bf16_512x384.mlir: same signature and output
// (bf16 [384], bf16 accumulation, same transposed StableHLO-style generic),
// but the column sums skip the last row. (Written first as
// tensor.extract_slice x[0:511, :], which memopt refuses as outside its input
// contract; so the body keeps the accumulator when the row index, loop dim d1
// here, is 511.)
//   y[j] = sum_{i < 511} x[i,j]
#in_t = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @colsum_bf16_512x384(%x: tensor<512x384xbf16>) -> tensor<384xbf16> {
  %zero = arith.constant 0.000000e+00 : bf16
  %last = arith.constant 511 : index
  %e = tensor.empty() : tensor<384xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<384xbf16>) -> tensor<384xbf16>
  %y = linalg.generic {indexing_maps = [#in_t, #out],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x384xbf16>) outs(%init : tensor<384xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %i = linalg.index 1 : index
    %skip = arith.cmpi eq, %i, %last : index
    %s = arith.addf %a, %acc : bf16
    %r = arith.select %skip, %acc, %s : bf16
    linalg.yield %r : bf16
  } -> tensor<384xbf16>
  return %y : tensor<384xbf16>
}
