// attention probabilities: softmax(where(mask, s * scale, -inf)) with an i1 mask [S, S] broadcast over [B, H], bf16
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#m = affine_map<(b, h, i, j) -> (i, j)>
#r = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @attn(%s: tensor<2x4x256x256xbf16>, %mask: tensor<256x256xi1>) -> tensor<2x4x256x256xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x4x256x256xf32>
  %sc = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x256x256xbf16>, tensor<256x256xi1>) outs(%e : tensor<2x4x256x256xf32>) {
  ^bb0(%a: bf16, %k: i1, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %q = arith.mulf %w, %scale : f32
    %v = arith.select %k, %q, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<2x4x256x256xf32>
  %e1 = tensor.empty() : tensor<2x4x256xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %mx = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x4x256x256xf32>) outs(%f1 : tensor<2x4x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<2x4x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %sm = linalg.generic {indexing_maps = [#id, #r, #r], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sc, %mx : tensor<2x4x256x256xf32>, tensor<2x4x256xf32>) outs(%f2 : tensor<2x4x256xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    %v = arith.addf %x, %o : f32
    linalg.yield %v : f32
  } -> tensor<2x4x256xf32>
  %e3 = tensor.empty() : tensor<2x4x256x256xbf16>
  %y = linalg.generic {indexing_maps = [#id, #r, #r, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc, %mx, %sm : tensor<2x4x256x256xf32>, tensor<2x4x256xf32>, tensor<2x4x256xf32>) outs(%e3 : tensor<2x4x256x256xbf16>) {
  ^bb0(%a: f32, %m: f32, %ss: f32, %o: bf16):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    %q = arith.divf %x, %ss : f32
    %t = arith.truncf %q : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x4x256x256xbf16>
  return %y : tensor<2x4x256x256xbf16>
}
