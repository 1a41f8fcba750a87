// Welford's recurrence over N, H and W of an NCHW bf16 tensor with f32
// accumulators (per-channel count, mean and M2; the operands of the update
// in another order than the textbook's), then the unbiased variance.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
#id = affine_map<(c) -> (c)>
func.func @welford_nchw(%x: tensor<4x6x7x9xbf16>) -> (tensor<6xf32>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %w:3 = linalg.generic {indexing_maps = [#x, #ch, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x6x7x9xbf16>) outs(%z, %z, %z : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%b: bf16, %mean: f32, %m2: f32, %cnt: f32):
    %a = arith.extf %b : bf16 to f32
    %c1 = arith.addf %one, %cnt : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.divf %d, %c1 : f32
    %mn = arith.addf %q, %mean : f32
    %d2 = arith.subf %a, %mn : f32
    %p = arith.mulf %d2, %d : f32
    %m2n = arith.addf %p, %m2 : f32
    linalg.yield %mn, %m2n, %c1 : f32, f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  %e3 = tensor.empty() : tensor<6xf32>
  %var = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w#2, %w#1 : tensor<6xf32>, tensor<6xf32>) outs(%e3 : tensor<6xf32>) {
  ^bb0(%c: f32, %m: f32, %o: f32):
    %cm = arith.subf %c, %one : f32
    %v = arith.divf %m, %cm : f32
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %w#0, %var : tensor<6xf32>, tensor<6xf32>
}
