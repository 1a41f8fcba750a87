// Small-shape copy of examples/w8_rmsnorm_quant.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W8: RMSNorm followed by per-row symmetric int8 absmax quantization.
//
// What it computes (fp32 arithmetic, int8 + fp32 outputs):
//   n[i,j]   = x[i,j] * rsqrt(sum_j x[i,j]^2 / 4096 + 1e-6) * g[j]     (RMSNorm as in W3)
//   scale[i] = max_j |n[i,j]| / 127
//   q[i,j]   = int8(clamp(roundeven(n[i,j] / scale[i]), -127, 127))
// roundeven is round-half-to-even (math.roundeven); the clamp uses arith.maximumf /
// arith.minimumf and the conversion arith.fptosi to i8. The absmax is a reduction with a
// 0.0 init from linalg.fill (|n| >= 0, so 0 is the identity). A row that is all zeros
// gives scale 0 and 0/0 = NaN before the clamp; that edge case is left as written.
//
// Minimum bytes (each input read once, each output written once):
//   x is 16384 x 4096 floats = 268,435,456 bytes; g is 4096 floats = 16,384 bytes;
//   q is 16384 x 4096 int8 = 67,108,864 bytes; scale is 16384 floats = 65,536 bytes.
//   Total 335,626,240 bytes (~320 MiB). n is an intermediate and need not touch memory.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @w8(%x: tensor<64x256xf32>, %g: tensor<256xf32>)
    -> (tensor<64x256xi8>, tensor<64xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  // RMSNorm statistics
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
  // n = x * rstd * g
  %e2 = tensor.empty() : tensor<64x256xf32>
  %nrm = linalg.generic {indexing_maps = [#id2, #row, #col, #id2],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<64x256xf32>, tensor<64xf32>, tensor<256xf32>)
      outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %rs: f32, %gv: f32, %out: f32):
    %n = arith.mulf %a, %rs : f32
    %o = arith.mulf %n, %gv : f32
    linalg.yield %o : f32
  } -> tensor<64x256xf32>
  // absmax over the row
  %e3 = tensor.empty() : tensor<64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %amax = linalg.generic {indexing_maps = [#id2, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%nrm : tensor<64x256xf32>) outs(%f3 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %abs = math.absf %a : f32
    %m = arith.maximumf %abs, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  // scale = absmax / 127
  %e4 = tensor.empty() : tensor<64xf32>
  %scale = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%amax : tensor<64xf32>) outs(%e4 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c127 = arith.constant 1.270000e+02 : f32
    %sc = arith.divf %in, %c127 : f32
    linalg.yield %sc : f32
  } -> tensor<64xf32>
  // q = int8(clamp(roundeven(n / scale), -127, 127))
  %e5 = tensor.empty() : tensor<64x256xi8>
  %q = linalg.generic {indexing_maps = [#id2, #row, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%nrm, %scale : tensor<64x256xf32>, tensor<64xf32>)
      outs(%e5 : tensor<64x256xi8>) {
  ^bb0(%a: f32, %sc: f32, %out: i8):
    %lo = arith.constant -1.270000e+02 : f32
    %hi = arith.constant 1.270000e+02 : f32
    %d = arith.divf %a, %sc : f32
    %rd = math.roundeven %d : f32
    %c0 = arith.maximumf %rd, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %i = arith.fptosi %c1 : f32 to i8
    linalg.yield %i : i8
  } -> tensor<64x256xi8>
  return %q, %scale : tensor<64x256xi8>, tensor<64xf32>
}
