// mean over dim 0 of [7, 100003] f32 (few rows, odd wide columns), named reduce + div map
func.func @cm(%x: tensor<7x100003xf32>) -> tensor<100003xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 7.0 : f32
  %e = tensor.empty() : tensor<100003xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100003xf32>) -> tensor<100003xf32>
  %s = linalg.reduce ins(%x : tensor<7x100003xf32>) outs(%f : tensor<100003xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    }
  %o = linalg.map ins(%s : tensor<100003xf32>) outs(%e : tensor<100003xf32>)
    (%a: f32, %outv: f32) {
      %q = arith.divf %a, %n : f32
      linalg.yield %q : f32
    }
  return %o : tensor<100003xf32>
}
