// Row sums of i64 values (token ids, offsets): an i64 accumulator that no narrowing makes exact.
func.func @s(%x: tensor<100x3001xi64>) -> tensor<100xi64> {
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<100xi64>
  %f = linalg.fill ins(%z : i64) outs(%e : tensor<100xi64>) -> tensor<100xi64>
  %r = linalg.reduce ins(%x : tensor<100x3001xi64>) outs(%f : tensor<100xi64>) dimensions = [1]
    (%a: i64, %b: i64) { %s = arith.addi %a, %b : i64
      linalg.yield %s : i64 }
  return %r : tensor<100xi64>
}
