// fills hoisted to the top (as some frontends emit them), a colsum and a rowsum after an elementwise op
#id = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @hoist(%x: tensor<4096x512xf32>, %y: tensor<4096x512xf32>) -> (tensor<512xf32>, tensor<4096x512xf32>) {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<512xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<512xf32>) -> tensor<512xf32>
  %e = tensor.empty() : tensor<4096x512xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4096x512xf32>, tensor<4096x512xf32>) outs(%e : tensor<4096x512xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4096x512xf32>
  %cs = linalg.generic {indexing_maps = [#id, #c], iterator_types = ["reduction", "parallel"]}
      ins(%a : tensor<4096x512xf32>) outs(%fc : tensor<512xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  return %cs, %a : tensor<512xf32>, tensor<4096x512xf32>
}
