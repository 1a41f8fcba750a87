// x / sum(x * x) over a whole tensor of 600000 f32 (torch: x / x.pow(2).sum()):
// one row too long for a cluster's registers, so the statistic is split
// into segments (a partial, a second reduction) and the division is a
// full-grid pass of its own.
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func @whole_normalize(%x: tensor<600000xf32>) -> tensor<600000xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<600000xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<600000xf32>
  %y = linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<600000xf32>, tensor<f32>) outs(%e1 : tensor<600000xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %v = arith.divf %a, %t : f32
    linalg.yield %v : f32
  } -> tensor<600000xf32>
  return %y : tensor<600000xf32>
}
