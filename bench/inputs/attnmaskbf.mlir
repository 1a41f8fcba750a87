// Bench input attnmaskbf: softmax(float(x) * scale + mask) rounded to bf16,
// over bf16 scores 4x8x2048x2048 and an f32 additive mask [S, S] broadcast
// over batch and heads (a causal or padding mask as frontends build it),
// written as a prologue generic and linalg.softmax.
// Minimum bytes: x and y 4x8x2048x2048 bf16 (268,435,456 each), the mask
// 2048x2048 f32 (16,777,216): 553,648,128. In row order the mask is
// re-read for each of the 32 (batch, head) sweeps.
#x4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
func.func @attnmaskbf(%x: tensor<4x8x2048x2048xbf16>, %mask: tensor<2048x2048xf32>) -> tensor<4x8x2048x2048xbf16> {
  %scale = arith.constant 0.0883883461 : f32
  %e = tensor.empty() : tensor<4x8x2048x2048xf32>
  %s = linalg.generic {indexing_maps = [#x4, #m4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mask : tensor<4x8x2048x2048xbf16>, tensor<2048x2048xf32>) outs(%e : tensor<4x8x2048x2048xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %scale : f32
    %u = arith.addf %t, %m : f32
    linalg.yield %u : f32
  } -> tensor<4x8x2048x2048xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<4x8x2048x2048xf32>) outs(%e : tensor<4x8x2048x2048xf32>) -> tensor<4x8x2048x2048xf32>
  %eb = tensor.empty() : tensor<4x8x2048x2048xbf16>
  %y = linalg.generic {indexing_maps = [#x4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<4x8x2048x2048xf32>) outs(%eb : tensor<4x8x2048x2048xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %v = arith.truncf %a : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<4x8x2048x2048xbf16>
  return %y : tensor<4x8x2048x2048xbf16>
}
