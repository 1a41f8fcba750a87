// Statistics of a few long bf16 rows with f32 accumulation, as one
// two-result generic (a sum of squares and a max of |x|: RMS and absmax of
// 3 rows of 49152), the row length read through a keepdim map as
// torch-mlir writes it. Split into two reductions, each into 12 segments
// of 4096 per row; the two first stages read x in one row kernel.
#x = affine_map<(r, c) -> (r, c)>
#k = affine_map<(r, c) -> (r, 0)>
func.func @rowstats(%x: tensor<3x49152xbf16>) -> (tensor<3x1xf32>, tensor<3x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x1xf32>) -> tensor<3x1xf32>
  %s:2 = linalg.generic {indexing_maps = [#x, #k, #k], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x49152xbf16>) outs(%f, %f : tensor<3x1xf32>, tensor<3x1xf32>) {
  ^bb0(%a: bf16, %sq: f32, %mx: f32):
    %w = arith.extf %a : bf16 to f32
    %p = arith.mulf %w, %w : f32
    %q = arith.addf %sq, %p : f32
    %m = math.absf %w : f32
    %n = arith.maximumf %mx, %m : f32
    linalg.yield %q, %n : f32, f32
  } -> (tensor<3x1xf32>, tensor<3x1xf32>)
  return %s#0, %s#1 : tensor<3x1xf32>, tensor<3x1xf32>
}
