// LayerNorm computed entirely in f16 (no upcast), 3-D [B,S,D] with gamma/beta, keepdim maps
#id = affine_map<(b, s, d) -> (b, s, d)>
#k = affine_map<(b, s, d) -> (b, s, 0)>
#g = affine_map<(b, s, d) -> (d)>
func.func @ln16(%x: tensor<4x129x768xf16>, %gm: tensor<768xf16>, %bt: tensor<768xf16>) -> tensor<4x129x768xf16> {
  %z = arith.constant 0.0 : f16
  %n = arith.constant 768.0 : f16
  %eps = arith.constant 1.0e-5 : f16
  %e = tensor.empty() : tensor<4x129x1xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x129x1xf16>) -> tensor<4x129x1xf16>
  %s = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<4x129x768xf16>) outs(%f : tensor<4x129x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %q = arith.addf %a, %o : f16
    linalg.yield %q : f16
  } -> tensor<4x129x1xf16>
  %v = linalg.generic {indexing_maps = [#id, #k, #k], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %s : tensor<4x129x768xf16>, tensor<4x129x1xf16>) outs(%f : tensor<4x129x1xf16>) {
  ^bb0(%a: f16, %sm: f16, %o: f16):
    %mu = arith.divf %sm, %n : f16
    %c = arith.subf %a, %mu : f16
    %c2 = arith.mulf %c, %c : f16
    %q = arith.addf %c2, %o : f16
    linalg.yield %q : f16
  } -> tensor<4x129x1xf16>
  %e3 = tensor.empty() : tensor<4x129x768xf16>
  %y = linalg.generic {indexing_maps = [#id, #k, #k, #g, #g, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s, %v, %gm, %bt : tensor<4x129x768xf16>, tensor<4x129x1xf16>, tensor<4x129x1xf16>, tensor<768xf16>, tensor<768xf16>) outs(%e3 : tensor<4x129x768xf16>) {
  ^bb0(%a: f16, %sm: f16, %sq: f16, %ga: f16, %be: f16, %o: f16):
    %mu = arith.divf %sm, %n : f16
    %var = arith.divf %sq, %n : f16
    %ve = arith.addf %var, %eps : f16
    %rs = math.rsqrt %ve : f16
    %c = arith.subf %a, %mu : f16
    %nn = arith.mulf %c, %rs : f16
    %sc = arith.mulf %nn, %ga : f16
    %r = arith.addf %sc, %be : f16
    linalg.yield %r : f16
  } -> tensor<4x129x768xf16>
  return %y : tensor<4x129x768xf16>
}
