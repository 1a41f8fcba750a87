// bf16 sums (f32 accumulation) over the two inner dims of 5 x 29 x 1031:
// rows of 29899 (29 x 1031, both prime) split into 29 segments of 1031.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @rs_inner2_bf16_5x29x1031(%x: tensor<5x29x1031xbf16>) -> tensor<5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<5x29x1031xbf16>) outs(%f : tensor<5xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %y = arith.addf %w, %acc : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}
