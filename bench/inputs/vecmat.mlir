// Bench input vecmat: a decode step's projection, x @ W for one token, as
// a named linalg.vecmat: x [4096] bf16, W [4096, 14336] bf16, f32
// accumulation, rounded to bf16 (torch's x @ W). Its reduced loop is
// innermost in the named op's loops while W is contiguous along the
// outputs: memopt-interchange-reductions makes it a column reduction.
func.func @vecmat(%x: tensor<4096xbf16>, %w: tensor<4096x14336xbf16>) -> tensor<14336xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<14336xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<14336xf32>) -> tensor<14336xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<4096xbf16>, tensor<4096x14336xbf16>) outs(%f : tensor<14336xf32>) -> tensor<14336xf32>
  %eb = tensor.empty() : tensor<14336xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%y : tensor<14336xf32>) outs(%eb : tensor<14336xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<14336xbf16>
  return %r : tensor<14336xbf16>
}
