// Batch-norm training forward NCHW in bf16 with f32 statistics over N, H
// and W: the sum of extf(x), and the sum of squares of extf(x) about a
// running mean passed in (written m - x); normalized with the batch mean
// and that variance, bf16 out.
#x = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @bn_running(%x: tensor<5x6x9x15xbf16>, %rm: tensor<6xf32>) -> (tensor<5x6x9x15xbf16>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.48148148e-03 : f32  // 1/675
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [#x, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<5x6x9x15xbf16>) outs(%z : tensor<6xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sq = linalg.generic {indexing_maps = [#x, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %rm : tensor<5x6x9x15xbf16>, tensor<6xf32>) outs(%z2 : tensor<6xf32>) {
  ^bb0(%a: bf16, %m: f32, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %m, %w : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %eo = tensor.empty() : tensor<5x6x9x15xbf16>
  %y = linalg.generic {indexing_maps = [#x, #ch, #ch, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %sq : tensor<5x6x9x15xbf16>, tensor<6xf32>, tensor<6xf32>) outs(%eo : tensor<5x6x9x15xbf16>) {
  ^bb0(%a: bf16, %s: f32, %q: f32, %o: bf16):
    %mean = arith.mulf %s, %inv : f32
    %v = arith.mulf %q, %inv : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %mean : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.truncf %n : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<5x6x9x15xbf16>
  return %y, %sq : tensor<5x6x9x15xbf16>, tensor<6xf32>
}
