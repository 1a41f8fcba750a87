// A column sum into row 0 of a [4, 128] output filled with 0.5 (a (d0, d1) ->
// (0, d1) map over a dim that is not a unit dim), beside x + x over the same
// rows: the fill is no seed (rows 1-3 keep 0.5) and stays a kernel of its own.
#x2 = affine_map<(d0, d1) -> (d0, d1)>
#k2 = affine_map<(d0, d1) -> (0, d1)>
func.func @partial(%x: tensor<1024x128xf32>) -> (tensor<1024x128xf32>, tensor<4x128xf32>) {
  %zero = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
  %ey = tensor.empty() : tensor<1024x128xf32>
  %y = linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1024x128xf32>) outs(%ey : tensor<1024x128xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.addf %p, %p : f32
    linalg.yield %r : f32
  } -> tensor<1024x128xf32>
  %s = linalg.generic {indexing_maps = [#x2, #k2], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<1024x128xf32>) outs(%f : tensor<4x128xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x128xf32>
  return %y, %s : tensor<1024x128xf32>, tensor<4x128xf32>
}
