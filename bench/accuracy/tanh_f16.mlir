// Accuracy program (tanh of every f16 value, computed in f32, rounded to f16): bench/accuracy.py
// feeds it all 65536 bit patterns and compares with f64.
#id = affine_map<(d0) -> (d0)>
func.func @tanh_f16(%x: tensor<65536xf16>) -> tensor<65536xf16> {
  %e = tensor.empty() : tensor<65536xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<65536xf16>) outs(%e : tensor<65536xf16>) {
  ^bb0(%a: f16, %out: f16):
    %v = arith.extf %a : f16 to f32
    %r = math.tanh %v : f32
    %o = arith.truncf %r : f32 to f16
    linalg.yield %o : f16
  } -> tensor<65536xf16>
  return %y : tensor<65536xf16>
}
