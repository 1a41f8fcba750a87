// Contract input: pointwise op with a scalar (non-tensor) constant operand, then ReLU
// via linalg.max against a zero-filled tensor, 1-D prime length 10007, fp32.
//   t[i] = x[i] * alpha + beta[i]     alpha = 1.5 passed to the generic as a scalar f32
//                                     operand with map (d0) -> ()
//   y[i] = max(t[i], 0)               linalg.max with a linalg.fill(0) operand

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @relu_scalar_10007(%x: tensor<10007xf32>, %beta: tensor<10007xf32>)
    -> tensor<10007xf32> {
  %alpha = arith.constant 1.500000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<10007xf32>
  %t = linalg.generic {indexing_maps = [#id, #scalar, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%x, %alpha, %beta : tensor<10007xf32>, f32, tensor<10007xf32>)
      outs(%e0 : tensor<10007xf32>) {
  ^bb0(%a: f32, %al: f32, %bv: f32, %o: f32):
    %m = arith.mulf %a, %al : f32
    %s = arith.addf %m, %bv : f32
    linalg.yield %s : f32
  } -> tensor<10007xf32>
  %e1 = tensor.empty() : tensor<10007xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<10007xf32>) -> tensor<10007xf32>
  %e2 = tensor.empty() : tensor<10007xf32>
  %y = linalg.max ins(%t, %z : tensor<10007xf32>, tensor<10007xf32>)
         outs(%e2 : tensor<10007xf32>) -> tensor<10007xf32>
  return %y : tensor<10007xf32>
}
