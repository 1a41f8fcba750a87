// Softmax (named op) over 1057 rows of 100 f32: a warp per row, four rows
// per block where no count divides the rows (the last block holds one row;
// its other slots load that row again and store nothing).
func.func @softmax_short_rows_1057x100(%x: tensor<1057x100xf32>) -> tensor<1057x100xf32> {
  %e = tensor.empty() : tensor<1057x100xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1057x100xf32>) outs(%e : tensor<1057x100xf32>) -> tensor<1057x100xf32>
  return %y : tensor<1057x100xf32>
}
