// logical any (ori) over a middle dim of 3
func.func @f(%x: tensor<7x3x100xi1>) -> tensor<7x100xi1> {
  %init = arith.constant false
  %e = tensor.empty() : tensor<7x100xi1>
  %z = linalg.fill ins(%init : i1) outs(%e : tensor<7x100xi1>) -> tensor<7x100xi1>
  %r = linalg.reduce { arith.ori } ins(%x : tensor<7x3x100xi1>) outs(%z : tensor<7x100xi1>) dimensions = [1]
  return %r : tensor<7x100xi1>
}
