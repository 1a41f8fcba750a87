// Contract input: two-pass LayerNorm as torch-mlir emits it, fp32.
//   x: [2, 8, 768] (batch, seq, hidden), normalized over hidden; 16 rows of 768.
//   x is collapsed to 16 x 768 (tensor.collapse_shape); each row statistic is computed
//   on tensor<16xf32>, then tensor.expand_shape'd to 16 x 1 (keepdim) and broadcast back
//   with the generic map (d0, d1) -> (d0, 0). The result is expanded back to [2, 8, 768].
//   mean[i] = sum_j h[i,j] / 768                       (sum generic, then divf generic)
//   var[i]  = sum_j (h[i,j] - mean[i])^2 / 768         (a separate generic, two-pass)
//   y[i,j]  = (h[i,j] - mean[i]) * rsqrt(var[i] + 1e-5) * g[j] + b[j]

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @layernorm_torch_2x8x768(%x3: tensor<2x8x768xf32>, %g: tensor<768xf32>,
                                   %b: tensor<768xf32>) -> tensor<2x8x768xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %cn = arith.constant 7.680000e+02 : f32
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<2x8x768xf32> into tensor<16x768xf32>
  // mean = sum / 768 on tensor<16xf32>
  %e0 = tensor.empty() : tensor<16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf32>) outs(%f0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %cn : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  %mean2 = tensor.expand_shape %mean [[0, 1]] output_shape [16, 1]
             : tensor<16xf32> into tensor<16x1xf32>
  // centered = x - mean (keepdim broadcast through (d0, d1) -> (d0, 0))
  %e2 = tensor.empty() : tensor<16x768xf32>
  %c = linalg.generic {indexing_maps = [#id2, #keep, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean2 : tensor<16x768xf32>, tensor<16x1xf32>)
      outs(%e2 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<16x768xf32>
  // variance: separate square generic, sum generic, divide
  %e3 = tensor.empty() : tensor<16x768xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<16x768xf32>) outs(%e3 : tensor<16x768xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x768xf32>
  %e4 = tensor.empty() : tensor<16xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<16xf32>) -> tensor<16xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x768xf32>) outs(%f4 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e5 = tensor.empty() : tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ssq : tensor<16xf32>) outs(%e5 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %eps = arith.constant 9.99999974E-6 : f32
    %v = arith.divf %a, %cn : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %rstd2 = tensor.expand_shape %rstd [[0, 1]] output_shape [16, 1]
             : tensor<16xf32> into tensor<16x1xf32>
  %e6 = tensor.empty() : tensor<16x768xf32>
  %y = linalg.generic {indexing_maps = [#id2, #keep, #col, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %rstd2, %g, %b : tensor<16x768xf32>, tensor<16x1xf32>,
                               tensor<768xf32>, tensor<768xf32>)
      outs(%e6 : tensor<16x768xf32>) {
  ^bb0(%cv: f32, %rs: f32, %gv: f32, %bv: f32, %o: f32):
    %n = arith.mulf %cv, %rs : f32
    %ng = arith.mulf %n, %gv : f32
    %r = arith.addf %ng, %bv : f32
    linalg.yield %r : f32
  } -> tensor<16x768xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 8, 768]
          : tensor<16x768xf32> into tensor<2x8x768xf32>
  return %y3 : tensor<2x8x768xf32>
}
