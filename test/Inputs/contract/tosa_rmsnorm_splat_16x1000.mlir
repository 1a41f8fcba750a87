// Contract input written as tosa-to-linalg writes it: RMSNorm whose
// epsilon, 1/N and output scale are splat tensor constants (dense<...>)
// read by named ops and generics, keepdim statistics of shape 16x1.
//   ms = sum(x*x, keepdim) * (1/N);  y = x * rsqrt(ms + eps) * scale
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
func.func @tosa_rmsnorm_splat_16x1000(%x: tensor<16x1000xf32>) -> tensor<16x1000xf32> {
  %eps = arith.constant dense<9.99999997E-7> : tensor<16x1xf32>
  %invn = arith.constant dense<1.000000e-03> : tensor<16x1xf32>
  %scale = arith.constant dense<5.000000e-01> : tensor<16x1000xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<16x1xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %ssq = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1000xf32>) outs(%f0 : tensor<16x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  %e1 = tensor.empty() : tensor<16x1xf32>
  %ms = linalg.mul ins(%ssq, %invn : tensor<16x1xf32>, tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %e2 = tensor.empty() : tensor<16x1xf32>
  %me = linalg.add ins(%ms, %eps : tensor<16x1xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %e3 = tensor.empty() : tensor<16x1xf32>
  %rs = linalg.rsqrt ins(%me : tensor<16x1xf32>) outs(%e3 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %e4 = tensor.empty() : tensor<16x1000xf32>
  %n = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rs : tensor<16x1000xf32>, tensor<16x1xf32>) outs(%e4 : tensor<16x1000xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  } -> tensor<16x1000xf32>
  %e5 = tensor.empty() : tensor<16x1000xf32>
  %y = linalg.mul ins(%n, %scale : tensor<16x1000xf32>, tensor<16x1000xf32>) outs(%e5 : tensor<16x1000xf32>) -> tensor<16x1000xf32>
  return %y : tensor<16x1000xf32>
}
