// Small-shape copy of examples/w3_rmsnorm.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W3: RMSNorm over rows with a per-column gain, fp32.
//
// What it computes:
//   ms[i]  = sum_j x[i,j]^2 / 4096
//   y[i,j] = x[i,j] * rsqrt(ms[i] + 1e-6) * g[j]
// The sum of squares is a linalg.generic reduction over d1 with a zero init from
// linalg.fill; the normalization is one elementwise generic reading the row statistic
// through (d0, d1) -> (d0) and the gain through (d0, d1) -> (d1).
//
// Minimum bytes (each input read once, each output written once):
//   x and y are 16384 x 4096 floats, 268,435,456 bytes each; g is 4096 floats, 16,384 bytes.
//   Total 2 * 268,435,456 + 16,384 = 536,887,296 bytes (~512 MiB).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @w3(%x: tensor<64x256xf32>, %g: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%f0 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ssq : tensor<64xf32>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %ms = arith.divf %in, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    linalg.yield %rs : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<64x256xf32>, tensor<64xf32>, tensor<256xf32>)
      outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %rs: f32, %gv: f32, %out: f32):
    %n = arith.mulf %a, %rs : f32
    %o = arith.mulf %n, %gv : f32
    linalg.yield %o : f32
  } -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
