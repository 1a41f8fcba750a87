// Bench input colwide: column sums of a short, wide matrix, f32 384 x 65536
// (a few hundred rows, many thousands of columns), linalg.reduce over dim 0.
func.func @colwide(%x: tensor<384x65536xf32>) -> tensor<65536xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<65536xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<65536xf32>) -> tensor<65536xf32>
  %s = linalg.reduce ins(%x : tensor<384x65536xf32>) outs(%f : tensor<65536xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<65536xf32>
}
