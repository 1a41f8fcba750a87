// torch.var(x, dim=1, unbiased) over the middle dim of [B, S, D] f32, two-pass (mean then sq dev)
#id = affine_map<(b, s, d) -> (b, s, d)>
#r = affine_map<(b, s, d) -> (b, d)>
func.func @var_mid(%x: tensor<16x777x256xf32>) -> tensor<16x256xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 777.0 : f32
  %n1 = arith.constant 776.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %s = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<16x777x256xf32>) outs(%f : tensor<16x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.addf %a, %o : f32
    linalg.yield %q : f32
  } -> tensor<16x256xf32>
  %v = linalg.generic {indexing_maps = [#id, #r, #r], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %s : tensor<16x777x256xf32>, tensor<16x256xf32>) outs(%f : tensor<16x256xf32>) {
  ^bb0(%a: f32, %sm: f32, %o: f32):
    %mu = arith.divf %sm, %n : f32
    %c = arith.subf %a, %mu : f32
    %c2 = arith.mulf %c, %c : f32
    %q = arith.addf %c2, %o : f32
    linalg.yield %q : f32
  } -> tensor<16x256xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(b, d) -> (b, d)>, affine_map<(b, d) -> (b, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.divf %a, %n1 : f32
    linalg.yield %q : f32
  } -> tensor<16x256xf32>
  return %out : tensor<16x256xf32>
}
