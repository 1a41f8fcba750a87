// Fuzz reproducer: math.fma on f16 inside a generic. baseline / optimized refuse it:
//   error: 'math.fma' op has no libdevice-free lowering for the GPU
func.func @fma_f16(%x: tensor<64xf16>) -> tensor<64xf16> {
  %e = tensor.empty() : tensor<64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = math.fma %a, %a, %a : f16
    linalg.yield %r : f16
  } -> tensor<64xf16>
  return %y : tensor<64xf16>
}
