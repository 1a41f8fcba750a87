// Bench input colstatsn: column sum and sum of squares of a tall, narrow
// f16 matrix, 1048576 x 64, f32 accumulation, as torch-mlir writes
// x.float().sum(0) and (x.float() ** 2).sum(0): named ops, each sum with
// its own fill (64 outputs cannot fill a GPU: split rows).
func.func @colstatsn(%x: tensor<1048576x64xf16>) -> (tensor<64xf32>, tensor<64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1048576x64xf32>
  %w = linalg.map { arith.extf } ins(%x : tensor<1048576x64xf16>) outs(%e : tensor<1048576x64xf32>)
  %e1 = tensor.empty() : tensor<64xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce { arith.addf } ins(%w : tensor<1048576x64xf32>) outs(%f1 : tensor<64xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<1048576x64xf32>
  %sq = linalg.map { arith.mulf } ins(%w, %w : tensor<1048576x64xf32>, tensor<1048576x64xf32>) outs(%e2 : tensor<1048576x64xf32>)
  %e3 = tensor.empty() : tensor<64xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %q = linalg.reduce { arith.addf } ins(%sq : tensor<1048576x64xf32>) outs(%f3 : tensor<64xf32>) dimensions = [0]
  return %s, %q : tensor<64xf32>, tensor<64xf32>
}
