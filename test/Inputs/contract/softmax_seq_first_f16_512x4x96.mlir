// softmax over dim 0 of [S, B, H] f16 (sequence-first layout), decomposed as torch-mlir writes it with keepdim [1, B, H]
#id = affine_map<(s, b, h) -> (s, b, h)>
#k = affine_map<(s, b, h) -> (0, b, h)>
func.func @smseq(%x: tensor<512x4x96xf16>) -> tensor<512x4x96xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x96xf16>
  %f = linalg.fill ins(%ninf : f16) outs(%e : tensor<1x4x96xf16>) -> tensor<1x4x96xf16>
  %m = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%x : tensor<512x4x96xf16>) outs(%f : tensor<1x4x96xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.maximumf %a, %o : f16
    linalg.yield %r : f16
  } -> tensor<1x4x96xf16>
  %e2 = tensor.empty() : tensor<1x4x96xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x96xf32>) -> tensor<1x4x96xf32>
  %s = linalg.generic {indexing_maps = [#id, #k, #k], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%x, %m : tensor<512x4x96xf16>, tensor<1x4x96xf16>) outs(%f2 : tensor<1x4x96xf32>) {
  ^bb0(%a: f16, %mx: f16, %o: f32):
    %d = arith.subf %a, %mx : f16
    %w = arith.extf %d : f16 to f32
    %ex = math.exp %w : f32
    %r = arith.addf %ex, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x4x96xf32>
  %e3 = tensor.empty() : tensor<512x4x96xf16>
  %y = linalg.generic {indexing_maps = [#id, #k, #k, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %s : tensor<512x4x96xf16>, tensor<1x4x96xf16>, tensor<1x4x96xf32>) outs(%e3 : tensor<512x4x96xf16>) {
  ^bb0(%a: f16, %mx: f16, %sm: f32, %o: f16):
    %d = arith.subf %a, %mx : f16
    %w = arith.extf %d : f16 to f32
    %ex = math.exp %w : f32
    %q = arith.divf %ex, %sm : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x4x96xf16>
  return %y : tensor<512x4x96xf16>
}
