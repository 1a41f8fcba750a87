// LayerNorm over rows of 2000 f64 (a scientific code's double tensors), two passes as torch-mlir writes it.
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @ln(%x: tensor<37x2000xf64>) -> tensor<37x2000xf64> {
  %z = arith.constant 0.0 : f64
  %n = arith.constant 2000.0 : f64
  %eps = arith.constant 1.0e-5 : f64
  %e = tensor.empty() : tensor<37xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<37xf64>) -> tensor<37xf64>
  %s = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x2000xf64>) outs(%f : tensor<37xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %t = arith.addf %a, %acc : f64
    linalg.yield %t : f64
  } -> tensor<37xf64>
  %ss = linalg.generic {indexing_maps = [#id, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x, %s : tensor<37x2000xf64>, tensor<37xf64>) outs(%f : tensor<37xf64>) {
  ^bb0(%a: f64, %su: f64, %acc: f64):
    %mu = arith.divf %su, %n : f64
    %d = arith.subf %a, %mu : f64
    %d2 = arith.mulf %d, %d : f64
    %t = arith.addf %d2, %acc : f64
    linalg.yield %t : f64
  } -> tensor<37xf64>
  %e2 = tensor.empty() : tensor<37x2000xf64>
  %y = linalg.generic {indexing_maps = [#id, #r, #r, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %ss : tensor<37x2000xf64>, tensor<37xf64>, tensor<37xf64>) outs(%e2 : tensor<37x2000xf64>) {
  ^bb0(%a: f64, %su: f64, %q: f64, %o: f64):
    %mu = arith.divf %su, %n : f64
    %var = arith.divf %q, %n : f64
    %ve = arith.addf %var, %eps : f64
    %rs = math.rsqrt %ve : f64
    %d = arith.subf %a, %mu : f64
    %t = arith.mulf %d, %rs : f64
    linalg.yield %t : f64
  } -> tensor<37x2000xf64>
  return %y : tensor<37x2000xf64>
}
