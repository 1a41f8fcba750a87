// Contract input: RMSNorm with bf16 input/output and f32 accumulation over
// rows of 131080 elements (256 KiB; 131080 / 8 = 16385 16-byte chunks, so the
// last tile of 1024 threads holds one chunk): too long for registers, the
// row is streamed in tiles (a pass for the sum of squares, one for the
// output) prefetched with cp.async; the broadcast gamma is read per tile.
//   y[i,j] = bf16( f32(x[i,j]) * rsqrt(sum_j f32(x[i,j])^2 / 131080 + 1e-6) * f32(g[j]) )

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm_long_bf16_3x131080(%x: tensor<3x131080xbf16>, %g: tensor<131080xbf16>)
    -> tensor<3x131080xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<3xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3xf32>) -> tensor<3xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x131080xbf16>) outs(%f0 : tensor<3xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %sq = arith.mulf %af, %af : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e1 = tensor.empty() : tensor<3x131080xbf16>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : tensor<3x131080xbf16>, tensor<3xf32>, tensor<131080xbf16>)
      outs(%e1 : tensor<3x131080xbf16>) {
  ^bb0(%a: bf16, %ss: f32, %gv: bf16, %o: bf16):
    %n = arith.constant 1.310800e+05 : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %ms = arith.divf %ss, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %af = arith.extf %a : bf16 to f32
    %gf = arith.extf %gv : bf16 to f32
    %t0 = arith.mulf %af, %rs : f32
    %t1 = arith.mulf %t0, %gf : f32
    %t2 = arith.truncf %t1 : f32 to bf16
    linalg.yield %t2 : bf16
  } -> tensor<3x131080xbf16>
  return %y : tensor<3x131080xbf16>
}
