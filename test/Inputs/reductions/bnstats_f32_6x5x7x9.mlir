// Batch-norm training statistics of an NCHW tensor, f32 (6, 5, 7, 9): per
// channel mean and biased variance over N, H and W from one two-result
// generic (sum, sum of squares) whose reduced loops are not adjacent.
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#id1 = affine_map<(c) -> (c)>
func.func @bnstats(%x: tensor<6x5x7x9xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 2.64550265e-03 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s:2 = linalg.generic {indexing_maps = [#x4, #ch, #ch],
                         iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<6x5x7x9xf32>) outs(%z, %z : tensor<5xf32>, tensor<5xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32):
    %s1 = arith.addf %sum, %a : f32
    %p = arith.mulf %a, %a : f32
    %q1 = arith.addf %sq, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<5xf32>, tensor<5xf32>)
  %e2 = tensor.empty() : tensor<5xf32>
  %st:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%s#0, %s#1 : tensor<5xf32>, tensor<5xf32>) outs(%e2, %e2 : tensor<5xf32>, tensor<5xf32>) {
  ^bb0(%sum: f32, %sq: f32, %o0: f32, %o1: f32):
    %mean = arith.mulf %sum, %inv : f32
    %ex2 = arith.mulf %sq, %inv : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    linalg.yield %mean, %var : f32, f32
  } -> (tensor<5xf32>, tensor<5xf32>)
  return %st#0, %st#1 : tensor<5xf32>, tensor<5xf32>
}
