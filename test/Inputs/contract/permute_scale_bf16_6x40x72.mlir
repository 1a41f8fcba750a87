// Contract input: a bf16 3-D permutation [6,40,72] -> [6,72,40] written as
// one linalg.generic, followed by a scale and an exp written as generics
// over the output space: one tiled kernel, the permuted intermediate never
// reaches memory.
//   t[b,i,j] = x[b,j,i];  y = exp(t * 0.5)

#in = affine_map<(b, i, j) -> (b, j, i)>
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @permute_scale_bf16_6x40x72(%x: tensor<6x40x72xbf16>) -> tensor<6x72x40xbf16> {
  %e = tensor.empty() : tensor<6x72x40xbf16>
  %t = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<6x40x72xbf16>) outs(%e : tensor<6x72x40xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    linalg.yield %a : bf16
  } -> tensor<6x72x40xbf16>
  %half = arith.constant 0.5 : bf16
  %e2 = tensor.empty() : tensor<6x72x40xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<6x72x40xbf16>) outs(%e2 : tensor<6x72x40xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %m = arith.mulf %a, %half : bf16
    %r = math.exp %m : bf16
    linalg.yield %r : bf16
  } -> tensor<6x72x40xbf16>
  return %y : tensor<6x72x40xbf16>
}
