// softmax over the last dim of a transposed input (named transpose then softmax), f32
func.func @tsm(%x: tensor<384x1024xf32>) -> tensor<1024x384xf32> {
  %e = tensor.empty() : tensor<1024x384xf32>
  %t = linalg.transpose ins(%x : tensor<384x1024xf32>) outs(%e : tensor<1024x384xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<1024x384xf32>
  %s = linalg.softmax dimension(1) ins(%t : tensor<1024x384xf32>) outs(%e2 : tensor<1024x384xf32>) -> tensor<1024x384xf32>
  return %s : tensor<1024x384xf32>
}
