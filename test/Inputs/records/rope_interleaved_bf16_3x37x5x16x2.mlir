// Rotary embedding on interleaved pairs (GPT-J / Meta's complex form), as a
// frontend writes it after viewing the head dim as [pairs, 2]: one generic
// over [b, s, h, pair, field] reading x at fields 0 and 1 of each pair and
// f32 cos/sin tables per (position, pair), selecting the field's formula
// by linalg.index, rounding to bf16.
//   out[..., p, 0] = x0 * cos - x1 * sin;  out[..., p, 1] = x0 * sin + x1 * cos
#x0 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 0)>
#x1 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 1)>
#cs = affine_map<(b, s, h, p, c) -> (s, p)>
#id = affine_map<(b, s, h, p, c) -> (b, s, h, p, c)>
func.func @rope_interleaved(%x: tensor<3x37x5x16x2xbf16>, %cos: tensor<37x16xf32>, %sin: tensor<37x16xf32>) -> tensor<3x37x5x16x2xbf16> {
  %e = tensor.empty() : tensor<3x37x5x16x2xbf16>
  %r = linalg.generic {indexing_maps = [#x0, #x1, #cs, #cs, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %cos, %sin : tensor<3x37x5x16x2xbf16>, tensor<3x37x5x16x2xbf16>, tensor<37x16xf32>, tensor<37x16xf32>) outs(%e : tensor<3x37x5x16x2xbf16>) {
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
  } -> tensor<3x37x5x16x2xbf16>
  return %r : tensor<3x37x5x16x2xbf16>
}
