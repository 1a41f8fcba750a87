// adaptive_avg_pool2d(1) on NCHW f16, keepdim output [N,C,1,1], f32 accumulate
#in = affine_map<(n, c, h, w) -> (n, c, h, w)>
#out = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
func.func @avgpool(%x: tensor<8x256x14x14xf16>) -> tensor<8x256x1x1xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x256x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x256x1x1xf32>) -> tensor<8x256x1x1xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x256x14x14xf16>) outs(%f : tensor<8x256x1x1xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.addf %w, %o : f32
    linalg.yield %r : f32
  } -> tensor<8x256x1x1xf32>
  %e2 = tensor.empty() : tensor<8x256x1x1xf16>
  %d = arith.constant 196.0 : f32
  %m = linalg.generic {indexing_maps = [#in, #in], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x256x1x1xf32>) outs(%e2 : tensor<8x256x1x1xf16>) {
  ^bb0(%a: f32, %o: f16):
    %q = arith.divf %a, %d : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x256x1x1xf16>
  return %m : tensor<8x256x1x1xf16>
}
