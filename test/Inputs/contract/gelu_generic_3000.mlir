// Contract input: W1-style GELU chain written entirely as linalg.generic (no named ops),
// one generic per frontend op, rows of 3000 (not a multiple of 32/128).
//   y[i,j] = gelu_tanh(x[i,j] * s[j] + b[j]) + r[i,j], fp32, shape 64 x 3000.
// The tanh-GELU is itself spread over several generics (cube, inner polynomial, tanh,
// final product), the way an unfused torch graph lowers.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gelu_generic_3000(%x: tensor<64x3000xf32>, %s: tensor<3000xf32>,
                             %b: tensor<3000xf32>, %r: tensor<64x3000xf32>)
    -> tensor<64x3000xf32> {
  %e0 = tensor.empty() : tensor<64x3000xf32>
  %v = linalg.generic {indexing_maps = [#id, #col, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %b : tensor<64x3000xf32>, tensor<3000xf32>, tensor<3000xf32>)
      outs(%e0 : tensor<64x3000xf32>) {
  ^bb0(%a: f32, %sv: f32, %bv: f32, %o: f32):
    %m = arith.mulf %a, %sv : f32
    %t = arith.addf %m, %bv : f32
    linalg.yield %t : f32
  } -> tensor<64x3000xf32>
  %e1 = tensor.empty() : tensor<64x3000xf32>
  %cube = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<64x3000xf32>) outs(%e1 : tensor<64x3000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c3 = arith.constant 3.000000e+00 : f32
    %p = math.powf %a, %c3 : f32
    linalg.yield %p : f32
  } -> tensor<64x3000xf32>
  %e2 = tensor.empty() : tensor<64x3000xf32>
  %inner = linalg.generic {indexing_maps = [#id, #id, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%v, %cube : tensor<64x3000xf32>, tensor<64x3000xf32>)
      outs(%e2 : tensor<64x3000xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %k = arith.constant 0.797884560 : f32
    %a3 = arith.constant 4.471500e-02 : f32
    %t0 = arith.mulf %c, %a3 : f32
    %t1 = arith.addf %a, %t0 : f32
    %t2 = arith.mulf %t1, %k : f32
    linalg.yield %t2 : f32
  } -> tensor<64x3000xf32>
  %e3 = tensor.empty() : tensor<64x3000xf32>
  %th = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%inner : tensor<64x3000xf32>) outs(%e3 : tensor<64x3000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<64x3000xf32>
  %e4 = tensor.empty() : tensor<64x3000xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%v, %th, %r : tensor<64x3000xf32>, tensor<64x3000xf32>, tensor<64x3000xf32>)
      outs(%e4 : tensor<64x3000xf32>) {
  ^bb0(%a: f32, %t: f32, %rv: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %u = arith.addf %t, %one : f32
    %h = arith.mulf %a, %half : f32
    %g = arith.mulf %h, %u : f32
    %res = arith.addf %g, %rv : f32
    linalg.yield %res : f32
  } -> tensor<64x3000xf32>
  return %y : tensor<64x3000xf32>
}
