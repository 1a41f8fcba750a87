// Fuzz reproducer (seed 6, reduced): an unused 2-D row reduction %dead changes the
// result of an unrelated 3-D RMS normalization over d2 in optimized-host.
// Without %dead the program passes.
func.func @dead_rowmax_breaks_3d_rmsnorm(%a: tensor<64x16xf32>, %x: tensor<64x16x17xf32>)
    -> tensor<64x16x17xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %dead = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<64x16xf32>) outs(%f0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<64x16x17xf32>) outs(%f1 : tensor<64x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %e2 = tensor.empty() : tensor<64x16x17xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss : tensor<64x16x17xf32>, tensor<64x16xf32>) outs(%e2 : tensor<64x16x17xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %c = arith.constant 1.000000e+00 : f32
    %t = arith.addf %s, %c : f32
    %r = math.rsqrt %t : f32
    %n = arith.mulf %v, %r : f32
    linalg.yield %n : f32
  } -> tensor<64x16x17xf32>
  return %y : tensor<64x16x17xf32>
}
