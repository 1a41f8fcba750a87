// mean over the last dim of [1, 1, 4096] f16 (one decode row), keepdim
#id = affine_map<(a, b, c) -> (a, b, c)>
#k = affine_map<(a, b, c) -> (a, b, 0)>
func.func @one(%x: tensor<1x1x4096xf16>) -> tensor<1x1x1xf16> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %e = tensor.empty() : tensor<1x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x1x4096xf16>) outs(%f : tensor<1x1x1xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.addf %w, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x1x1xf32>
  %e2 = tensor.empty() : tensor<1x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x1x1xf32>) outs(%e2 : tensor<1x1x1xf16>) {
  ^bb0(%a: f32, %o: f16):
    %q = arith.divf %a, %n : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x1x1xf16>
  return %m : tensor<1x1x1xf16>
}
