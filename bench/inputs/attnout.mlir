// Bench input attnout: attention's output o.transpose(1, 2).reshape(B, T, H * D) + bias
// as torch-mlir writes it (a linalg.transpose [0, 2, 1, 3], a collapse_shape), f32,
// o (4, 32, 1024, 128), bias 4096.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (d2)>
func.func @attnout(%o: tensor<4x32x1024x128xf32>, %bias: tensor<4096xf32>) -> tensor<4x1024x4096xf32> {
  %e0 = tensor.empty() : tensor<4x1024x32x128xf32>
  %t = linalg.transpose ins(%o : tensor<4x32x1024x128xf32>) outs(%e0 : tensor<4x1024x32x128xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0], [1], [2, 3]] : tensor<4x1024x32x128xf32> into tensor<4x1024x4096xf32>
  %e1 = tensor.empty() : tensor<4x1024x4096xf32>
  %y = linalg.generic {indexing_maps = [#id, #b, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<4x1024x4096xf32>, tensor<4096xf32>) outs(%e1 : tensor<4x1024x4096xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<4x1024x4096xf32>
  return %y : tensor<4x1024x4096xf32>
}
