// Sum and max over the two inner dims of a 3-D tensor (batch-norm-like
// statistics per leading index), one two-result generic with odd extents:
// the pairwise reference reduces both dims, each with odd levels.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @sum_two_dims(%x: tensor<6x37x41xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<6xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
  %e1 = tensor.empty() : tensor<6xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out],
                         iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<6x37x41xf32>) outs(%s0, %m0 : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%v: f32, %s: f32, %m: f32):
    %t = math.tanh %v : f32
    %a = arith.addf %s, %t : f32
    %b = arith.maximumf %v, %m : f32
    linalg.yield %a, %b : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}
