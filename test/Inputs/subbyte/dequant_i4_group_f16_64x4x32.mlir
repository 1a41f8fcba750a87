// Group-wise int4 dequantization as IREE writes it: w (signed i4, two per
// byte) times a per-group f16 scale, groups of 32 along the last dim.
#w = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dequant(%w: tensor<64x4x32xi4>, %scale: tensor<64x4xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x4x32xf16>
  %d = linalg.generic {indexing_maps = [#w, #s, #w],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale : tensor<64x4x32xi4>, tensor<64x4xf16>) outs(%e : tensor<64x4x32xf16>) {
  ^bb0(%q: i4, %sc: f16, %o: f16):
    %f = arith.sitofp %q : i4 to f16
    %r = arith.mulf %f, %sc : f16
    linalg.yield %r : f16
  } -> tensor<64x4x32xf16>
  %c = tensor.collapse_shape %d [[0], [1, 2]] : tensor<64x4x32xf16> into tensor<64x128xf16>
  return %c : tensor<64x128xf16>
}
