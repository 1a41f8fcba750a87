// Small-shape copy of examples/w2_layernorm.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W2: LayerNorm over rows of a residual sum, fp32.
//
// What it computes:
//   h[i,j]  = x[i,j] + r[i,j]
//   mean[i] = sum_j h[i,j] / 4096
//   var[i]  = sum_j (h[i,j] - mean[i])^2 / 4096          (two-pass, as frontends emit it)
//   y[i,j]  = (h[i,j] - mean[i]) * rsqrt(var[i] + 1e-5) * g[j] + b[j]
// Row sums are linalg.reduce over dimension 1 with a zero init from linalg.fill; the row
// statistics are broadcast back with linalg.generic maps (d0, d1) -> (d0).
//
// Minimum bytes (each input read once, each output written once):
//   x, r and y are 16384 x 4096 floats, 268,435,456 bytes each; g and b are 4096 floats,
//   16,384 bytes each. Total 3 * 268,435,456 + 2 * 16,384 = 805,339,136 bytes (~768 MiB).
//   (h, mean and var are intermediates and need not touch memory.)

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @w2(%x: tensor<64x256xf32>, %r: tensor<64x256xf32>,
              %g: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  // h = x + r
  %e0 = tensor.empty() : tensor<64x256xf32>
  %h = linalg.add ins(%x, %r : tensor<64x256xf32>, tensor<64x256xf32>)
         outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  // sum over the row
  %e1 = tensor.empty() : tensor<64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%h : tensor<64x256xf32>) outs(%f1 : tensor<64xf32>)
           dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // mean = sum / 4096
  %e2 = tensor.empty() : tensor<64xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 2.560000e+02 : f32
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  // centered = h - mean
  %e3 = tensor.empty() : tensor<64x256xf32>
  %c = linalg.generic {indexing_maps = [#id2, #row, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %mean : tensor<64x256xf32>, tensor<64xf32>)
      outs(%e3 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  // sum of squares of centered over the row
  %e4 = tensor.empty() : tensor<64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<64x256xf32>) outs(%f4 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  // rstd = rsqrt(ssq / 4096 + eps)
  %e5 = tensor.empty() : tensor<64xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ssq : tensor<64xf32>) outs(%e5 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 2.560000e+02 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    linalg.yield %rs : f32
  } -> tensor<64xf32>
  // y = centered * rstd * g + b
  %e6 = tensor.empty() : tensor<64x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %rstd, %g, %b : tensor<64x256xf32>, tensor<64xf32>,
                              tensor<256xf32>, tensor<256xf32>)
      outs(%e6 : tensor<64x256xf32>) {
  ^bb0(%cv: f32, %rs: f32, %gv: f32, %bv: f32, %out: f32):
    %n = arith.mulf %cv, %rs : f32
    %ng = arith.mulf %n, %gv : f32
    %o = arith.addf %ng, %bv : f32
    linalg.yield %o : f32
  } -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
