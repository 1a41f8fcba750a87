// Accuracy program (tanh-GELU of every f16 value, computed in f32, rounded to f16): bench/accuracy.py
// feeds it all 65536 bit patterns and compares with f64.
#id = affine_map<(d0) -> (d0)>
func.func @gelu_f16(%x: tensor<65536xf16>) -> tensor<65536xf16> {
  %e = tensor.empty() : tensor<65536xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<65536xf16>) outs(%e : tensor<65536xf16>) {
  ^bb0(%a: f16, %out: f16):
    %v = arith.extf %a : f16 to f32
    %c0 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608028654 : f32
    %c = arith.constant 0.044715 : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t0 = arith.mulf %c, %v3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %u = arith.mulf %k, %t1 : f32
    %th = math.tanh %u : f32
    %s = arith.addf %c1, %th : f32
    %h = arith.mulf %c0, %v : f32
    %r = arith.mulf %h, %s : f32
    %o = arith.truncf %r : f32 to f16
    linalg.yield %o : f16
  } -> tensor<65536xf16>
  return %y : tensor<65536xf16>
}
