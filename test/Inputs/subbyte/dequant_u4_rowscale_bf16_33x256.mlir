// Unsigned int4 with a zero point (AWQ-style): (uitofp(q) - zp) * scale,
// bf16 output, the weight collapsed from [rows, groups, 32] before it is
// read.
#w = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @dequant_u4(%w: tensor<33x8x32xi4>, %scale: tensor<33xbf16>, %zp: tensor<33xbf16>) -> tensor<33x256xbf16> {
  %c = tensor.collapse_shape %w [[0], [1, 2]] : tensor<33x8x32xi4> into tensor<33x256xi4>
  %e = tensor.empty() : tensor<33x256xbf16>
  %d = linalg.generic {indexing_maps = [#w, #r, #r, #w],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %scale, %zp : tensor<33x256xi4>, tensor<33xbf16>, tensor<33xbf16>) outs(%e : tensor<33x256xbf16>) {
  ^bb0(%q: i4, %sc: bf16, %z: bf16, %o: bf16):
    %f = arith.uitofp %q : i4 to f32
    %sf = arith.extf %sc : bf16 to f32
    %zf = arith.extf %z : bf16 to f32
    %s = arith.subf %f, %zf : f32
    %m = arith.mulf %s, %sf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x256xbf16>
  return %d : tensor<33x256xbf16>
}
