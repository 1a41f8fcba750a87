// IREE-dispatch-like: reduce dims 0 and 2 of 13x200x66 with the parallel dim first in the
// iteration space: (d0,d1,d2) with d0 = the kept dim (200), map x[(d1, d0, d2)], iterators
// [parallel, reduction, reduction]; f16 in, f32 accumulation, scaled output in f16.
#in = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @sum02_parfirst(%x: tensor<13x200x66xf16>) -> tensor<200xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200xf32>) -> tensor<200xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<13x200x66xf16>) outs(%f : tensor<200xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  %e2 = tensor.empty() : tensor<200xf16>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<200xf32>) outs(%e2 : tensor<200xf16>) {
  ^bb0(%a: f32, %o: f16):
    %n = arith.constant 858.0 : f32
    %d = arith.divf %a, %n : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  } -> tensor<200xf16>
  return %y : tensor<200xf16>
}
