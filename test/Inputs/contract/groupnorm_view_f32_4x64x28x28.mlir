// torch-mlir style group norm: view [N, C, H, W] -> [N, G, C/G*H*W] by expand/collapse, var_mean over last, f32
#id3 = affine_map<(n, g, k) -> (n, g, k)>
#r3 = affine_map<(n, g, k) -> (n, g, 0)>
func.func @gn(%x: tensor<4x64x28x28xf32>) -> tensor<4x64x28x28xf32> {
  %z = arith.constant 0.0 : f32
  %inv = arith.constant 0.00019929846 : f32
  %eps = arith.constant 1.0e-5 : f32
  %v = tensor.collapse_shape %x [[0], [1], [2, 3]] : tensor<4x64x28x28xf32> into tensor<4x64x784xf32>
  %g = tensor.expand_shape %v [[0], [1, 2], [3]] output_shape [4, 8, 8, 784] : tensor<4x64x784xf32> into tensor<4x8x8x784xf32>
  %f = tensor.collapse_shape %g [[0], [1], [2, 3]] : tensor<4x8x8x784xf32> into tensor<4x8x6272xf32>
  %e = tensor.empty() : tensor<4x8x1xf32>
  %fz = linalg.fill ins(%z : f32) outs(%e : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %s = linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%f : tensor<4x8x6272xf32>) outs(%fz : tensor<4x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.addf %a, %o : f32
    linalg.yield %q : f32
  } -> tensor<4x8x1xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #r3, #r3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%f, %s : tensor<4x8x6272xf32>, tensor<4x8x1xf32>) outs(%fz : tensor<4x8x1xf32>) {
  ^bb0(%a: f32, %sm: f32, %o: f32):
    %mu = arith.mulf %sm, %inv : f32
    %c = arith.subf %a, %mu : f32
    %c2 = arith.mulf %c, %c : f32
    %q = arith.addf %c2, %o : f32
    linalg.yield %q : f32
  } -> tensor<4x8x1xf32>
  %e3 = tensor.empty() : tensor<4x8x6272xf32>
  %y = linalg.generic {indexing_maps = [#id3, #r3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%f, %s, %ss : tensor<4x8x6272xf32>, tensor<4x8x1xf32>, tensor<4x8x1xf32>) outs(%e3 : tensor<4x8x6272xf32>) {
  ^bb0(%a: f32, %sm: f32, %sq: f32, %o: f32):
    %mu = arith.mulf %sm, %inv : f32
    %var = arith.mulf %sq, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %c = arith.subf %a, %mu : f32
    %n = arith.mulf %c, %rs : f32
    linalg.yield %n : f32
  } -> tensor<4x8x6272xf32>
  %y4 = tensor.expand_shape %y [[0], [1], [2, 3, 4]] output_shape [4, 8, 8, 28, 28] : tensor<4x8x6272xf32> into tensor<4x8x8x28x28xf32>
  %out = tensor.collapse_shape %y4 [[0], [1, 2], [3], [4]] : tensor<4x8x8x28x28xf32> into tensor<4x64x28x28xf32>
  return %out : tensor<4x64x28x28xf32>
}
