// softmax over the middle dim of [B, S, H] f16 via linalg.softmax
func.func @sm_mid(%x: tensor<8x1024x64xf16>) -> tensor<8x1024x64xf16> {
  %e = tensor.empty() : tensor<8x1024x64xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<8x1024x64xf16>) outs(%e : tensor<8x1024x64xf16>) -> tensor<8x1024x64xf16>
  return %s : tensor<8x1024x64xf16>
}
