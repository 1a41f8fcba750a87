// Transpose with fused elementwise work on both sides (issue 7), 8192x8192
// f32: y = relu(transpose(2 * x) + b[j]). One tiled kernel: 256 MiB read,
// 256 MiB written (b is 32 KiB).
#id = affine_map<(i, j) -> (i, j)>
func.func @tfused(%x: tensor<8192x8192xf32>, %b: tensor<8192xf32>) -> tensor<8192x8192xf32> {
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<8192x8192xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8192x8192xf32>) outs(%e0 : tensor<8192x8192xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<8192x8192xf32>
  %e1 = tensor.empty() : tensor<8192x8192xf32>
  %t = linalg.transpose ins(%p : tensor<8192x8192xf32>) outs(%e1 : tensor<8192x8192xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8192x8192xf32>
  %bb = linalg.broadcast ins(%b : tensor<8192xf32>) outs(%e2 : tensor<8192x8192xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<8192x8192xf32>
  %a = linalg.add ins(%t, %bb : tensor<8192x8192xf32>, tensor<8192x8192xf32>) outs(%e3 : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<8192x8192xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %e5 = tensor.empty() : tensor<8192x8192xf32>
  %y = linalg.max ins(%a, %z : tensor<8192x8192xf32>, tensor<8192x8192xf32>) outs(%e5 : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %y : tensor<8192x8192xf32>
}
