// torch.linalg.vector_norm(x, 2, dim=(2,3), keepdim=True) on NCHW bf16, f32 accumulate, then x / norm
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#k = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
func.func @norm2(%x: tensor<2x64x33x33xbf16>) -> tensor<2x64x33x33xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x64x1x1xf32>) -> tensor<2x64x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x64x33x33xbf16>) outs(%f : tensor<2x64x1x1xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %q = arith.mulf %w, %w : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x64x1x1xf32>
  %e2 = tensor.empty() : tensor<2x64x33x33xbf16>
  %y = linalg.generic {indexing_maps = [#id, #k, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<2x64x33x33xbf16>, tensor<2x64x1x1xf32>) outs(%e2 : tensor<2x64x33x33xbf16>) {
  ^bb0(%a: bf16, %sq: f32, %o: bf16):
    %w = arith.extf %a : bf16 to f32
    %n = math.sqrt %sq : f32
    %d = arith.divf %w, %n : f32
    %t = arith.truncf %d : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x64x33x33xbf16>
  return %y : tensor<2x64x33x33xbf16>
}
