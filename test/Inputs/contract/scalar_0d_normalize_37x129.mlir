// Contract input with scalars passed through 0-d tensors, as frontends
// write them: the total of x * x is reduced into a tensor<f32>, extracted and
// used in a later body; a temperature goes in through tensor.from_elements
// and comes out through tensor.extract as a fill value.
//   y = x / sum(x * x) * t,   t = 0.75 (a 0-d tensor filled over the output)
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @scalar_0d_normalize_37x129(%x: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %tot = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<37x129xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %s = tensor.extract %tot[] : tensor<f32>
  %temp = arith.constant 7.500000e-01 : f32
  %tt = tensor.from_elements %temp : tensor<f32>
  %tv = tensor.extract %tt[] : tensor<f32>
  %e1 = tensor.empty() : tensor<37x129xf32>
  %tf = linalg.fill ins(%tv : f32) outs(%e1 : tensor<37x129xf32>) -> tensor<37x129xf32>
  %e2 = tensor.empty() : tensor<37x129xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %tf : tensor<37x129xf32>, tensor<37x129xf32>) outs(%e2 : tensor<37x129xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    %m = arith.mulf %d, %t : f32
    linalg.yield %m : f32
  } -> tensor<37x129xf32>
  return %y : tensor<37x129xf32>
}
