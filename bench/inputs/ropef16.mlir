// Bench input ropef16: rotary embedding on interleaved pairs in f16 with
// f16 cos/sin tables (head dim 64: 32 pairs), x [8, 1024, 16, 32, 2],
// computed in f32, rounded to f16.
#x0 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 0)>
#x1 = affine_map<(b, s, h, p, c) -> (b, s, h, p, 1)>
#cs = affine_map<(b, s, h, p, c) -> (s, p)>
#id = affine_map<(b, s, h, p, c) -> (b, s, h, p, c)>
func.func @rope_interleaved(%x: tensor<8x1024x16x32x2xf16>, %cos: tensor<1024x32xf16>, %sin: tensor<1024x32xf16>) -> tensor<8x1024x16x32x2xf16> {
  %e = tensor.empty() : tensor<8x1024x16x32x2xf16>
  %r = linalg.generic {indexing_maps = [#x0, #x1, #cs, #cs, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %cos, %sin : tensor<8x1024x16x32x2xf16>, tensor<8x1024x16x32x2xf16>, tensor<1024x32xf16>, tensor<1024x32xf16>) outs(%e : tensor<8x1024x16x32x2xf16>) {
  ^bb0(%a: f16, %b: f16, %ch: f16, %sh: f16, %o: f16):
    %c = arith.extf %ch : f16 to f32
    %s = arith.extf %sh : f16 to f32
    %k = linalg.index 4 : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %k, %c0 : index
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %ac = arith.mulf %af, %c : f32
    %bs = arith.mulf %bf, %s : f32
    %as = arith.mulf %af, %s : f32
    %bc = arith.mulf %bf, %c : f32
    %r0 = arith.subf %ac, %bs : f32
    %r1 = arith.addf %as, %bc : f32
    %sel = arith.select %is0, %r0, %r1 : f32
    %t = arith.truncf %sel : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x1024x16x32x2xf16>
  return %r : tensor<8x1024x16x32x2xf16>
}
