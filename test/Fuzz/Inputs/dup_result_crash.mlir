// Fuzz reproducer: the same value returned twice. Every pipeline (reference too)
// dies with SIGSEGV in mlir::bufferization::promoteBufferResultsToOutParams
// (BaseMemRefType::hasRank on a null type).
func.func @dup_result(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.abs ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y, %y : tensor<8x16xf32>, tensor<8x16xf32>
}
