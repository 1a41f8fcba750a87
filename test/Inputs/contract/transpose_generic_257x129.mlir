// Contract input: 2-D transpose written as linalg.generic with swapped maps, odd sizes.
//   y[i,j] = x[j,i]    x: 257 x 129  ->  y: 129 x 257, fp32
// The loop nest follows the output (d0 over 129, d1 over 257); the input map swaps them.

#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_generic_257x129(%x: tensor<257x129xf32>) -> tensor<129x257xf32> {
  %e = tensor.empty() : tensor<129x257xf32>
  %y = linalg.generic {indexing_maps = [#in, #out],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<257x129xf32>) outs(%e : tensor<129x257xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<129x257xf32>
  return %y : tensor<129x257xf32>
}
