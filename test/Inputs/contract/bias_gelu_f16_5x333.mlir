// Contract input: an elementwise group with a broadcast bias over 5 rows of
// 333 f16 (8-element vectors; rows and total both misaligned): chunks
// shifted to the buffers' alignment per row, the bias read lane by lane,
// partial chunks masked.
//   y[r,j] = gelu_tanh(x[r,j] + b[j])

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_gelu_f16_5x333(%x: tensor<5x333xf16>, %b: tensor<333xf16>) -> tensor<5x333xf16> {
  %e = tensor.empty() : tensor<5x333xf16>
  %y = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<5x333xf16>, tensor<333xf16>) outs(%e : tensor<5x333xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %k = arith.constant 0.7978 : f16
    %t = math.tanh %s : f16
    %k2 = arith.mulf %t, %k : f16
    %p = arith.addf %one, %k2 : f16
    %h = arith.mulf %s, %half : f16
    %r = arith.mulf %h, %p : f16
    linalg.yield %r : f16
  } -> tensor<5x333xf16>
  return %y : tensor<5x333xf16>
}
