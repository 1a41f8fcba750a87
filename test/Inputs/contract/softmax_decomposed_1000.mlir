// Contract input: row softmax decomposed the way frontends emit it (no linalg.softmax),
// rows of 1000 (odd width), shape 128 x 1000, fp32.
//   m[i]   = max_j x[i,j]                     (linalg.reduce, init -inf from linalg.fill)
//   e[i,j] = exp(x[i,j] - m[i])               (linalg.broadcast + linalg.sub + linalg.exp)
//   s[i]   = sum_j e[i,j]                     (linalg.reduce, init 0 from linalg.fill)
//   y[i,j] = e[i,j] / s[i]                    (linalg.broadcast + linalg.div)

func.func @softmax_decomposed_1000(%x: tensor<128x1000xf32>) -> tensor<128x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %er = tensor.empty() : tensor<128xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<128xf32>) -> tensor<128xf32>
  %m = linalg.reduce ins(%x : tensor<128x1000xf32>) outs(%minit : tensor<128xf32>)
         dimensions = [1]
    (%in: f32, %acc: f32) {
      %mx = arith.maximumf %in, %acc : f32
      linalg.yield %mx : f32
    }
  %e0 = tensor.empty() : tensor<128x1000xf32>
  %mb = linalg.broadcast ins(%m : tensor<128xf32>) outs(%e0 : tensor<128x1000xf32>)
          dimensions = [1]
  %e1 = tensor.empty() : tensor<128x1000xf32>
  %d = linalg.sub ins(%x, %mb : tensor<128x1000xf32>, tensor<128x1000xf32>)
         outs(%e1 : tensor<128x1000xf32>) -> tensor<128x1000xf32>
  %e2 = tensor.empty() : tensor<128x1000xf32>
  %ex = linalg.exp ins(%d : tensor<128x1000xf32>) outs(%e2 : tensor<128x1000xf32>)
          -> tensor<128x1000xf32>
  %er2 = tensor.empty() : tensor<128xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er2 : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.reduce ins(%ex : tensor<128x1000xf32>) outs(%sinit : tensor<128xf32>)
         dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %e3 = tensor.empty() : tensor<128x1000xf32>
  %sb = linalg.broadcast ins(%s : tensor<128xf32>) outs(%e3 : tensor<128x1000xf32>)
          dimensions = [1]
  %e4 = tensor.empty() : tensor<128x1000xf32>
  %y = linalg.div ins(%ex, %sb : tensor<128x1000xf32>, tensor<128x1000xf32>)
         outs(%e4 : tensor<128x1000xf32>) -> tensor<128x1000xf32>
  return %y : tensor<128x1000xf32>
}
