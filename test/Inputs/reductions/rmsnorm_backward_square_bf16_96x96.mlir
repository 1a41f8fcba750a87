// RMSNorm backward bf16 of a square shape (96x96), rstd [rows, 1]: after CSE
// the row sums and dgamma share one tensor.empty and one fill, so the fill of
// dgamma's [96] output has the row space of the 96 rows and joins the row
// group; it is split off again so that dgamma joins as column partials.
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_bwd(%dy: tensor<96x96xbf16>, %x: tensor<96x96xbf16>,
                   %gamma: tensor<96xbf16>, %rstd: tensor<96x1xf32>)
    -> (tensor<96x96xbf16>, tensor<96xf32>) {
  %zero = arith.constant 0.0 : f32
  %invn = arith.constant 1.0416666666666666e-02 : f32
  %e = tensor.empty() : tensor<96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<96xf32>) -> tensor<96xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #col, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%dy, %x, %gamma : tensor<96x96xbf16>, tensor<96x96xbf16>, tensor<96xbf16>)
      outs(%z : tensor<96xf32>) {
  ^bb0(%dyv: bf16, %xv: bf16, %gv: bf16, %acc: f32):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %gf = arith.extf %gv : bf16 to f32
    %g = arith.mulf %dyf, %gf : f32
    %p = arith.mulf %g, %xf : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<96xf32>
  %e2 = tensor.empty() : tensor<96x96xbf16>
  %dx = linalg.generic {indexing_maps = [#id, #id, #col, #keep, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %gamma, %rstd, %s : tensor<96x96xbf16>, tensor<96x96xbf16>, tensor<96xbf16>, tensor<96x1xf32>, tensor<96xf32>)
      outs(%e2 : tensor<96x96xbf16>) {
  ^bb0(%dyv: bf16, %xv: bf16, %gv: bf16, %r: f32, %sv: f32, %o: bf16):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %gf = arith.extf %gv : bf16 to f32
    %g = arith.mulf %dyf, %gf : f32
    %t0 = arith.mulf %r, %g : f32
    %r2 = arith.mulf %r, %r : f32
    %r3 = arith.mulf %r2, %r : f32
    %m = arith.mulf %sv, %invn : f32
    %t1 = arith.mulf %xf, %r3 : f32
    %t2 = arith.mulf %t1, %m : f32
    %d = arith.subf %t0, %t2 : f32
    %db = arith.truncf %d : f32 to bf16
    linalg.yield %db : bf16
  } -> tensor<96x96xbf16>
  %ec = tensor.empty() : tensor<96xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<96xf32>) -> tensor<96xf32>
  %dg = linalg.generic {indexing_maps = [#id, #id, #keep, #col],
                        iterator_types = ["reduction", "parallel"]}
      ins(%dy, %x, %rstd : tensor<96x96xbf16>, tensor<96x96xbf16>, tensor<96x1xf32>)
      outs(%zc : tensor<96xf32>) {
  ^bb0(%dyv: bf16, %xv: bf16, %r: f32, %acc: f32):
    %dyf = arith.extf %dyv : bf16 to f32
    %xf = arith.extf %xv : bf16 to f32
    %p = arith.mulf %dyf, %xf : f32
    %q = arith.mulf %p, %r : f32
    %a = arith.addf %acc, %q : f32
    linalg.yield %a : f32
  } -> tensor<96xf32>
  return %dx, %dg : tensor<96x96xbf16>, tensor<96xf32>
}
