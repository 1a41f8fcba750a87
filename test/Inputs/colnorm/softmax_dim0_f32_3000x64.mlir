// Softmax over the leading dim, f32 3000 x 64 (linalg.softmax
// dimension(0)): a column of 3000 is longer than one block's registers, so
// the interleaved row kernel splits it over a cluster.
func.func @sm0(%x: tensor<3000x64xf32>) -> tensor<3000x64xf32> {
  %e = tensor.empty() : tensor<3000x64xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<3000x64xf32>) outs(%e : tensor<3000x64xf32>) -> tensor<3000x64xf32>
  return %r : tensor<3000x64xf32>
}
