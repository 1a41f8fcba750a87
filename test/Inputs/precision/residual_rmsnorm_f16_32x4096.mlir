// Low-precision accumulation: residual add + RMSNorm, all in f16, in torch-mlir's
// style (one generic per aten op, keepdim statistics on tensor<32x1xf16> written
// through the map (d0, d1) -> (d0, 0) and read back through the same map).
//   h = x + r;  ss = sum_j h^2 (f16 accumulator);  y = h * rsqrt(ss/4096 + 1e-6) * w
// Shapes: x, r 32 x 4096, w 4096. Outputs: y, h (both f16).
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @residual_rmsnorm_f16_32x4096(%x: tensor<32x4096xf16>, %r: tensor<32x4096xf16>,
                                        %w: tensor<4096xf16>)
    -> (tensor<32x4096xf16>, tensor<32x4096xf16>) {
  %zero = arith.constant 0.000000e+00 : f16
  %n = arith.constant 4.096000e+03 : f16
  %eps = arith.constant 1.000000e-06 : f16
  // h = x + r
  %e0 = tensor.empty() : tensor<32x4096xf16>
  %h = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %r : tensor<32x4096xf16>, tensor<32x4096xf16>)
      outs(%e0 : tensor<32x4096xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<32x4096xf16>
  // h.pow(2)
  %e1 = tensor.empty() : tensor<32x4096xf16>
  %sq = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<32x4096xf16>) outs(%e1 : tensor<32x4096xf16>) {
  ^bb0(%a: f16, %o: f16):
    %p = arith.mulf %a, %a : f16
    linalg.yield %p : f16
  } -> tensor<32x4096xf16>
  // .sum(-1, keepdim=True), f16 accumulator
  %e2 = tensor.empty() : tensor<32x1xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<32x1xf16>) -> tensor<32x1xf16>
  %ss = linalg.generic {indexing_maps = [#id, #keep],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<32x4096xf16>) outs(%f2 : tensor<32x1xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %s = arith.addf %a, %acc : f16
    linalg.yield %s : f16
  } -> tensor<32x1xf16>
  // / N, + eps, rsqrt (on the keepdim tensor)
  %e3 = tensor.empty() : tensor<32x1xf16>
  %rs = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<32x1xf16>) outs(%e3 : tensor<32x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.divf %a, %n : f16
    %me = arith.addf %m, %eps : f16
    %q = math.rsqrt %me : f16
    linalg.yield %q : f16
  } -> tensor<32x1xf16>
  // h * rs (keepdim broadcast), then * w
  %e4 = tensor.empty() : tensor<32x4096xf16>
  %hn = linalg.generic {indexing_maps = [#id, #keep, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %rs : tensor<32x4096xf16>, tensor<32x1xf16>)
      outs(%e4 : tensor<32x4096xf16>) {
  ^bb0(%a: f16, %q: f16, %o: f16):
    %t = arith.mulf %a, %q : f16
    linalg.yield %t : f16
  } -> tensor<32x4096xf16>
  %e5 = tensor.empty() : tensor<32x4096xf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%hn, %w : tensor<32x4096xf16>, tensor<4096xf16>)
      outs(%e5 : tensor<32x4096xf16>) {
  ^bb0(%a: f16, %g: f16, %o: f16):
    %t = arith.mulf %a, %g : f16
    linalg.yield %t : f16
  } -> tensor<32x4096xf16>
  return %y, %h : tensor<32x4096xf16>, tensor<32x4096xf16>
}
