// Contract input: multi-output function returning both the residual sum and its
// LayerNorm (the pre-norm transformer block pattern), fp32, shape 32 x 512.
//   h[i,j] = x[i,j] + r[i,j]                                  (returned: result 0)
//   mean[i] = sum_j h[i,j] / 512; var[i] = sum_j (h[i,j] - mean[i])^2 / 512
//   y[i,j] = (h[i,j] - mean[i]) * rsqrt(var[i] + 1e-5) * g[j] + b[j]  (returned: result 1)
// Written StableHLO-to-linalg style: named linalg.add/sub/mul, linalg.reduce,
// linalg.broadcast of row statistics and of g/b; scalars enter via linalg.fill.
// h is both a function result and an input of the normalization, so it must be stored.

func.func @add_layernorm_multiout_32x512(%x: tensor<32x512xf32>, %r: tensor<32x512xf32>,
                                         %g: tensor<512xf32>, %b: tensor<512xf32>)
    -> (tensor<32x512xf32>, tensor<32x512xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %inv_n = arith.constant 1.953125e-03 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e2d = tensor.empty() : tensor<32x512xf32>
  %e1d = tensor.empty() : tensor<32xf32>
  %h = linalg.add ins(%x, %r : tensor<32x512xf32>, tensor<32x512xf32>)
         outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  // mean = sum(h) * (1/512)
  %z0 = linalg.fill ins(%zero : f32) outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.reduce ins(%h : tensor<32x512xf32>) outs(%z0 : tensor<32xf32>)
           dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %invn = linalg.fill ins(%inv_n : f32) outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %mean = linalg.mul ins(%sum, %invn : tensor<32xf32>, tensor<32xf32>)
            outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %meanb = linalg.broadcast ins(%mean : tensor<32xf32>) outs(%e2d : tensor<32x512xf32>)
             dimensions = [1]
  %c = linalg.sub ins(%h, %meanb : tensor<32x512xf32>, tensor<32x512xf32>)
         outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  // var = sum(c*c) * (1/512)
  %c2 = linalg.mul ins(%c, %c : tensor<32x512xf32>, tensor<32x512xf32>)
          outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %ssq = linalg.reduce ins(%c2 : tensor<32x512xf32>) outs(%z1 : tensor<32xf32>)
           dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %var = linalg.mul ins(%ssq, %invn : tensor<32xf32>, tensor<32xf32>)
           outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %epsv = linalg.fill ins(%eps : f32) outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %ve = linalg.add ins(%var, %epsv : tensor<32xf32>, tensor<32xf32>)
          outs(%e1d : tensor<32xf32>) -> tensor<32xf32>
  %rstd = linalg.rsqrt ins(%ve : tensor<32xf32>) outs(%e1d : tensor<32xf32>)
            -> tensor<32xf32>
  %rstdb = linalg.broadcast ins(%rstd : tensor<32xf32>) outs(%e2d : tensor<32x512xf32>)
             dimensions = [1]
  %n = linalg.mul ins(%c, %rstdb : tensor<32x512xf32>, tensor<32x512xf32>)
         outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  %gb = linalg.broadcast ins(%g : tensor<512xf32>) outs(%e2d : tensor<32x512xf32>)
          dimensions = [0]
  %bb = linalg.broadcast ins(%b : tensor<512xf32>) outs(%e2d : tensor<32x512xf32>)
          dimensions = [0]
  %ng = linalg.mul ins(%n, %gb : tensor<32x512xf32>, tensor<32x512xf32>)
          outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  %y = linalg.add ins(%ng, %bb : tensor<32x512xf32>, tensor<32x512xf32>)
         outs(%e2d : tensor<32x512xf32>) -> tensor<32x512xf32>
  return %h, %y : tensor<32x512xf32>, tensor<32x512xf32>
}
