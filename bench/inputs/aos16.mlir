// A 16-field record array read at two fields (issue 6): 2^24 records of
// 16 f32 (1 GiB as AoS); y = p[:, 2] * p[:, 9]. The SoA minimum is two
// 64 MiB fields read plus a 64 MiB result written.
#f2 = affine_map<(d0) -> (d0, 2)>
#f9 = affine_map<(d0) -> (d0, 9)>
#id = affine_map<(d0) -> (d0)>
func.func @aos16(%p: tensor<16777216x16xf32>) -> tensor<16777216xf32> {
  %e = tensor.empty() : tensor<16777216xf32>
  %y = linalg.generic {indexing_maps = [#f2, #f9, #id], iterator_types = ["parallel"]}
      ins(%p, %p : tensor<16777216x16xf32>, tensor<16777216x16xf32>)
      outs(%e : tensor<16777216xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<16777216xf32>
  return %y : tensor<16777216xf32>
}
