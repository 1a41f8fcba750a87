// Bench input lsef32: log-sum-exp over rows of 131072 f32 logits, 1024
// rows, written as a frontend that materializes exp(x - max) as its own
// op writes it (maxnumf with the accumulator first, exp in an elementwise
// op, a plain sum, log(sum) + max; keepdim [1024, 1] results).
// Minimum bytes: x 536,870,912 + 1024 f32 results.
#id = affine_map<(d0, d1) -> (d0, d1)>
#k = affine_map<(d0, d1) -> (d0, 0)>
func.func @lsef32(%x: tensor<1024x131072xf32>) -> tensor<1024x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x131072xf32>) outs(%f0 : tensor<1024x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maxnumf %o, %a : f32
    linalg.yield %v : f32
  } -> tensor<1024x1xf32>
  %ee = tensor.empty() : tensor<1024x131072xf32>
  %ex = linalg.generic {indexing_maps = [#id, #k, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<1024x131072xf32>, tensor<1024x1xf32>) outs(%ee : tensor<1024x131072xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1024x131072xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #k], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<1024x131072xf32>) outs(%f1 : tensor<1024x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %o, %a : f32
    linalg.yield %v : f32
  } -> tensor<1024x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sm, %mx : tensor<1024x1xf32>, tensor<1024x1xf32>) outs(%e : tensor<1024x1xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %v = arith.addf %l, %m : f32
    linalg.yield %v : f32
  } -> tensor<1024x1xf32>
  return %y : tensor<1024x1xf32>
}
