// Contract input: column sum as a linalg.generic with the reduction iterator on d0,
// odd shape 333 x 77, fp32.
//   y[j] = sum_i x[i,j]
// Init is linalg.fill of 0.0 on tensor.empty.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @colsum_generic_333x77(%x: tensor<333x77xf32>) -> tensor<77xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<77xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<77xf32>) -> tensor<77xf32>
  %y = linalg.generic {indexing_maps = [#id, #col],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<333x77xf32>) outs(%init : tensor<77xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<77xf32>
  return %y : tensor<77xf32>
}
