// Contract input: softmax over 4 rows of 131072 f16 elements, too long for
// one block's registers (8 elements per 16-byte vector): by default each
// row is split over a cluster of 8 blocks of 256 threads holding 32
// elements per thread in registers and 32 in shared memory.
func.func @softmax_long_f16_4x131072(%x: tensor<4x131072xf16>) -> tensor<4x131072xf16> {
  %e = tensor.empty() : tensor<4x131072xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x131072xf16>) outs(%e : tensor<4x131072xf16>) -> tensor<4x131072xf16>
  return %y : tensor<4x131072xf16>
}
