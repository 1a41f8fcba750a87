// Cross entropy over dense (one-hot or smoothed) targets, bf16 logits with
// f32 accumulation: log-sum-exp(x) - sum(x * t) per row, the two sums in one
// two-result generic, as a frontend writes it. 16 rows of 12800: too few
// rows for the GPU; the sum of x * t stays in the log-sum-exp row kernel
// (it reads x) rather than split into a grid of its own.
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @ce(%x: tensor<16x12800xbf16>, %t: tensor<16x12800xbf16>) -> tensor<16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %fz = linalg.fill ins(%z : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x12800xbf16>) outs(%fm : tensor<16xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %q = arith.maximumf %w, %o : f32
    linalg.yield %q : f32
  } -> tensor<16xf32>
  %s:2 = linalg.generic {indexing_maps = [#id, #id, #r, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x, %t, %m : tensor<16x12800xbf16>, tensor<16x12800xbf16>, tensor<16xf32>) outs(%fz, %fz : tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%a: bf16, %b: bf16, %mx: f32, %o: f32, %o2: f32):
    %w = arith.extf %a : bf16 to f32
    %tw = arith.extf %b : bf16 to f32
    %d = arith.subf %w, %mx : f32
    %ex = math.exp %d : f32
    %q = arith.addf %ex, %o : f32
    %p = arith.mulf %w, %tw : f32
    %q2 = arith.addf %p, %o2 : f32
    linalg.yield %q, %q2 : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  %out = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s#0, %s#1, %m : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %mx: f32, %o: f32):
    %l = math.log %a : f32
    %lse = arith.addf %l, %mx : f32
    %r = arith.subf %lse, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %out : tensor<16xf32>
}
