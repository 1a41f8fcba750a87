// bf16 accumulation (no upcast), sum over dims 0 and 2 of [32, 64, 512]: linalg.reduce as StableHLO emits
func.func @sum02(%x: tensor<32x64x512xbf16>) -> tensor<64xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<64xbf16>) -> tensor<64xbf16>
  %s = linalg.reduce ins(%x : tensor<32x64x512xbf16>) outs(%f : tensor<64xbf16>) dimensions = [0, 2]
    (%a: bf16, %b: bf16) {
      %m = arith.addf %a, %b : bf16
      linalg.yield %m : bf16
    }
  return %s : tensor<64xbf16>
}
