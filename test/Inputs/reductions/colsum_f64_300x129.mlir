// Column sums over 300 rows of 129 f64 (linalg.reduce over dim 0): an odd inner width, f64 partials.
func.func @c(%x: tensor<300x129xf64>) -> tensor<129xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<129xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<129xf64>) -> tensor<129xf64>
  %r = linalg.reduce ins(%x : tensor<300x129xf64>) outs(%f : tensor<129xf64>) dimensions = [0]
    (%a: f64, %b: f64) { %s = arith.addf %a, %b : f64
      linalg.yield %s : f64 }
  return %r : tensor<129xf64>
}
