// Bench input ln2d: LayerNorm over the last two dims of a (32, 8, 256, 256)
// f32 tensor (F.layer_norm(x, [256, 256], weight)) as torch-mlir writes it:
// keepdim [B, S, 1, 1] statistics, a mean, the centred values, their
// variance, a weight read through (d2, d3).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#w = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ln2d(%x: tensor<32x8x256x256xf32>, %g: tensor<256x256xf32>) -> tensor<32x8x256x256xf32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 65536.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<32x8x1x1xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<32x8x1x1xf32>) -> tensor<32x8x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<32x8x256x256xf32>) outs(%f1 : tensor<32x8x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32x8x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<32x8x1x1xf32>) outs(%e1 : tensor<32x8x1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<32x8x1x1xf32>
  %e2 = tensor.empty() : tensor<32x8x256x256xf32>
  %c = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<32x8x256x256xf32>, tensor<32x8x1x1xf32>) outs(%e2 : tensor<32x8x256x256xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<32x8x256x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e1 : tensor<32x8x1x1xf32>) -> tensor<32x8x1x1xf32>
  %v = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%c : tensor<32x8x256x256xf32>) outs(%f2 : tensor<32x8x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32x8x1x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #w, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %v, %g : tensor<32x8x256x256xf32>, tensor<32x8x1x1xf32>, tensor<256x256xf32>) outs(%e2 : tensor<32x8x256x256xf32>) {
  ^bb0(%a: f32, %vv: f32, %gv: f32, %o: f32):
    %d = arith.divf %vv, %n : f32
    %de = arith.addf %d, %eps : f32
    %r = math.rsqrt %de : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  } -> tensor<32x8x256x256xf32>
  return %y : tensor<32x8x256x256xf32>
}
