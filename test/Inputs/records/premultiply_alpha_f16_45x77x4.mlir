// RGBA pixels with alpha premultiplied, f16: each channel scaled by the
// pixel's alpha (field 3), alpha replaced by its complement, written with the field test
// on the fourth loop's index; a per-pixel gain (a [45, 77] table read once
// per pixel) applied too. 77 pixels a row (308 halves: vectors of 4).
#px = affine_map<(y, x, c) -> (y, x, c)>
#al = affine_map<(y, x, c) -> (y, x, 3)>
#gain = affine_map<(y, x, c) -> (y, x)>
func.func @premultiply(%img: tensor<45x77x4xf16>, %g: tensor<45x77xf16>) -> tensor<45x77x4xf16> {
  %e = tensor.empty() : tensor<45x77x4xf16>
  %r = linalg.generic {indexing_maps = [#px, #al, #gain, #px], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%img, %img, %g : tensor<45x77x4xf16>, tensor<45x77x4xf16>, tensor<45x77xf16>) outs(%e : tensor<45x77x4xf16>) {
  ^bb0(%v: f16, %a: f16, %gv: f16, %o: f16):
    %k = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %isa = arith.cmpi eq, %k, %c3 : index
    %m = arith.mulf %v, %a : f16
    %mg = arith.mulf %m, %gv : f16
    %one = arith.constant 1.0 : f16
    %ca = arith.subf %one, %a : f16
    %s = arith.select %isa, %ca, %mg : f16
    linalg.yield %s : f16
  } -> tensor<45x77x4xf16>
  return %r : tensor<45x77x4xf16>
}
