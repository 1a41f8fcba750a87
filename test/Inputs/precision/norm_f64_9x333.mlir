// An f64 row normalization, 9 rows of 333, as scientific
// codes write one: y = |x| / sqrt(mean(x^2) + eps) rounded down to a grid
// of 1/64 (floor), then fma'd with a bias. Every math op stays f64 on the
// GPU (sqrt.rn.f64, abs.f64, cvt.rmi.f64.f64, fma.rn.f64). The f64 sum of
// squares has no fused row kernel yet (64-bit partials are not exchanged
// between threads): a naive kernel, with its remark.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @norm_f64(%x: tensor<9x333xf64>, %b: tensor<333xf64>) -> tensor<9x333xf64> {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<9xf64>
  %f0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<9xf64>) -> tensor<9xf64>
  %ssq = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x333xf64>) outs(%f0 : tensor<9xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %sq = arith.mulf %a, %a : f64
    %s = arith.addf %acc, %sq : f64
    linalg.yield %s : f64
  } -> tensor<9xf64>
  %e1 = tensor.empty() : tensor<9x333xf64>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %b : tensor<9x333xf64>, tensor<9xf64>, tensor<333xf64>) outs(%e1 : tensor<9x333xf64>) {
  ^bb0(%a: f64, %s: f64, %w: f64, %o: f64):
    %n = arith.constant 333.0 : f64
    %eps = arith.constant 1.0e-9 : f64
    %grid = arith.constant 64.0 : f64
    %inv = arith.constant 0.015625 : f64
    %m = arith.divf %s, %n : f64
    %me = arith.addf %m, %eps : f64
    %r = math.sqrt %me : f64
    %ax = math.absf %a : f64
    %xn = arith.divf %ax, %r : f64
    %sc = arith.mulf %xn, %grid : f64
    %fl = math.floor %sc : f64
    %yy = math.fma %fl, %inv, %w : f64
    linalg.yield %yy : f64
  } -> tensor<9x333xf64>
  return %y : tensor<9x333xf64>
}
