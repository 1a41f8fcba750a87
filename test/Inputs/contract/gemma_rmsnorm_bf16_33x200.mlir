// Gemma-style RMSNorm as torch-mlir writes it: bf16 x widened to f32, (1 + w)
// by its own 1-D generic before the row ops (recomputed in the row kernel by
// memopt-recompute-producers), a keepdim sum of squares, bf16 output.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @gemma(%x: tensor<33x200xbf16>, %w: tensor<200xbf16>) -> tensor<33x200xbf16> {
  %e1 = tensor.empty() : tensor<200xf32>
  %w1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%w : tensor<200xbf16>) outs(%e1 : tensor<200xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %one = arith.constant 1.0 : f32
    %r = arith.addf %f, %one : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  %ex = tensor.empty() : tensor<33x200xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<33x200xbf16>) outs(%ex : tensor<33x200xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<33x200xf32>
  %z = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<33x1xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<33x1xf32>) -> tensor<33x1xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xf : tensor<33x200xf32>) outs(%fs : tensor<33x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<33x1xf32>
  %eo = tensor.empty() : tensor<33x200xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%xf, %ss, %w1 : tensor<33x200xf32>, tensor<33x1xf32>, tensor<200xf32>) outs(%eo : tensor<33x200xbf16>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %o: bf16):
    %n = arith.constant 5.0e-03 : f32
    %eps = arith.constant 1.0e-06 : f32
    %mean = arith.mulf %s, %n : f32
    %ve = arith.addf %mean, %eps : f32
    %rs = math.rsqrt %ve : f32
    %t = arith.mulf %a, %rs : f32
    %u = arith.mulf %t, %g : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<33x200xbf16>
  return %y : tensor<33x200xbf16>
}
