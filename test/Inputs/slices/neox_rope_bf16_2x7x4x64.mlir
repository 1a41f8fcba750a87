// NeoX rotary embedding as torch-mlir lowers it: rotate_half(x) =
// cat(-x[..., 32:], x[..., :32]) through tensor.extract_slice and
// tensor.concat, then x * cos + rotate_half(x) * sin with bf16 tables per
// (position, dim) broadcast over batch and heads; bf16 arithmetic.
#id4 = affine_map<(b, s, h, d) -> (b, s, h, d)>
#tab = affine_map<(b, s, h, d) -> (s, d)>
func.func @neox_rope(%x: tensor<2x7x4x64xbf16>, %cos: tensor<7x64xbf16>, %sin: tensor<7x64xbf16>) -> tensor<2x7x4x64xbf16> {
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [2, 7, 4, 32] [1, 1, 1, 1] : tensor<2x7x4x64xbf16> to tensor<2x7x4x32xbf16>
  %x2 = tensor.extract_slice %x[0, 0, 0, 32] [2, 7, 4, 32] [1, 1, 1, 1] : tensor<2x7x4x64xbf16> to tensor<2x7x4x32xbf16>
  %e0 = tensor.empty() : tensor<2x7x4x32xbf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x2 : tensor<2x7x4x32xbf16>) outs(%e0 : tensor<2x7x4x32xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %n = arith.negf %a : bf16
    linalg.yield %n : bf16
  } -> tensor<2x7x4x32xbf16>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<2x7x4x32xbf16>, tensor<2x7x4x32xbf16>) -> tensor<2x7x4x64xbf16>
  %e = tensor.empty() : tensor<2x7x4x64xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #tab, #id4, #tab, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %cos, %rot, %sin : tensor<2x7x4x64xbf16>, tensor<7x64xbf16>, tensor<2x7x4x64xbf16>, tensor<7x64xbf16>) outs(%e : tensor<2x7x4x64xbf16>) {
  ^bb0(%a: bf16, %c: bf16, %rr: bf16, %s: bf16, %o: bf16):
    %ac = arith.mulf %a, %c : bf16
    %rs = arith.mulf %rr, %s : bf16
    %v = arith.addf %ac, %rs : bf16
    linalg.yield %v : bf16
  } -> tensor<2x7x4x64xbf16>
  return %r : tensor<2x7x4x64xbf16>
}
