// Batched permutation [64,2048,1024] -> [64,1024,2048] (issue 7's 3-D case):
// 512 MiB read, 512 MiB written.
func.func @perm3d(%x: tensor<64x2048x1024xf32>) -> tensor<64x1024x2048xf32> {
  %e = tensor.empty() : tensor<64x1024x2048xf32>
  %t = linalg.transpose ins(%x : tensor<64x2048x1024xf32>)
                        outs(%e : tensor<64x1024x2048xf32>) permutation = [0, 2, 1]
  return %t : tensor<64x1024x2048xf32>
}
