// Accuracy program (log-sum-exp of [x, 0] for every bf16 value x, in f32:
// log(exp(x - m) + exp(0 - m)) + m, m = max(x, 0)): bench/accuracy.py feeds
// it all 65536 bit patterns and compares with f64. Its exps, only summed,
// flush results below 2^-126 to zero in the approximate build
// (memopt-approximate-math); every |x| > 87 makes one such term. The
// second input, zeros (bench/accuracy.py zero-fills every buffer but the
// first), gives the rows their second element.
#r = affine_map<(d0, d1) -> (d0)>
#c = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @lse2_bf16(%x: tensor<65536xbf16>, %zs: tensor<2xf32>) -> tensor<65536xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<65536xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<65536xf32>) -> tensor<65536xf32>
  %mx = linalg.generic {indexing_maps = [#r, #c, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x, %zs : tensor<65536xbf16>, tensor<2xf32>) outs(%f0 : tensor<65536xf32>) {
  ^bb0(%a: bf16, %z: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %j = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %j, %c0 : index
    %val = arith.select %first, %w, %z : f32
    %m = arith.maximumf %val, %o : f32
    linalg.yield %m : f32
  } -> tensor<65536xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<65536xf32>) -> tensor<65536xf32>
  %sm = linalg.generic {indexing_maps = [#r, #c, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x, %zs, %mx : tensor<65536xbf16>, tensor<2xf32>, tensor<65536xf32>) outs(%f1 : tensor<65536xf32>) {
  ^bb0(%a: bf16, %z: f32, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %j = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %j, %c0 : index
    %val = arith.select %first, %w, %z : f32
    %d = arith.subf %val, %m : f32
    %p = math.exp %d : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<65536xf32>, tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<65536xf32>
  return %y : tensor<65536xf32>
}
