// IREE-dispatch-like: bf16 row sum and sum of squares in one two-output generic, accumulated in
// bf16 (no widening), outs from linalg.fill of 0; reduction dims first in the iteration space
// ([reduction, parallel]) with maps (d0,d1)->(d1,d0).
#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @bf16_sums(%x: tensor<8x8191xbf16>) -> (tensor<8xbf16>, tensor<8xbf16>) {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<8xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  %f2 = linalg.fill ins(%z : bf16) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8x8191xbf16>) outs(%f, %f2 : tensor<8xbf16>, tensor<8xbf16>) {
  ^bb0(%a: bf16, %s: bf16, %q: bf16):
    %s1 = arith.addf %a, %s : bf16
    %sq = arith.mulf %a, %a : bf16
    %q1 = arith.addf %sq, %q : bf16
    linalg.yield %s1, %q1 : bf16, bf16
  } -> (tensor<8xbf16>, tensor<8xbf16>)
  return %r#0, %r#1 : tensor<8xbf16>, tensor<8xbf16>
}
