// var_mean via E[x^2] - E[x]^2 in one two-result generic, keepdim [B,S,1], bf16 in, f32 out, then normalize
#id = affine_map<(b, s, d) -> (b, s, d)>
#k = affine_map<(b, s, d) -> (b, s, 0)>
func.func @vm(%x: tensor<3x100x1536xbf16>) -> (tensor<3x100x1536xbf16>, tensor<3x100x1xf32>, tensor<3x100x1xf32>) {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 6.51041686e-04 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<3x100x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x100x1xf32>) -> tensor<3x100x1xf32>
  %s:2 = linalg.generic {indexing_maps = [#id, #k, #k], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x100x1536xbf16>) outs(%f, %f : tensor<3x100x1xf32>, tensor<3x100x1xf32>) {
  ^bb0(%a: bf16, %o1: f32, %o2: f32):
    %w = arith.extf %a : bf16 to f32
    %q = arith.mulf %w, %w : f32
    %r1 = arith.addf %w, %o1 : f32
    %r2 = arith.addf %q, %o2 : f32
    linalg.yield %r1, %r2 : f32, f32
  } -> (tensor<3x100x1xf32>, tensor<3x100x1xf32>)
  %st:2 = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b, s, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s#0, %s#1 : tensor<3x100x1xf32>, tensor<3x100x1xf32>) outs(%e, %e : tensor<3x100x1xf32>, tensor<3x100x1xf32>) {
  ^bb0(%a: f32, %b: f32, %o1: f32, %o2: f32):
    %m = arith.mulf %a, %n : f32
    %m2 = arith.mulf %b, %n : f32
    %mm = arith.mulf %m, %m : f32
    %v = arith.subf %m2, %mm : f32
    linalg.yield %m, %v : f32, f32
  } -> (tensor<3x100x1xf32>, tensor<3x100x1xf32>)
  %e3 = tensor.empty() : tensor<3x100x1536xbf16>
  %y = linalg.generic {indexing_maps = [#id, #k, #k, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %st#0, %st#1 : tensor<3x100x1536xbf16>, tensor<3x100x1xf32>, tensor<3x100x1xf32>) outs(%e3 : tensor<3x100x1536xbf16>) {
  ^bb0(%a: bf16, %m: f32, %v: f32, %o: bf16):
    %w = arith.extf %a : bf16 to f32
    %c = arith.subf %w, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %nn = arith.mulf %c, %r : f32
    %t = arith.truncf %nn : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x100x1536xbf16>
  return %y, %st#0, %st#1 : tensor<3x100x1536xbf16>, tensor<3x100x1xf32>, tensor<3x100x1xf32>
}
