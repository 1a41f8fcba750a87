// Contract input written as triton-shared writes its linalg: outputs from
// bufferization.alloc_tensor() instead of tensor.empty, a splat constant
// zero tensor for the ReLU: y = max(x + b, 0), 96x257 f16.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @alloc_tensor_bias_relu_96x257(%x: tensor<96x257xf16>, %b: tensor<257xf16>) -> tensor<96x257xf16> {
  %zeros = arith.constant dense<0.000000e+00> : tensor<96x257xf16>
  %a0 = bufferization.alloc_tensor() : tensor<96x257xf16>
  %t = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<96x257xf16>, tensor<257xf16>) outs(%a0 : tensor<96x257xf16>) {
  ^bb0(%xv: f16, %bv: f16, %o: f16):
    %s = arith.addf %xv, %bv : f16
    linalg.yield %s : f16
  } -> tensor<96x257xf16>
  %a1 = bufferization.alloc_tensor() : tensor<96x257xf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %zeros : tensor<96x257xf16>, tensor<96x257xf16>) outs(%a1 : tensor<96x257xf16>) {
  ^bb0(%tv: f16, %z: f16, %o: f16):
    %m = arith.maximumf %tv, %z : f16
    linalg.yield %m : f16
  } -> tensor<96x257xf16>
  return %y : tensor<96x257xf16>
}
