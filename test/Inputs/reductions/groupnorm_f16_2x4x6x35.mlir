// Group norm as frontends write it after reshaping NCHW to (N, G, C/G, HW):
// f16 in, statistics accumulated in f32 over the two inner dims (one
// two-result generic: sum and sum of squares), f32 out.
//   mean = sum(x) / 210, var = sum(x^2) / 210 - mean^2,
//   y = (x - mean) * rsqrt(var + 1e-5)
#x4 = affine_map<(n, g, c, s) -> (n, g, c, s)>
#st = affine_map<(n, g, c, s) -> (n, g)>
#id2 = affine_map<(n, g) -> (n, g)>
func.func @groupnorm(%x: tensor<2x4x6x35xf16>) -> tensor<2x4x6x35xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 4.76190476e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s:2 = linalg.generic {indexing_maps = [#x4, #st, #st],
                         iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x4x6x35xf16>) outs(%z, %z : tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%a: f16, %sum: f32, %sq: f32):
    %f = arith.extf %a : f16 to f32
    %s1 = arith.addf %sum, %f : f32
    %p = arith.mulf %f, %f : f32
    %q1 = arith.addf %sq, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %e2 = tensor.empty() : tensor<2x4xf32>
  %stats:2 = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2],
                             iterator_types = ["parallel", "parallel"]}
      ins(%s#0, %s#1 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2, %e2 : tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%sum: f32, %sq: f32, %o0: f32, %o1: f32):
    %mean = arith.mulf %sum, %inv : f32
    %ms = arith.mulf %sq, %inv : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ms, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %mean, %r : f32, f32
  } -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %e3 = tensor.empty() : tensor<2x4x6x35xf32>
  %y = linalg.generic {indexing_maps = [#x4, #st, #st, #x4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %stats#0, %stats#1 : tensor<2x4x6x35xf16>, tensor<2x4xf32>, tensor<2x4xf32>)
      outs(%e3 : tensor<2x4x6x35xf32>) {
  ^bb0(%a: f16, %mean: f32, %r: f32, %o: f32):
    %f = arith.extf %a : f16 to f32
    %d = arith.subf %f, %mean : f32
    %n = arith.mulf %d, %r : f32
    linalg.yield %n : f32
  } -> tensor<2x4x6x35xf32>
  return %y : tensor<2x4x6x35xf32>
}
