// Contract input: a transpose with elementwise work on both sides, 77 x 130
// (no multiple of the 32x32 tile). Prologue x*s runs while the tile is
// loaded, epilogue relu(t + b[j]) while it is stored; the product and the
// broadcast bias never reach memory, the transposed value t is a result.
//   p = x * s            x, s: 77 x 130
//   t[i,j] = p[j,i]      t: 130 x 77   (returned)
//   y = max(t + b[j], 0)               (returned)

func.func @transpose_fused_bias_relu_77x130(%x: tensor<77x130xf32>, %s: tensor<77x130xf32>,
                                            %b: tensor<77xf32>) -> (tensor<130x77xf32>, tensor<130x77xf32>) {
  %e0 = tensor.empty() : tensor<77x130xf32>
  %p = linalg.mul ins(%x, %s : tensor<77x130xf32>, tensor<77x130xf32>) outs(%e0 : tensor<77x130xf32>) -> tensor<77x130xf32>
  %e1 = tensor.empty() : tensor<130x77xf32>
  %t = linalg.transpose ins(%p : tensor<77x130xf32>) outs(%e1 : tensor<130x77xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<130x77xf32>
  %bb = linalg.broadcast ins(%b : tensor<77xf32>) outs(%e2 : tensor<130x77xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<130x77xf32>
  %a = linalg.add ins(%t, %bb : tensor<130x77xf32>, tensor<130x77xf32>) outs(%e3 : tensor<130x77xf32>) -> tensor<130x77xf32>
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<130x77xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e4 : tensor<130x77xf32>) -> tensor<130x77xf32>
  %e5 = tensor.empty() : tensor<130x77xf32>
  %y = linalg.max ins(%a, %z : tensor<130x77xf32>, tensor<130x77xf32>) outs(%e5 : tensor<130x77xf32>) -> tensor<130x77xf32>
  return %t, %y : tensor<130x77xf32>, tensor<130x77xf32>
}
