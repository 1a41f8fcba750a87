// RMSNorm over rows of 262144 elements, too long for registers (issue 9):
// streamed in tiles with cp.async prefetch, 1024 rows (1 GiB in, 1 GiB out).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @rml256k(%x: tensor<1024x262144xf32>, %g: tensor<262144xf32>) -> tensor<1024x262144xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<1024xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x262144xf32>) outs(%f0 : tensor<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ssq : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 262144.0 : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %ms = arith.divf %in, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    linalg.yield %rs : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024x262144xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<1024x262144xf32>, tensor<1024xf32>, tensor<262144xf32>)
      outs(%e2 : tensor<1024x262144xf32>) {
  ^bb0(%a: f32, %rs: f32, %gv: f32, %out: f32):
    %n = arith.mulf %a, %rs : f32
    %o = arith.mulf %n, %gv : f32
    linalg.yield %o : f32
  } -> tensor<1024x262144xf32>
  return %y : tensor<1024x262144xf32>
}
