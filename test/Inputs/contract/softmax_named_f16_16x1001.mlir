// Contract input: linalg.softmax over 16 rows of 1001 f16 (8-element
// vectors, rows misaligned by 1001 mod 8 elements each): shifted chunks
// with masked row ends, in every reduction and in the epilogue.

func.func @softmax_named_f16_16x1001(%x: tensor<16x1001xf16>) -> tensor<16x1001xf16> {
  %e = tensor.empty() : tensor<16x1001xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<16x1001xf16>) outs(%e : tensor<16x1001xf16>) -> tensor<16x1001xf16>
  return %y : tensor<16x1001xf16>
}
