// A layer norm as frontends write it: the f16 input is extended to f32 by
// its own op, the f32 copy is read by both reductions (the mean, then the
// centred squares) and by the epilogue, one zero fill serves both
// reductions and one tensor.empty both f32 tensors. memopt-prepare-boundary
// gives each destination its own, so the whole is one row kernel reading
// x once (401408 bytes, the minimum).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @ln(%x: tensor<64x1024xf16>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x1024xf16>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<64x1024xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x32 : tensor<64x1024xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x32, %sum : tensor<64x1024xf32>, tensor<64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %n = arith.constant 1024.0 : f32
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x32, %sum, %sq, %g, %b : tensor<64x1024xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1024xf32>, tensor<1024xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %v: f32, %gv: f32, %bv: f32, %o: f32):
    %n = arith.constant 1024.0 : f32
    %m = arith.divf %s, %n : f32
    %var = arith.divf %v, %n : f32
    %eps = arith.constant 1.0e-5 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
