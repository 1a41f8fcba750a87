// A sum over a whole tensor (a loss, a norm), f32: one row of 40000. The
// optimizing pipeline splits it into 8 segments of 5000 (one row kernel
// over 8 rows) and a second reduction of the 8 partials.
func.func @full_sum(%x: tensor<40000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%x : tensor<40000xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
