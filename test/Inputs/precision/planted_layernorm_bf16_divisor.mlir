// PLANTED ERROR, perturbs layernorm_bf16_8x50176.mlir: identical except the
// variance divisor is 50176*1.1 (= 55193.6, which is 55296 in bf16, 10.2% too
// large) instead of 50176 (the mean still divides by 50176), so y is about
// 4.7% too large (sqrt(1.102)). bf16 out, 8 x 50176.
func.func @layernorm_bf16_8x50176(%x: tensor<8x50176xbf16>) -> tensor<8x50176xbf16> {
  %zero = arith.constant 0.000000e+00 : bf16
  %n = arith.constant 5.017600e+04 : bf16
  %nv = arith.constant 5.529600e+04 : bf16
  %eps = arith.constant 1.000000e-05 : bf16
  // mean = sum(x) / N, bf16 accumulator
  %e0 = tensor.empty() : tensor<8xbf16>
  %z0 = linalg.fill ins(%zero : bf16) outs(%e0 : tensor<8xbf16>) -> tensor<8xbf16>
  %sum = linalg.reduce ins(%x : tensor<8x50176xbf16>) outs(%z0 : tensor<8xbf16>)
           dimensions = [1]
    (%in: bf16, %acc: bf16) {
      %s = arith.addf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  %e1 = tensor.empty() : tensor<8xbf16>
  %nt = linalg.fill ins(%n : bf16) outs(%e1 : tensor<8xbf16>) -> tensor<8xbf16>
  %e2 = tensor.empty() : tensor<8xbf16>
  %mean = linalg.div ins(%sum, %nt : tensor<8xbf16>, tensor<8xbf16>)
            outs(%e2 : tensor<8xbf16>) -> tensor<8xbf16>
  // d = x - mean
  %e3 = tensor.empty() : tensor<8x50176xbf16>
  %mb = linalg.broadcast ins(%mean : tensor<8xbf16>) outs(%e3 : tensor<8x50176xbf16>)
          dimensions = [1]
  %e4 = tensor.empty() : tensor<8x50176xbf16>
  %d = linalg.sub ins(%x, %mb : tensor<8x50176xbf16>, tensor<8x50176xbf16>)
         outs(%e4 : tensor<8x50176xbf16>) -> tensor<8x50176xbf16>
  // var = sum(d*d) / N, bf16 accumulator
  %e5 = tensor.empty() : tensor<8x50176xbf16>
  %d2 = linalg.mul ins(%d, %d : tensor<8x50176xbf16>, tensor<8x50176xbf16>)
          outs(%e5 : tensor<8x50176xbf16>) -> tensor<8x50176xbf16>
  %e6 = tensor.empty() : tensor<8xbf16>
  %z6 = linalg.fill ins(%zero : bf16) outs(%e6 : tensor<8xbf16>) -> tensor<8xbf16>
  %ssq = linalg.reduce ins(%d2 : tensor<8x50176xbf16>) outs(%z6 : tensor<8xbf16>)
           dimensions = [1]
    (%in: bf16, %acc: bf16) {
      %s = arith.addf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  // rs = rsqrt(var + eps)
  %e7 = tensor.empty() : tensor<8xbf16>
  %rs = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%ssq : tensor<8xbf16>) outs(%e7 : tensor<8xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %v = arith.divf %a, %nv : bf16
    %ve = arith.addf %v, %eps : bf16
    %q = math.rsqrt %ve : bf16
    linalg.yield %q : bf16
  } -> tensor<8xbf16>
  // y = d * rs
  %e8 = tensor.empty() : tensor<8x50176xbf16>
  %rb = linalg.broadcast ins(%rs : tensor<8xbf16>) outs(%e8 : tensor<8x50176xbf16>)
          dimensions = [1]
  %e9 = tensor.empty() : tensor<8x50176xbf16>
  %y = linalg.mul ins(%d, %rb : tensor<8x50176xbf16>, tensor<8x50176xbf16>)
         outs(%e9 : tensor<8x50176xbf16>) -> tensor<8x50176xbf16>
  return %y : tensor<8x50176xbf16>
}
