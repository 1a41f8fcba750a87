// logical all (andi) over 3 (outcome mixed: 1/8 true)
func.func @f(%x: tensor<4096x3xi1>) -> tensor<4096xi1> {
  %init = arith.constant true
  %e = tensor.empty() : tensor<4096xi1>
  %z = linalg.fill ins(%init : i1) outs(%e : tensor<4096xi1>) -> tensor<4096xi1>
  %r = linalg.reduce { arith.andi } ins(%x : tensor<4096x3xi1>) outs(%z : tensor<4096xi1>) dimensions = [1]
  return %r : tensor<4096xi1>
}
