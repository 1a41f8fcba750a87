// Fuzz reproducer: linalg.abs on f16. baseline / optimized (GPU) refuse it:
//   <unknown>:0: error: 'math.absf' op has no libdevice-free lowering for the GPU
// (no source location; f16 abs should lower, e.g. to an and of the sign bit).
func.func @abs_named_f16(%x: tensor<2x1000xf16>) -> tensor<2x1000xf16> {
  %e = tensor.empty() : tensor<2x1000xf16>
  %y = linalg.abs ins(%x : tensor<2x1000xf16>) outs(%e : tensor<2x1000xf16>) -> tensor<2x1000xf16>
  return %y : tensor<2x1000xf16>
}
