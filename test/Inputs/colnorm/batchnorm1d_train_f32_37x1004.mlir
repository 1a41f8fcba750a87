// BatchNorm1d training forward over a [N, C] batch, f32: mean and biased
// variance over the batch dim per channel, then (x - mean) * rsqrt(var +
// eps) * gamma[c] + beta[c]; the mean and the variance are results too.
// Interchanged, the channels are the rows side by side: gamma and beta are
// read once per row (along the rows' contiguous dim, not the row's), the
// statistics are row scalars, and 1004 channels leave the last block of 32
// rows partly empty (1004 is a multiple of 4: rows go four to a thread).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bn1d(%x: tensor<37x1004xf32>, %g: tensor<1004xf32>, %b: tensor<1004xf32>)
    -> (tensor<37x1004xf32>, tensor<1004xf32>, tensor<1004xf32>) {
  %zero = arith.constant 0.0 : f32
  %invn = arith.constant 0.0270270277 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<1004xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1004xf32>) -> tensor<1004xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<37x1004xf32>) outs(%z : tensor<1004xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1004xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<1004xf32>) outs(%e : tensor<1004xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.mulf %s, %invn : f32
    linalg.yield %m : f32
  } -> tensor<1004xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x, %mean : tensor<37x1004xf32>, tensor<1004xf32>) outs(%z : tensor<1004xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %c = arith.subf %a, %m : f32
    %q = arith.mulf %c, %c : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<1004xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<1004xf32>) outs(%e : tensor<1004xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.mulf %s, %invn : f32
    linalg.yield %v : f32
  } -> tensor<1004xf32>
  %e2 = tensor.empty() : tensor<37x1004xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #col, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %var, %g, %b : tensor<37x1004xf32>, tensor<1004xf32>, tensor<1004xf32>, tensor<1004xf32>, tensor<1004xf32>) outs(%e2 : tensor<37x1004xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %gv: f32, %bv: f32, %o: f32):
    %c = arith.subf %a, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %c, %r : f32
    %s = arith.mulf %n, %gv : f32
    %t = arith.addf %s, %bv : f32
    linalg.yield %t : f32
  } -> tensor<37x1004xf32>
  return %y, %mean, %var : tensor<37x1004xf32>, tensor<1004xf32>, tensor<1004xf32>
}
