// Bench input ropeneox: NeoX rotary embedding as torch-mlir lowers it: rotate_half(x) =
// cat(-x[..., 64:], x[..., :64]) through tensor.extract_slice and
// tensor.concat, then x * cos + rotate_half(x) * sin with bf16 tables per
// (position, dim) broadcast over batch and heads; bf16 arithmetic.
#id4 = affine_map<(b, s, h, d) -> (b, s, h, d)>
#tab = affine_map<(b, s, h, d) -> (s, d)>
func.func @neox_rope(%x: tensor<4x2048x32x128xbf16>, %cos: tensor<2048x128xbf16>, %sin: tensor<2048x128xbf16>) -> tensor<4x2048x32x128xbf16> {
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [4, 2048, 32, 64] [1, 1, 1, 1] : tensor<4x2048x32x128xbf16> to tensor<4x2048x32x64xbf16>
  %x2 = tensor.extract_slice %x[0, 0, 0, 64] [4, 2048, 32, 64] [1, 1, 1, 1] : tensor<4x2048x32x128xbf16> to tensor<4x2048x32x64xbf16>
  %e0 = tensor.empty() : tensor<4x2048x32x64xbf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x2 : tensor<4x2048x32x64xbf16>) outs(%e0 : tensor<4x2048x32x64xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %n = arith.negf %a : bf16
    linalg.yield %n : bf16
  } -> tensor<4x2048x32x64xbf16>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<4x2048x32x64xbf16>, tensor<4x2048x32x64xbf16>) -> tensor<4x2048x32x128xbf16>
  %e = tensor.empty() : tensor<4x2048x32x128xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #tab, #id4, #tab, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %cos, %rot, %sin : tensor<4x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<4x2048x32x128xbf16>, tensor<2048x128xbf16>) outs(%e : tensor<4x2048x32x128xbf16>) {
  ^bb0(%a: bf16, %c: bf16, %rr: bf16, %s: bf16, %o: bf16):
    %ac = arith.mulf %a, %c : bf16
    %rs = arith.mulf %rr, %s : bf16
    %v = arith.addf %ac, %rs : bf16
    linalg.yield %v : bf16
  } -> tensor<4x2048x32x128xbf16>
  return %r : tensor<4x2048x32x128xbf16>
}
