// sum over the last dim with a transposed output: out[c, n] = sum_k x[n, c, k].
func.func @f(%x: tensor<5x7x100xf32>) -> tensor<7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, c, k)>, affine_map<(n, c, k) -> (c, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<5x7x100xf32>) outs(%z : tensor<7x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
