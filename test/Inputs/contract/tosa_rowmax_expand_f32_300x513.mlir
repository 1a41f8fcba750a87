// tosa-to-linalg reduce_max keepdim: reduce to [N] then expand_shape to [N,1], then x - max
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
#b = affine_map<(d0, d1) -> (d0, 0)>
func.func @rmax(%x: tensor<300x513xf32>) -> tensor<300x513xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<300xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %m = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<300x513xf32>) outs(%f : tensor<300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.maximumf %a, %o : f32
    linalg.yield %q : f32
  } -> tensor<300xf32>
  %k = tensor.expand_shape %m [[0, 1]] output_shape [300, 1] : tensor<300xf32> into tensor<300x1xf32>
  %e2 = tensor.empty() : tensor<300x513xf32>
  %out = linalg.generic {indexing_maps = [#id, #b, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : tensor<300x513xf32>, tensor<300x1xf32>) outs(%e2 : tensor<300x513xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %c : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<300x513xf32>
  return %out : tensor<300x513xf32>
}
