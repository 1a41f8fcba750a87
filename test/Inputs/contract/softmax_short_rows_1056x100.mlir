// Contract input: softmax (named op) over many short rows, 1056 rows of
// 100 f32: a warp per row (chunks shifted to the 16-byte alignment), four
// rows per block (rows_per_block = 4).
func.func @softmax_short_rows_1056x100(%x: tensor<1056x100xf32>) -> tensor<1056x100xf32> {
  %e = tensor.empty() : tensor<1056x100xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1056x100xf32>) outs(%e : tensor<1056x100xf32>) -> tensor<1056x100xf32>
  return %y : tensor<1056x100xf32>
}
