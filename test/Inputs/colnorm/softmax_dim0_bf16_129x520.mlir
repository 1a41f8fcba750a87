// Softmax over the leading dim of bf16 (torch.softmax(x, 0) with an f32
// accumulation, as torch-mlir writes it after a dtype cast): 520 columns
// are rows side by side, eight to a thread (one 16-byte vector across
// them); the reduced length, 129, is odd.
func.func @sm0bf(%x: tensor<129x520xbf16>) -> tensor<129x520xbf16> {
  %e = tensor.empty() : tensor<129x520xf32>
  %xf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<129x520xbf16>) outs(%e : tensor<129x520xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<129x520xf32>
  %s = linalg.softmax dimension(0) ins(%xf : tensor<129x520xf32>) outs(%e : tensor<129x520xf32>) -> tensor<129x520xf32>
  %e2 = tensor.empty() : tensor<129x520xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<129x520xf32>) outs(%e2 : tensor<129x520xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<129x520xbf16>
  return %y : tensor<129x520xbf16>
}
