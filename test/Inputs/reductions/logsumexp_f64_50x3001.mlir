// Log-sum-exp over rows of 3001 f64 (torch.logsumexp(x, 1) in double):
// the row maximum, then log(sum(exp(x - max))) + max. Uses f64 exp and log.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#one = affine_map<(d0) -> (d0)>
func.func @lse64(%x: tensor<50x3001xf64>) -> tensor<50xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<50xf64>
  %mi = linalg.fill ins(%ninf : f64) outs(%e : tensor<50xf64>) -> tensor<50xf64>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<50x3001xf64>) outs(%mi : tensor<50xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.maximumf %acc, %a : f64
    linalg.yield %r : f64
  } -> tensor<50xf64>
  %si = linalg.fill ins(%zero : f64) outs(%e : tensor<50xf64>) -> tensor<50xf64>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<50x3001xf64>, tensor<50xf64>) outs(%si : tensor<50xf64>) {
  ^bb0(%a: f64, %mx: f64, %acc: f64):
    %d = arith.subf %a, %mx : f64
    %ex = math.exp %d : f64
    %r = arith.addf %acc, %ex : f64
    linalg.yield %r : f64
  } -> tensor<50xf64>
  %o = linalg.generic {indexing_maps = [#one, #one, #one], iterator_types = ["parallel"]}
      ins(%s, %m : tensor<50xf64>, tensor<50xf64>) outs(%e : tensor<50xf64>) {
  ^bb0(%a: f64, %mx: f64, %out: f64):
    %l = math.log %a : f64
    %r = arith.addf %l, %mx : f64
    linalg.yield %r : f64
  } -> tensor<50xf64>
  return %o : tensor<50xf64>
}
