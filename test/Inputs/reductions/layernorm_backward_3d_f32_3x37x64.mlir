// LayerNorm backward over the last dim of a [batch, seq, hidden] f32 tensor:
// the row sums as two named-op-style single-output generics, dx, then dgamma
// (a generic over (d0, d1, d2) reducing d0 and d1) and dbeta as a named
// linalg.reduce over dimensions [0, 1].
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#col = affine_map<(d0, d1, d2) -> (d2)>
func.func @ln_bwd_3d(%dy: tensor<3x37x64xf32>, %x: tensor<3x37x64xf32>,
                     %gamma: tensor<64xf32>, %mean: tensor<3x37xf32>,
                     %rstd: tensor<3x37xf32>)
    -> (tensor<3x37x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %invn = arith.constant 1.5625000000e-02 : f32
  %e = tensor.empty() : tensor<3x37xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x37xf32>) -> tensor<3x37xf32>
  %sg = linalg.generic {indexing_maps = [#id, #col, #row],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %gamma : tensor<3x37x64xf32>, tensor<64xf32>) outs(%z : tensor<3x37xf32>) {
  ^bb0(%d: f32, %g: f32, %acc: f32):
    %p = arith.mulf %d, %g : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<3x37xf32>
  %sgx = linalg.generic {indexing_maps = [#id, #id, #col, #row, #row, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %x, %gamma, %mean, %rstd : tensor<3x37x64xf32>, tensor<3x37x64xf32>, tensor<64xf32>, tensor<3x37xf32>, tensor<3x37xf32>)
      outs(%z : tensor<3x37xf32>) {
  ^bb0(%d: f32, %xv: f32, %g: f32, %m: f32, %r: f32, %acc: f32):
    %p = arith.mulf %d, %g : f32
    %c = arith.subf %xv, %m : f32
    %xh = arith.mulf %c, %r : f32
    %q = arith.mulf %p, %xh : f32
    %a = arith.addf %acc, %q : f32
    linalg.yield %a : f32
  } -> tensor<3x37xf32>
  %e2 = tensor.empty() : tensor<3x37x64xf32>
  %dx = linalg.generic {indexing_maps = [#id, #id, #col, #row, #row, #row, #row, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dy, %x, %gamma, %mean, %rstd, %sg, %sgx : tensor<3x37x64xf32>, tensor<3x37x64xf32>, tensor<64xf32>, tensor<3x37xf32>, tensor<3x37xf32>, tensor<3x37xf32>, tensor<3x37xf32>)
      outs(%e2 : tensor<3x37x64xf32>) {
  ^bb0(%d: f32, %xv: f32, %g: f32, %m: f32, %r: f32, %s1: f32, %s2: f32, %o: f32):
    %p = arith.mulf %d, %g : f32
    %c = arith.subf %xv, %m : f32
    %xh = arith.mulf %c, %r : f32
    %t = arith.mulf %xh, %s2 : f32
    %u = arith.addf %s1, %t : f32
    %v = arith.mulf %u, %invn : f32
    %w = arith.subf %p, %v : f32
    %res = arith.mulf %r, %w : f32
    linalg.yield %res : f32
  } -> tensor<3x37x64xf32>
  %ec = tensor.empty() : tensor<64xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<64xf32>) -> tensor<64xf32>
  %dg = linalg.generic {indexing_maps = [#id, #id, #row, #row, #col],
                        iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%dy, %x, %mean, %rstd : tensor<3x37x64xf32>, tensor<3x37x64xf32>, tensor<3x37xf32>, tensor<3x37xf32>)
      outs(%zc : tensor<64xf32>) {
  ^bb0(%d: f32, %xv: f32, %m: f32, %r: f32, %acc: f32):
    %c = arith.subf %xv, %m : f32
    %xh = arith.mulf %c, %r : f32
    %q = arith.mulf %d, %xh : f32
    %a = arith.addf %acc, %q : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%ec : tensor<64xf32>) -> tensor<64xf32>
  %db = linalg.reduce ins(%dy : tensor<3x37x64xf32>) outs(%zb : tensor<64xf32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  return %dx, %dg, %db : tensor<3x37x64xf32>, tensor<64xf32>, tensor<64xf32>
}
