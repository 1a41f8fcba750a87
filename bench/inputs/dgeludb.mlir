// Bench input dgeludb: GELU (tanh) backward with the bias gradient, 16384x4096
// bf16 (dx bf16, dbias f32 from the bf16 dx, f32 accumulation).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gelu_bwd_dbias(%dy: tensor<16384x4096xbf16>, %x: tensor<16384x4096xbf16>)
    -> (tensor<16384x4096xbf16>, tensor<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.797884583 : f32
  %c = arith.constant 0.044715 : f32
  %c3 = arith.constant 0.134145 : f32
  %e = tensor.empty() : tensor<16384x4096xbf16>
  %dx = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x : tensor<16384x4096xbf16>, tensor<16384x4096xbf16>) outs(%e : tensor<16384x4096xbf16>) {
  ^bb0(%dyv: bf16, %xv: bf16, %o: bf16):
    %g = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %x2 = arith.mulf %xf, %xf : f32
    %x3 = arith.mulf %x2, %xf : f32
    %cx3 = arith.mulf %c, %x3 : f32
    %in = arith.addf %xf, %cx3 : f32
    %u = arith.mulf %k, %in : f32
    %t = math.tanh %u : f32
    %opt = arith.addf %one, %t : f32
    %left = arith.mulf %half, %opt : f32
    %t2 = arith.mulf %t, %t : f32
    %sech2 = arith.subf %one, %t2 : f32
    %c3x2 = arith.mulf %c3, %x2 : f32
    %du = arith.addf %one, %c3x2 : f32
    %kdu = arith.mulf %k, %du : f32
    %hx = arith.mulf %half, %xf : f32
    %r0 = arith.mulf %hx, %sech2 : f32
    %right = arith.mulf %r0, %kdu : f32
    %d = arith.addf %left, %right : f32
    %v = arith.mulf %g, %d : f32
    %vb = arith.truncf %v : f32 to bf16
    linalg.yield %vb : bf16
  } -> tensor<16384x4096xbf16>
  %ec = tensor.empty() : tensor<4096xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4096xf32>) -> tensor<4096xf32>
  %db = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dx : tensor<16384x4096xbf16>) outs(%zc : tensor<4096xf32>) {
  ^bb0(%v: bf16, %acc: f32):
    %vf = arith.extf %v : bf16 to f32
    %a = arith.addf %acc, %vf : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>
  return %dx, %db : tensor<16384x4096xbf16>, tensor<4096xf32>
}
