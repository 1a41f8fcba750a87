// RMSNorm over the middle dim of [7, 127, 13] (91 rows: not a multiple of 8) (f16 in/out, f32 sum of
// squares), weight per middle index.
#x = affine_map<(b, d, s) -> (b, d, s)>
#st = affine_map<(b, d, s) -> (b, s)>
#w = affine_map<(b, d, s) -> (d)>
func.func @rms_mid(%x: tensor<7x127x13xf16>, %wt: tensor<127xf16>) -> tensor<7x127x13xf16> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 7.87401575e-03 : f32  // 1/127
  %eps = arith.constant 1.0e-06 : f32
  %e = tensor.empty() : tensor<7x13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x13xf32>) -> tensor<7x13xf32>
  %sq = linalg.generic {indexing_maps = [#x, #st], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<7x127x13xf16>) outs(%z : tensor<7x13xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %f = arith.extf %a : f16 to f32
    %p = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<7x13xf32>
  %eo = tensor.empty() : tensor<7x127x13xf16>
  %y = linalg.generic {indexing_maps = [#x, #st, #w, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sq, %wt : tensor<7x127x13xf16>, tensor<7x13xf32>, tensor<127xf16>) outs(%eo : tensor<7x127x13xf16>) {
  ^bb0(%a: f16, %q: f32, %ww: f16, %o: f16):
    %f = arith.extf %a : f16 to f32
    %wf = arith.extf %ww : f16 to f32
    %ms = arith.mulf %q, %inv : f32
    %me = arith.addf %ms, %eps : f32
    %r = math.rsqrt %me : f32
    %n = arith.mulf %f, %r : f32
    %t = arith.mulf %n, %wf : f32
    %tb = arith.truncf %t : f32 to f16
    linalg.yield %tb : f16
  } -> tensor<7x127x13xf16>
  return %y : tensor<7x127x13xf16>
}
