// Bench input rowmaxr: a row max over 16384 x 4096 f32 written IREE-style
// with the reduced loop first ([reduction, parallel], x read as (d1, d0)),
// then exp(x - max): both results returned.
#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowmaxr(%x: tensor<16384x4096xf32>) -> (tensor<16384xf32>, tensor<16384x4096xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16384xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16384xf32>) -> tensor<16384xf32>
  %m = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<16384x4096xf32>) outs(%f : tensor<16384xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16384xf32>
  %e2 = tensor.empty() : tensor<16384x4096xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<16384x4096xf32>, tensor<16384xf32>) outs(%e2 : tensor<16384x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<16384x4096xf32>
  return %m, %c : tensor<16384xf32>, tensor<16384x4096xf32>
}
