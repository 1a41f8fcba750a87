// Mean over the middle dim of a 3-D tensor: bf16 in, f32 accumulation and
// out, (3, 77, 30) -> (3, 30), as torch-mlir writes x.float().mean(1): a
// [parallel, reduction, parallel] sum seeded by a fill, then the division.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @midmean(%x: tensor<3x77x30xbf16>) -> tensor<3x30xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 77.0 : f32
  %e = tensor.empty() : tensor<3x30xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x30xf32>) -> tensor<3x30xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<3x77x30xbf16>) outs(%f : tensor<3x30xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3x30xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<3x30xf32>) outs(%e : tensor<3x30xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<3x30xf32>
  return %m : tensor<3x30xf32>
}
