// Batch-norm training forward NCHW: mean and biased var over N, H, W
// (two-pass), normalize, and return the batch mean and var as well.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#id = affine_map<(c) -> (c)>
func.func @bn_train(%x: tensor<3x7x11x13xf32>, %g: tensor<7xf32>, %b: tensor<7xf32>) -> (tensor<3x7x11x13xf32>, tensor<7xf32>, tensor<7xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 2.33100233e-03 : f32  // 1/429
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %sum = linalg.generic {indexing_maps = [#x, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<3x7x11x13xf32>) outs(%z : tensor<7xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  %e1 = tensor.empty() : tensor<7xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sum : tensor<7xf32>) outs(%e1 : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<7xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %sq = linalg.generic {indexing_maps = [#x, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %mean : tensor<3x7x11x13xf32>, tensor<7xf32>) outs(%z2 : tensor<7xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  %e2 = tensor.empty() : tensor<7xf32>
  %var = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sq : tensor<7xf32>) outs(%e2 : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %inv : f32
    linalg.yield %v : f32
  } -> tensor<7xf32>
  %eo = tensor.empty() : tensor<3x7x11x13xf32>
  %y = linalg.generic {indexing_maps = [#x, #ch, #ch, #ch, #ch, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %var, %g, %b : tensor<3x7x11x13xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) outs(%eo : tensor<3x7x11x13xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %gg : f32
    %u = arith.addf %t, %bb : f32
    linalg.yield %u : f32
  } -> tensor<3x7x11x13xf32>
  return %y, %mean, %var : tensor<3x7x11x13xf32>, tensor<7xf32>, tensor<7xf32>
}
