// Accuracy program (tanh of every bf16 value, computed in f32, rounded to bf16): bench/accuracy.py
// feeds it all 65536 bit patterns and compares with f64.
#id = affine_map<(d0) -> (d0)>
func.func @tanh_bf16(%x: tensor<65536xbf16>) -> tensor<65536xbf16> {
  %e = tensor.empty() : tensor<65536xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<65536xbf16>) outs(%e : tensor<65536xbf16>) {
  ^bb0(%a: bf16, %out: bf16):
    %v = arith.extf %a : bf16 to f32
    %r = math.tanh %v : f32
    %o = arith.truncf %r : f32 to bf16
    linalg.yield %o : bf16
  } -> tensor<65536xbf16>
  return %y : tensor<65536xbf16>
}
