// Contract input: column maximum in f16 into an accumulator the caller
// passes (no fill: the whole-column form seeds each column with the old
// value), 7 x 4400, as a linalg.generic. Partials travel between threads in
// f32.
//   y[j] = max(acc[j], max_i x[i,j])

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @colmax_f16_7x4400(%x: tensor<7x4400xf16>, %acc: tensor<4400xf16>) -> tensor<4400xf16> {
  %y = linalg.generic {indexing_maps = [#id, #col],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<7x4400xf16>) outs(%acc : tensor<4400xf16>) {
  ^bb0(%a: f16, %m: f16):
    %r = arith.maximumf %m, %a : f16
    linalg.yield %r : f16
  } -> tensor<4400xf16>
  return %y : tensor<4400xf16>
}
