// Bench input l2n1: F.normalize(x, p=2, dim=1) on (63, 256, 1001) f32:
// x / max(||x||_2 over dim 1, eps); 63063 columns side by side, not a
// multiple of 8.
#x = affine_map<(a, b, c) -> (a, b, c)>
#st = affine_map<(a, b, c) -> (a, c)>
func.func @l2norm(%x: tensor<63x256x1001xf32>) -> tensor<63x256x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-12 : f32
  %e = tensor.empty() : tensor<63x1001xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<63x1001xf32>) -> tensor<63x1001xf32>
  %sq = linalg.generic {indexing_maps = [#x, #st], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<63x256x1001xf32>) outs(%z : tensor<63x1001xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<63x1001xf32>
  %eo = tensor.empty() : tensor<63x256x1001xf32>
  %y = linalg.generic {indexing_maps = [#x, #st, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sq : tensor<63x256x1001xf32>, tensor<63x1001xf32>) outs(%eo : tensor<63x256x1001xf32>) {
  ^bb0(%a: f32, %q: f32, %o: f32):
    %n = math.sqrt %q : f32
    %d = arith.maximumf %n, %eps : f32
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<63x256x1001xf32>
  return %y : tensor<63x256x1001xf32>
}
