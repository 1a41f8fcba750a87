// Bench input dequantu4: AWQ-style unsigned int4 weights with a zero point,
// (uitofp(q) - zp) * scale in f32 rounded to bf16, a scale and zero point per
// group of 128 along the rows of a [4096, 14336] weight (stored packed, two to
// a byte: 28 MiB; 112 MiB out).
#w = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dequantu4(%w: tensor<4096x112x128xi4>, %scale: tensor<4096x112xbf16>, %zp: tensor<4096x112xbf16>) -> tensor<4096x14336xbf16> {
  %e = tensor.empty() : tensor<4096x112x128xbf16>
  %d = linalg.generic {indexing_maps = [#w, #s, #s, #w],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale, %zp : tensor<4096x112x128xi4>, tensor<4096x112xbf16>, tensor<4096x112xbf16>) outs(%e : tensor<4096x112x128xbf16>) {
  ^bb0(%q: i4, %sc: bf16, %z: bf16, %o: bf16):
    %f = arith.uitofp %q : i4 to f32
    %sf = arith.extf %sc : bf16 to f32
    %zf = arith.extf %z : bf16 to f32
    %s = arith.subf %f, %zf : f32
    %m = arith.mulf %s, %sf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4096x112x128xbf16>
  %c = tensor.collapse_shape %d [[0], [1, 2]] : tensor<4096x112x128xbf16> into tensor<4096x14336xbf16>
  return %c : tensor<4096x14336xbf16>
}
