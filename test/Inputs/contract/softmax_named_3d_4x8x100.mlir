// Contract input: linalg.softmax over the last dimension of a 3-D tensor, fp32.
//   y[a,b,c] = exp(x[a,b,c] - max_k x[a,b,k]) / sum_k exp(x[a,b,k] - max_k x[a,b,k])
// shape 4 x 8 x 100 (attention-probability layout: batch, heads/rows, keys).

func.func @softmax_named_3d_4x8x100(%x: tensor<4x8x100xf32>) -> tensor<4x8x100xf32> {
  %e = tensor.empty() : tensor<4x8x100xf32>
  %y = linalg.softmax dimension(2)
         ins(%x : tensor<4x8x100xf32>) outs(%e : tensor<4x8x100xf32>)
         -> tensor<4x8x100xf32>
  return %y : tensor<4x8x100xf32>
}
