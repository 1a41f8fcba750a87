// Per-column mean and biased variance of a bf16 matrix (333 x 200), f32
// accumulation: one two-result generic reducing dim 0 (sum, sum of
// squares), then an elementwise mean/variance. The optimized plan reads x
// once: the split sums are sibling column reductions of one kernel, the
// statistics its epilogue.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @colstats(%x: tensor<333x200xbf16>) -> (tensor<200xf32>, tensor<200xf32>) {
  %z = arith.constant 0.0 : f32
  %inv = arith.constant 3.003003e-03 : f32
  %e = tensor.empty() : tensor<200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200xf32>) -> tensor<200xf32>
  %s:2 = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<333x200xbf16>) outs(%f, %f : tensor<200xf32>, tensor<200xf32>) {
  ^bb0(%a: bf16, %sum: f32, %sq: f32):
    %w = arith.extf %a : bf16 to f32
    %s1 = arith.addf %sum, %w : f32
    %p = arith.mulf %w, %w : f32
    %q1 = arith.addf %sq, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<200xf32>, tensor<200xf32>)
  %e2 = tensor.empty() : tensor<200xf32>
  %st:2 = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]}
      ins(%s#0, %s#1 : tensor<200xf32>, tensor<200xf32>) outs(%e2, %e2 : tensor<200xf32>, tensor<200xf32>) {
  ^bb0(%sum: f32, %sq: f32, %o0: f32, %o1: f32):
    %mean = arith.mulf %sum, %inv : f32
    %ex2 = arith.mulf %sq, %inv : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    linalg.yield %mean, %var : f32, f32
  } -> (tensor<200xf32>, tensor<200xf32>)
  return %st#0, %st#1 : tensor<200xf32>, tensor<200xf32>
}
