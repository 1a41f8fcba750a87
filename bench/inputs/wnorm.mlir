// Bench input wnorm: x / sum(x * x) over a whole 4096 x 4096 f32 tensor
// (the total reduced into a 0-d tensor, read back by every element).
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @wnorm(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4096x4096xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<4096x4096xf32>
  %y = linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4096x4096xf32>, tensor<f32>) outs(%e1 : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %v = arith.divf %a, %t : f32
    linalg.yield %v : f32
  } -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
