// Column statistics as torch-mlir writes sum(x, 0) and sum(x * x, 0) in
// f16 with f32 accumulation: named ops (linalg.map, linalg.reduce), each
// sum with its own fill, 9000 x 20 (20 outputs cannot fill a GPU: the rows
// are split across blocks, both sums through one workspace and one second
// kernel), a max over dim 0 beside them (its own combiner) and the three
// results returned.
func.func @colstats_named(%x: tensor<9000x20xf16>)
    -> (tensor<20xf32>, tensor<20xf32>, tensor<20xf32>) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<9000x20xf32>
  %w = linalg.map { arith.extf } ins(%x : tensor<9000x20xf16>) outs(%e : tensor<9000x20xf32>)
  %e1 = tensor.empty() : tensor<20xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<20xf32>) -> tensor<20xf32>
  %s = linalg.reduce { arith.addf } ins(%w : tensor<9000x20xf32>) outs(%f1 : tensor<20xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<9000x20xf32>
  %sq = linalg.map { arith.mulf } ins(%w, %w : tensor<9000x20xf32>, tensor<9000x20xf32>) outs(%e2 : tensor<9000x20xf32>)
  %e3 = tensor.empty() : tensor<20xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<20xf32>) -> tensor<20xf32>
  %q = linalg.reduce { arith.addf } ins(%sq : tensor<9000x20xf32>) outs(%f3 : tensor<20xf32>) dimensions = [0]
  %e4 = tensor.empty() : tensor<20xf32>
  %f4 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<20xf32>) -> tensor<20xf32>
  %m = linalg.reduce { arith.maximumf } ins(%w : tensor<9000x20xf32>) outs(%f4 : tensor<20xf32>) dimensions = [0]
  return %s, %q, %m : tensor<20xf32>, tensor<20xf32>, tensor<20xf32>
}
