// Contract input with a non-splat dense constant (a per-column weight
// table, as tosa-to-linalg writes small weight tensors): y = x * w + 1,
// 64x33 f32, w a dense<[...]> tensor<33xf32>. The constant's data lands in
// the PTX (the kernels read a global), not in the launch manifest.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @lut_scale_64x33(%x: tensor<64x33xf32>) -> tensor<64x33xf32> {
  %w = arith.constant dense<[5.000000e-01, 7.187500e-01, 9.375000e-01, 1.156250e+00, 1.375000e+00, 5.625000e-01, 7.812500e-01, 1.000000e+00, 1.218750e+00, 1.437500e+00, 6.250000e-01, 8.437500e-01, 1.062500e+00, 1.281250e+00, 1.500000e+00, 6.875000e-01, 9.062500e-01, 1.125000e+00, 1.343750e+00, 5.312500e-01, 7.500000e-01, 9.687500e-01, 1.187500e+00, 1.406250e+00, 5.937500e-01, 8.125000e-01, 1.031250e+00, 1.250000e+00, 1.468750e+00, 6.562500e-01, 8.750000e-01, 1.093750e+00, 1.312500e+00]> : tensor<33xf32>
  %e = tensor.empty() : tensor<64x33xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<64x33xf32>, tensor<33xf32>) outs(%e : tensor<64x33xf32>) {
  ^bb0(%a: f32, %wv: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %a, %wv : f32
    %r = arith.addf %m, %one : f32
    linalg.yield %r : f32
  } -> tensor<64x33xf32>
  return %y : tensor<64x33xf32>
}
