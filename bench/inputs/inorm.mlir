// Bench input inorm: instance norm of an NCHW f32 tensor (16, 64, 128, 128)
// as torch-mlir writes F.instance_norm with affine weights: sum and sum of
// squares per (n, c) over (H, W) with keepdim [N, C, 1, 1] statistics read
// through (n, c, 0, 0), then (x - mean) * rsqrt(var + eps) * g[c] + b[c].
#x4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#keep = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @inorm(%x: tensor<16x64x128x128xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 6.10351562e-05 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<16x64x1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64x1x1xf32>) -> tensor<16x64x1x1xf32>
  %s:2 = linalg.generic {indexing_maps = [#x4, #keep, #keep],
                         iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<16x64x128x128xf32>) outs(%z, %z : tensor<16x64x1x1xf32>, tensor<16x64x1x1xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32):
    %s1 = arith.addf %sum, %a : f32
    %p = arith.mulf %a, %a : f32
    %q1 = arith.addf %sq, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<16x64x1x1xf32>, tensor<16x64x1x1xf32>)
  %eo = tensor.empty() : tensor<16x64x128x128xf32>
  %y = linalg.generic {indexing_maps = [#x4, #keep, #keep, #ch, #ch, #x4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s#0, %s#1, %g, %b : tensor<16x64x128x128xf32>, tensor<16x64x1x1xf32>, tensor<16x64x1x1xf32>, tensor<64xf32>, tensor<64xf32>)
      outs(%eo : tensor<16x64x128x128xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %gg: f32, %bb: f32, %o: f32):
    %mean = arith.mulf %sum, %inv : f32
    %ms = arith.mulf %sq, %inv : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ms, %m2 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %mean : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %gg : f32
    %u = arith.addf %t, %bb : f32
    linalg.yield %u : f32
  } -> tensor<16x64x128x128xf32>
  return %y : tensor<16x64x128x128xf32>
}
