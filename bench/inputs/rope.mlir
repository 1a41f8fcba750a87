// Bench input rope: rotary embedding on interleaved pairs (GPT-J / Meta's
// complex form), bf16 x [4, 2048, 32 heads, 64 pairs, 2] with f32 cos/sin
// tables [2048, 64] broadcast over batch and heads, computed in f32 and
// rounded to bf16 (issue 20's fourth class). memopt-widen-records makes
// pairs and fields one loop: 16-byte loads of x and of the tables.
//   out[..., p, 0] = x0 * cos - x1 * sin;  out[..., p, 1] = x0 * sin + x1 * cos
#x0 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 0)>
#x1 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 1)>
#cs = affine_map<(b, s, h, p, c) -> (s, p)>
#id = affine_map<(b, s, h, p, c) -> (b, s, h, p, c)>
func.func @rope_interleaved(%x: tensor<4x2048x32x64x2xbf16>, %cos: tensor<2048x64xf32>, %sin: tensor<2048x64xf32>) -> tensor<4x2048x32x64x2xbf16> {
  %e = tensor.empty() : tensor<4x2048x32x64x2xbf16>
  %r = linalg.generic {indexing_maps = [#x0, #x1, #cs, #cs, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %cos, %sin : tensor<4x2048x32x64x2xbf16>, tensor<4x2048x32x64x2xbf16>, tensor<2048x64xf32>, tensor<2048x64xf32>) outs(%e : tensor<4x2048x32x64x2xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32, %s: f32, %o: bf16):
    %k = linalg.index 4 : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %k, %c0 : index
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %ac = arith.mulf %af, %c : f32
    %bs = arith.mulf %bf, %s : f32
    %as = arith.mulf %af, %s : f32
    %bc = arith.mulf %bf, %c : f32
    %r0 = arith.subf %ac, %bs : f32
    %r1 = arith.addf %as, %bc : f32
    %sel = arith.select %is0, %r0, %r1 : f32
    %t = arith.truncf %sel : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x2048x32x64x2xbf16>
  return %r : tensor<4x2048x32x64x2xbf16>
}
