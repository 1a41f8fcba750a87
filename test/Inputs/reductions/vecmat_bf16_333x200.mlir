// A vector times a matrix as a named op (torch-mlir's x @ W for a 1-D x,
// a decode step's projection): linalg.vecmat, bf16 in, f32 out. Its
// generic form reduces over k innermost while W[k, n] is contiguous along
// n: iterated [k, n], a column reduction, the vector x[k] the same for
// every n.
func.func @vecmat(%x: tensor<333xbf16>, %wt: tensor<333x200xbf16>) -> tensor<200xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200xf32>) -> tensor<200xf32>
  %y = linalg.vecmat ins(%x, %wt : tensor<333xbf16>, tensor<333x200xbf16>) outs(%f : tensor<200xf32>) -> tensor<200xf32>
  return %y : tensor<200xf32>
}
