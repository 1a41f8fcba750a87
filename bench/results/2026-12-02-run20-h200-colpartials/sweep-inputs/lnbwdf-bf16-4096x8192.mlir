// Bench input lnbwdf: LayerNorm backward whole: dx (bf16 in and out, f32 accumulation: the
// two row sums in one two-result generic, as frontends emit it), dgamma = sum over rows of
// dy * xhat and dbeta = sum over rows of dy (f32), one two-result column reduction.
//   xhat = (x - mean) * rstd;  g = dy * gamma
//   dx = rstd * (g - (sum(g) + xhat * sum(g * xhat)) / N)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @ln_bwd(%dy: tensor<4096x8192xbf16>, %x: tensor<4096x8192xbf16>,
                     %gamma: tensor<8192xbf16>, %mean: tensor<4096xf32>,
                     %rstd: tensor<4096xf32>)
    -> (tensor<4096x8192xbf16>, tensor<8192xf32>, tensor<8192xf32>) {
  %zero = arith.constant 0.0 : f32
  %invn = arith.constant 1.2207031250e-04 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %sums:2 = linalg.generic {indexing_maps = [#id, #id, #col, #row, #row, #row, #row],
                            iterator_types = ["parallel", "reduction"]}
      ins(%dy, %x, %gamma, %mean, %rstd : tensor<4096x8192xbf16>, tensor<4096x8192xbf16>, tensor<8192xbf16>, tensor<4096xf32>, tensor<4096xf32>)
      outs(%z, %z : tensor<4096xf32>, tensor<4096xf32>) {
  ^bb0(%dyv: bf16, %xv: bf16, %gv: bf16, %m: f32, %r: f32, %sg: f32, %sgx: f32):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %gf = arith.extf %gv : bf16 to f32
    %g = arith.mulf %dyf, %gf : f32
    %c = arith.subf %xf, %m : f32
    %xhat = arith.mulf %c, %r : f32
    %gx = arith.mulf %g, %xhat : f32
    %a = arith.addf %sg, %g : f32
    %b = arith.addf %sgx, %gx : f32
    linalg.yield %a, %b : f32, f32
  } -> (tensor<4096xf32>, tensor<4096xf32>)
  %e2 = tensor.empty() : tensor<4096x8192xbf16>
  %dx = linalg.generic {indexing_maps = [#id, #id, #col, #row, #row, #row, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %gamma, %mean, %rstd, %sums#0, %sums#1 : tensor<4096x8192xbf16>, tensor<4096x8192xbf16>, tensor<8192xbf16>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>)
      outs(%e2 : tensor<4096x8192xbf16>) {
  ^bb0(%dyv: bf16, %xv: bf16, %gv: bf16, %m: f32, %r: f32, %sg: f32, %sgx: f32, %o: bf16):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %gf = arith.extf %gv : bf16 to f32
    %g = arith.mulf %dyf, %gf : f32
    %c = arith.subf %xf, %m : f32
    %xhat = arith.mulf %c, %r : f32
    %t = arith.mulf %xhat, %sgx : f32
    %u = arith.addf %sg, %t : f32
    %v = arith.mulf %u, %invn : f32
    %w = arith.subf %g, %v : f32
    %d = arith.mulf %r, %w : f32
    %db = arith.truncf %d : f32 to bf16
    linalg.yield %db : bf16
  } -> tensor<4096x8192xbf16>
  %ec = tensor.empty() : tensor<8192xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8192xf32>) -> tensor<8192xf32>
  %dgb:2 = linalg.generic {indexing_maps = [#id, #id, #row, #row, #col, #col],
                           iterator_types = ["reduction", "parallel"]}
      ins(%dy, %x, %mean, %rstd : tensor<4096x8192xbf16>, tensor<4096x8192xbf16>, tensor<4096xf32>, tensor<4096xf32>)
      outs(%zc, %zc : tensor<8192xf32>, tensor<8192xf32>) {
  ^bb0(%dyv: bf16, %xv: bf16, %m: f32, %r: f32, %dg: f32, %db: f32):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %c = arith.subf %xf, %m : f32
    %xhat = arith.mulf %c, %r : f32
    %p = arith.mulf %dyf, %xhat : f32
    %a = arith.addf %dg, %p : f32
    %b = arith.addf %db, %dyf : f32
    linalg.yield %a, %b : f32, f32
  } -> (tensor<8192xf32>, tensor<8192xf32>)
  return %dx, %dgb#0, %dgb#1 : tensor<4096x8192xbf16>, tensor<8192xf32>, tensor<8192xf32>
}
