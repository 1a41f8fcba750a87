// Weighted statistics over the middle dim of an f16 tensor [batch, t, h, w]
// with f32 accumulation: sum_t x * w[h, w] and sum_t x^2 as one two-result
// generic, the weight broadcast over batch and t. The inner points (3 x 43
// = 129 per row) are not a multiple of the vector: x is read in shifted
// aligned chunks, the broadcast weight lane by lane; every batch and row
// starts at a different alignment.
#x = affine_map<(b, t, h, w) -> (b, t, h, w)>
#g = affine_map<(b, t, h, w) -> (h, w)>
#o = affine_map<(b, t, h, w) -> (b, h, w)>
func.func @wstats(%x: tensor<5x37x3x43xf16>, %g: tensor<3x43xf16>) -> (tensor<5x3x43xf32>, tensor<5x3x43xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3x43xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3x43xf32>) -> tensor<5x3x43xf32>
  %s:2 = linalg.generic {indexing_maps = [#x, #g, #o, #o], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%x, %g : tensor<5x37x3x43xf16>, tensor<3x43xf16>) outs(%f, %f : tensor<5x3x43xf32>, tensor<5x3x43xf32>) {
  ^bb0(%a: f16, %w: f16, %acc: f32, %sq: f32):
    %xa = arith.extf %a : f16 to f32
    %wa = arith.extf %w : f16 to f32
    %p = arith.mulf %xa, %wa : f32
    %y = arith.addf %acc, %p : f32
    %q = arith.mulf %xa, %xa : f32
    %z = arith.addf %sq, %q : f32
    linalg.yield %y, %z : f32, f32
  } -> (tensor<5x3x43xf32>, tensor<5x3x43xf32>)
  return %s#0, %s#1 : tensor<5x3x43xf32>, tensor<5x3x43xf32>
}
