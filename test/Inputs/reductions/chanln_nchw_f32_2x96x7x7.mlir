// ConvNeXt channels_first LayerNorm: NCHW, statistics over C (dim 1) per
// (n, h, w), one-pass sum and sum of squares, weight/bias per channel.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#st = affine_map<(n, c, h, w) -> (n, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @chanln(%x: tensor<2x96x7x7xf32>, %g: tensor<96xf32>, %b: tensor<96xf32>) -> tensor<2x96x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.04166667e-02 : f32
  %eps = arith.constant 1.0e-06 : f32
  %e = tensor.empty() : tensor<2x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
  %s:2 = linalg.generic {indexing_maps = [#x, #st, #st], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%x : tensor<2x96x7x7xf32>) outs(%z, %z : tensor<2x7x7xf32>, tensor<2x7x7xf32>) {
  ^bb0(%a: f32, %acc: f32, %acc2: f32):
    %s1 = arith.addf %acc, %a : f32
    %p = arith.mulf %a, %a : f32
    %s2 = arith.addf %acc2, %p : f32
    linalg.yield %s1, %s2 : f32, f32
  } -> (tensor<2x7x7xf32>, tensor<2x7x7xf32>)
  %eo = tensor.empty() : tensor<2x96x7x7xf32>
  %y = linalg.generic {indexing_maps = [#x, #st, #st, #ch, #ch, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s#0, %s#1, %g, %b : tensor<2x96x7x7xf32>, tensor<2x7x7xf32>, tensor<2x7x7xf32>, tensor<96xf32>, tensor<96xf32>) outs(%eo : tensor<2x96x7x7xf32>) {
  ^bb0(%a: f32, %s0: f32, %q: f32, %gg: f32, %bb: f32, %o: f32):
    %m = arith.mulf %s0, %inv : f32
    %ex2 = arith.mulf %q, %inv : f32
    %m2 = arith.mulf %m, %m : f32
    %v = arith.subf %ex2, %m2 : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %gg : f32
    %u = arith.addf %t, %bb : f32
    linalg.yield %u : f32
  } -> tensor<2x96x7x7xf32>
  return %y : tensor<2x96x7x7xf32>
}
