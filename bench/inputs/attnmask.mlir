// Bench input attnmask: attention-score softmax(x * scale + mask) over rows
// of 2048 f32, as torch-mlir lowers F.softmax(s * 0.125 + mask, -1): the
// mask [B, 1, S, S] broadcast over the 8 heads through a keepdim map, the
// softmax decomposed into a keepdim max, exp, sum and divide.
// Minimum bytes: x and y 2x8x2048x2048 f32 (268,435,456 each), the mask
// 2x1x2048x2048 f32 (33,554,432): 570,425,344. In row order each head's
// sweep (2048 rows of x and y, 33.5 MB) evicts the mask from L2.
#x4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#r4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @attnmask(%x: tensor<2x8x2048x2048xf32>, %mask: tensor<2x1x2048x2048xf32>) -> tensor<2x8x2048x2048xf32> {
  %scale = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x2048x2048xf32>
  %s = linalg.generic {indexing_maps = [#x4, #m4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mask : tensor<2x8x2048x2048xf32>, tensor<2x1x2048x2048xf32>) outs(%e : tensor<2x8x2048x2048xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %t = arith.mulf %a, %scale : f32
    %u = arith.addf %t, %m : f32
    linalg.yield %u : f32
  } -> tensor<2x8x2048x2048xf32>
  %e1 = tensor.empty() : tensor<2x8x2048x1xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x8x2048x1xf32>) -> tensor<2x8x2048x1xf32>
  %mx = linalg.generic {indexing_maps = [#x4, #r4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x8x2048x2048xf32>) outs(%f1 : tensor<2x8x2048x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<2x8x2048x1xf32>
  %ex = linalg.generic {indexing_maps = [#x4, #r4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x8x2048x2048xf32>, tensor<2x8x2048x1xf32>) outs(%e : tensor<2x8x2048x2048xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<2x8x2048x2048xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x2048x1xf32>) -> tensor<2x8x2048x1xf32>
  %sm = linalg.generic {indexing_maps = [#x4, #r4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x8x2048x2048xf32>) outs(%f2 : tensor<2x8x2048x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<2x8x2048x1xf32>
  %y = linalg.generic {indexing_maps = [#x4, #r4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x8x2048x2048xf32>, tensor<2x8x2048x1xf32>) outs(%e : tensor<2x8x2048x2048xf32>) {
  ^bb0(%a: f32, %d: f32, %o: f32):
    %v = arith.divf %a, %d : f32
    linalg.yield %v : f32
  } -> tensor<2x8x2048x2048xf32>
  return %y : tensor<2x8x2048x2048xf32>
}
