// A sum over the two inner dims of 3 x 37 x 1409 f32 (torch.sum(x, (1, 2))): rows of
// 52133 with no divisor giving segments of 4096, split into 37 segments of 1409
// (odd rows: shifted loads), then the 111 partials combined per row.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @rs_inner2_f32_3x37x1409(%x: tensor<3x37x1409xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<3x37x1409xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
