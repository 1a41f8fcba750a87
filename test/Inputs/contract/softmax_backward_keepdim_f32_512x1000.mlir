// torch-mlir style _softmax_backward_data, keepdim sum via tensor<Nx1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#kd = affine_map<(d0, d1) -> (d0, 0)>
func.func @softmax_bwd(%dy: tensor<512x1000xf32>, %y: tensor<512x1000xf32>) -> tensor<512x1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x1000xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %y : tensor<512x1000xf32>, tensor<512x1000xf32>) outs(%e : tensor<512x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<512x1000xf32>
  %e1 = tensor.empty() : tensor<512x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<512x1xf32>) -> tensor<512x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #kd], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<512x1000xf32>) outs(%f1 : tensor<512x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<512x1xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #kd, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %y, %s : tensor<512x1000xf32>, tensor<512x1000xf32>, tensor<512x1xf32>) outs(%e : tensor<512x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %c : f32
    %m = arith.mulf %b, %d : f32
    linalg.yield %m : f32
  } -> tensor<512x1000xf32>
  return %out : tensor<512x1000xf32>
}
