// The unsigned dequantization by hand on the bytes: nibble h of byte b is
// (b >> 4h) & 15, with b zero-extended.
#w = affine_map<(d0, d1, d2) -> (d0, d1)>
#r = affine_map<(d0, d1, d2) -> (d0)>
#o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @dequant_u4(%w: tensor<33x8x16xi8>, %scale: tensor<33xbf16>, %zp: tensor<33xbf16>) -> tensor<33x256xbf16> {
  %c = tensor.collapse_shape %w [[0], [1, 2]] : tensor<33x8x16xi8> into tensor<33x128xi8>
  %e = tensor.empty() : tensor<33x128x2xbf16>
  %d = linalg.generic {indexing_maps = [#w, #r, #r, #o],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %scale, %zp : tensor<33x128xi8>, tensor<33xbf16>, tensor<33xbf16>) outs(%e : tensor<33x128x2xbf16>) {
  ^bb0(%b: i8, %sc: bf16, %z: bf16, %o: bf16):
    %h = linalg.index 2 : index
    %h32 = arith.index_cast %h : index to i32
    %c4 = arith.constant 4 : i32
    %c15 = arith.constant 15 : i32
    %bz = arith.extui %b : i8 to i32
    %sh = arith.muli %h32, %c4 : i32
    %x = arith.shrui %bz, %sh : i32
    %n = arith.andi %x, %c15 : i32
    %f = arith.uitofp %n : i32 to f32
    %sf = arith.extf %sc : bf16 to f32
    %zf = arith.extf %z : bf16 to f32
    %s = arith.subf %f, %zf : f32
    %m = arith.mulf %s, %sf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x128x2xbf16>
  %r2 = tensor.collapse_shape %d [[0], [1, 2]] : tensor<33x128x2xbf16> into tensor<33x256xbf16>
  return %r2 : tensor<33x256xbf16>
}
