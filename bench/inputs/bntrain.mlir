// Bench input bntrain: batch-norm training forward NCHW (32, 256, 56, 56)
// f32: batch mean and biased variance over N, H and W (two-pass, as
// frontends write it), normalized with gamma and beta; y, mean and var out.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#id = affine_map<(c) -> (c)>
func.func @bn_train(%x: tensor<32x256x56x56xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> (tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 9.96492546e-06 : f32  // 1/100352
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.generic {indexing_maps = [#x, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<32x256x56x56xf32>) outs(%z : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sum : tensor<256xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %sq = linalg.generic {indexing_maps = [#x, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %mean : tensor<32x256x56x56xf32>, tensor<256xf32>) outs(%z2 : tensor<256xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %var = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sq : tensor<256xf32>) outs(%e2 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %inv : f32
    linalg.yield %v : f32
  } -> tensor<256xf32>
  %eo = tensor.empty() : tensor<32x256x56x56xf32>
  %y = linalg.generic {indexing_maps = [#x, #ch, #ch, #ch, #ch, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %var, %g, %b : tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) outs(%eo : tensor<32x256x56x56xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %gg : f32
    %u = arith.addf %t, %bb : f32
    linalg.yield %u : f32
  } -> tensor<32x256x56x56xf32>
  return %y, %mean, %var : tensor<32x256x56x56xf32>, tensor<256xf32>, tensor<256xf32>
}
