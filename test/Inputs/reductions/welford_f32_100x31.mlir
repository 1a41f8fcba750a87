// Welford variance: one generic with 3 outputs (count, mean, m2) whose
// updates read each other's accumulators; then var = m2 / (count - 1).
#x = affine_map<(r, k) -> (r, k)>
#st = affine_map<(r, k) -> (r)>
#id = affine_map<(r) -> (r)>
func.func @welford(%x: tensor<100x31xf32>) -> (tensor<100xf32>, tensor<100xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %w:3 = linalg.generic {indexing_maps = [#x, #st, #st, #st], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x31xf32>) outs(%z, %z, %z : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  ^bb0(%a: f32, %cnt: f32, %mean: f32, %m2: f32):
    %c1 = arith.addf %cnt, %one : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.divf %d, %c1 : f32
    %mn = arith.addf %mean, %q : f32
    %d2 = arith.subf %a, %mn : f32
    %p = arith.mulf %d, %d2 : f32
    %m2n = arith.addf %m2, %p : f32
    linalg.yield %c1, %mn, %m2n : f32, f32, f32
  } -> (tensor<100xf32>, tensor<100xf32>, tensor<100xf32>)
  %e3 = tensor.empty() : tensor<100xf32>
  %var = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w#0, %w#2 : tensor<100xf32>, tensor<100xf32>) outs(%e3 : tensor<100xf32>) {
  ^bb0(%c: f32, %m: f32, %o: f32):
    %cm = arith.subf %c, %one : f32
    %v = arith.divf %m, %cm : f32
    linalg.yield %v : f32
  } -> tensor<100xf32>
  return %var, %w#1 : tensor<100xf32>, tensor<100xf32>
}
