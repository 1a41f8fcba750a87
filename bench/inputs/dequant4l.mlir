// Bench input dequant4l: dequant4 (group-wise int4 weight dequantization as
// IREE's dispatches write it) at the size of a Llama-3-8B MLP weight:
// w [14336, 32, 128] signed i4 stored packed (28 MiB), a f16 scale per group
// of 128, out w * scale as [14336, 4096] f16 (112 MiB).
#w = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dequant4l(%w: tensor<14336x32x128xi4>, %scale: tensor<14336x32xf16>) -> tensor<14336x4096xf16> {
  %e = tensor.empty() : tensor<14336x32x128xf16>
  %d = linalg.generic {indexing_maps = [#w, #s, #w],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale : tensor<14336x32x128xi4>, tensor<14336x32xf16>) outs(%e : tensor<14336x32x128xf16>) {
  ^bb0(%q: i4, %sc: f16, %o: f16):
    %f = arith.sitofp %q : i4 to f16
    %r = arith.mulf %f, %sc : f16
    linalg.yield %r : f16
  } -> tensor<14336x32x128xf16>
  %c = tensor.collapse_shape %d [[0], [1, 2]] : tensor<14336x32x128xf16> into tensor<14336x4096xf16>
  return %c : tensor<14336x4096xf16>
}
