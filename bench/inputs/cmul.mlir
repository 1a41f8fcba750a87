// Bench input cmul: complex multiplication of interleaved (re, im) f32
// arrays [4096, 8192, 2], as torch.view_as_real(a * b) lowers (one generic
// reading both operands at fields 0 and 1).
#re = affine_map<(b, n, c) -> (b, n, 0)>
#im = affine_map<(b, n, c) -> (b, n, 1)>
#id = affine_map<(b, n, c) -> (b, n, c)>
func.func @complex_mul(%a: tensor<4096x8192x2xf32>, %b: tensor<4096x8192x2xf32>) -> tensor<4096x8192x2xf32> {
  %e = tensor.empty() : tensor<4096x8192x2xf32>
  %r = linalg.generic {indexing_maps = [#re, #im, #re, #im, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %a, %b, %b : tensor<4096x8192x2xf32>, tensor<4096x8192x2xf32>, tensor<4096x8192x2xf32>, tensor<4096x8192x2xf32>) outs(%e : tensor<4096x8192x2xf32>) {
  ^bb0(%ar: f32, %ai: f32, %br: f32, %bi: f32, %o: f32):
    %k = linalg.index 2 : index
    %c1 = arith.constant 1 : index
    %isim = arith.cmpi eq, %k, %c1 : index
    %rr = arith.mulf %ar, %br : f32
    %ii = arith.mulf %ai, %bi : f32
    %ri = arith.mulf %ar, %bi : f32
    %ir = arith.mulf %ai, %br : f32
    %re = arith.subf %rr, %ii : f32
    %im = arith.addf %ri, %ir : f32
    %v = arith.select %isim, %im, %re : f32
    linalg.yield %v : f32
  } -> tensor<4096x8192x2xf32>
  return %r : tensor<4096x8192x2xf32>
}
