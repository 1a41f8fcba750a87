// The same dequantization written by hand on the packed bytes, an
// independent reading of the layout: element 2b + h of a group row is the
// low (h = 0) or high (h = 1) nibble of byte b, as a signed 4-bit value
// (here: shift the nibble to the top of an i8, then shift back arithmetically).
#w = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @dequant(%w: tensor<64x4x16xi8>, %scale: tensor<64x4xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x4x16x2xf16>
  %d = linalg.generic {indexing_maps = [#w, #s, #o],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w, %scale : tensor<64x4x16xi8>, tensor<64x4xf16>) outs(%e : tensor<64x4x16x2xf16>) {
  ^bb0(%b: i8, %sc: f16, %o: f16):
    %h = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : i8
    %isHigh = arith.cmpi ne, %h, %c0 : index
    %up = arith.shli %b, %c4 : i8
    %top = arith.select %isHigh, %b, %up : i8
    %v = arith.shrsi %top, %c4 : i8
    %f = arith.sitofp %v : i8 to f16
    %r = arith.mulf %f, %sc : f16
    linalg.yield %r : f16
  } -> tensor<64x4x16x2xf16>
  %c = tensor.collapse_shape %d [[0], [1, 2, 3]] : tensor<64x4x16x2xf16> into tensor<64x128xf16>
  return %c : tensor<64x128xf16>
}
