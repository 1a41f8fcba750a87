// Contract input: 3-D permutation with linalg.transpose, fp32.
//   y[a,b,c] = x[c,a,b]    x: 8 x 64 x 96  ->  y: 64 x 96 x 8   (permutation = [1, 2, 0])
// The innermost output dimension (8) comes from the outermost input dimension.

func.func @transpose3d_8x64x96(%x: tensor<8x64x96xf32>) -> tensor<64x96x8xf32> {
  %e = tensor.empty() : tensor<64x96x8xf32>
  %y = linalg.transpose ins(%x : tensor<8x64x96xf32>) outs(%e : tensor<64x96x8xf32>)
         permutation = [1, 2, 0]
  return %y : tensor<64x96x8xf32>
}
