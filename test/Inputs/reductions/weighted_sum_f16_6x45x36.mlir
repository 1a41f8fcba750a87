// A weighted sum over the middle dim, written with the reduced loop
// innermost as a frontend lowering a contraction does: out[b, n] =
// sum_k w[b, k] * x[b, k, n] over loops [b, n, k], f16 in, f32
// accumulation, scaled and rounded to f16 after. x is contiguous along n,
// a parallel loop: memopt-interchange-reductions iterates [b, k, n], a
// column reduction whose weight w[b, k] is the same for every n.
#w = affine_map<(b, n, k) -> (b, k)>
#x = affine_map<(b, n, k) -> (b, k, n)>
#o = affine_map<(b, n, k) -> (b, n)>
#id2 = affine_map<(b, n) -> (b, n)>
func.func @weighted_sum(%w: tensor<6x45xf16>, %x: tensor<6x45x36xf16>) -> tensor<6x36xf16> {
  %z = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<6x36xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x36xf32>) -> tensor<6x36xf32>
  %s = linalg.generic {indexing_maps = [#w, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<6x45xf16>, tensor<6x45x36xf16>) outs(%f : tensor<6x36xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<6x36xf32>
  %eh = tensor.empty() : tensor<6x36xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<6x36xf32>) outs(%eh : tensor<6x36xf16>) {
  ^bb0(%a: f32, %o: f16):
    %m = arith.mulf %a, %scale : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<6x36xf16>
  return %y : tensor<6x36xf16>
}
