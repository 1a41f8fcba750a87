// Bench input bnstats: batch-norm training statistics of an NCHW tensor,
// f32 (64, 128, 56, 56): per channel mean and biased variance over N, H
// and W (one two-result generic: sum and sum of squares), as
// x.mean((0, 2, 3)) and x.var((0, 2, 3), unbiased=False) give them.
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#id1 = affine_map<(c) -> (c)>
func.func @bnstats(%x: tensor<64x128x56x56xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 4.98246156e-06 : f32
  %e = tensor.empty() : tensor<128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %s:2 = linalg.generic {indexing_maps = [#x4, #ch, #ch],
                         iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<64x128x56x56xf32>) outs(%z, %z : tensor<128xf32>, tensor<128xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32):
    %s1 = arith.addf %sum, %a : f32
    %p = arith.mulf %a, %a : f32
    %q1 = arith.addf %sq, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<128xf32>, tensor<128xf32>)
  %e2 = tensor.empty() : tensor<128xf32>
  %st:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%s#0, %s#1 : tensor<128xf32>, tensor<128xf32>) outs(%e2, %e2 : tensor<128xf32>, tensor<128xf32>) {
  ^bb0(%sum: f32, %sq: f32, %o0: f32, %o1: f32):
    %mean = arith.mulf %sum, %inv : f32
    %ex2 = arith.mulf %sq, %inv : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    linalg.yield %mean, %var : f32, f32
  } -> (tensor<128xf32>, tensor<128xf32>)
  return %st#0, %st#1 : tensor<128xf32>, tensor<128xf32>
}
