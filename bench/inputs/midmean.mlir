// Bench input midmean: mean over the middle dim of a 3-D tensor, f32,
// (64, 512, 1024) -> (64, 1024), as torch-mlir writes x.mean(1): a sum
// generic over [parallel, reduction, parallel] seeded by a fill, then a
// division by the reduced extent.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @midmean(%x: tensor<64x512x1024xf32>) -> tensor<64x1024xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<64x512x1024xf32>) outs(%f : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64x1024xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<64x1024xf32>
  return %m : tensor<64x1024xf32>
}
