// torch-mlir: instance norm over H,W of NCHW with keepdim statistics of shape 2x5x1x1 read
// through (d0,d1,d2,d3)->(d0,d1,0,0); sum of squares form: var = E[x^2] - mean^2.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @instnorm(%x: tensor<2x5x13x17xf32>, %g: tensor<5xf32>) -> tensor<2x5x13x17xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 221.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<2x5x1x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x5x1x1xf32>) -> tensor<2x5x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x5x13x17xf32>) outs(%f1 : tensor<2x5x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x5x1x1xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x5x1x1xf32>) -> tensor<2x5x1x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x5x13x17xf32>) outs(%f2 : tensor<2x5x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x5x1x1xf32>
  %e2 = tensor.empty() : tensor<2x5x13x17xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #keep, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s, %ss, %g : tensor<2x5x13x17xf32>, tensor<2x5x1x1xf32>, tensor<2x5x1x1xf32>, tensor<5xf32>) outs(%e2 : tensor<2x5x13x17xf32>) {
  ^bb0(%a: f32, %sv: f32, %qv: f32, %gv: f32, %o: f32):
    %m = arith.divf %sv, %n : f32
    %q = arith.divf %qv, %n : f32
    %m2 = arith.mulf %m, %m : f32
    %v = arith.subf %q, %m2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  } -> tensor<2x5x13x17xf32>
  return %y : tensor<2x5x13x17xf32>
}
