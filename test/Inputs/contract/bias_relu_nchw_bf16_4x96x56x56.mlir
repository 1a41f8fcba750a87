// conv bias + relu on NCHW: bias broadcast over dims 0, 2, 3 (middle-dim broadcast), bf16
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c = affine_map<(n, c, h, w) -> (c)>
func.func @bias_relu(%x: tensor<4x96x56x56xbf16>, %b: tensor<96xbf16>) -> tensor<4x96x56x56xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x96x56x56xbf16>
  %o = linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<4x96x56x56xbf16>, tensor<96xbf16>) outs(%e : tensor<4x96x56x56xbf16>) {
  ^bb0(%a: bf16, %bb: bf16, %oo: bf16):
    %s = arith.addf %a, %bb : bf16
    %r = arith.maximumf %s, %z : bf16
    linalg.yield %r : bf16
  } -> tensor<4x96x56x56xbf16>
  return %o : tensor<4x96x56x56xbf16>
}
