// Contract input: RMSNorm over 7 rows of 1003 f32: rows misaligned to the
// 4-element vector and a total size (7021) that is not a multiple of it, so
// the last row's last aligned chunk would reach past the buffer: it is read
// lane by lane, every other chunk with 16-byte accesses.
//   y[r,j] = x[r,j] * rsqrt(mean_j x[r,j]^2 + 1e-6) * g[j]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm_rows_7x1003(%x: tensor<7x1003xf32>, %g: tensor<1003xf32>) -> tensor<7x1003xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<7xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<7xf32>) -> tensor<7xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x1003xf32>) outs(%f0 : tensor<7xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  %e1 = tensor.empty() : tensor<7x1003xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : tensor<7x1003xf32>, tensor<7xf32>, tensor<1003xf32>) outs(%e1 : tensor<7x1003xf32>) {
  ^bb0(%a: f32, %s: f32, %w: f32, %o: f32):
    %n = arith.constant 1003.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %m = arith.divf %s, %n : f32
    %me = arith.addf %m, %eps : f32
    %r = math.rsqrt %me : f32
    %xn = arith.mulf %a, %r : f32
    %yy = arith.mulf %xn, %w : f32
    linalg.yield %yy : f32
  } -> tensor<7x1003xf32>
  return %y : tensor<7x1003xf32>
}
