// torch-mlir: attention output o.transpose(1, 2).reshape(B, T, H*D) + bias: linalg.transpose
// [0, 2, 1, 3] of 2x8x33x64 into 2x33x8x64, tensor.collapse_shape to 2x33x512, bias add (d2).
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (d2)>
func.func @attn_out(%o: tensor<2x8x33x64xf32>, %bias: tensor<512xf32>) -> tensor<2x33x512xf32> {
  %e0 = tensor.empty() : tensor<2x33x8x64xf32>
  %t = linalg.transpose ins(%o : tensor<2x8x33x64xf32>) outs(%e0 : tensor<2x33x8x64xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0], [1], [2, 3]] : tensor<2x33x8x64xf32> into tensor<2x33x512xf32>
  %e1 = tensor.empty() : tensor<2x33x512xf32>
  %y = linalg.generic {indexing_maps = [#id, #b, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x33x512xf32>, tensor<512xf32>) outs(%e1 : tensor<2x33x512xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<2x33x512xf32>
  return %y : tensor<2x33x512xf32>
}
