// Accuracy program (tanh in f32, the precise form: its result is observed
// in f32): bench/accuracy.py feeds it 2^20 sampled f32 values.
#id = affine_map<(d0) -> (d0)>
func.func @tanh_f32(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %e = tensor.empty() : tensor<1048576xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1048576xf32>) outs(%e : tensor<1048576xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<1048576xf32>
  return %y : tensor<1048576xf32>
}
