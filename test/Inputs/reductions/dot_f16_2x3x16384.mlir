// A dot product per (batch, head) over long f16 vectors with f32
// accumulation, as linalg.generic with two inputs: 6 rows of 16384, split
// into 4 segments of 4096 each, then combined.
#x = affine_map<(b, h, c) -> (b, h, c)>
#o = affine_map<(b, h, c) -> (b, h)>
func.func @dot(%x: tensor<2x3x16384xf16>, %y: tensor<2x3x16384xf16>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = linalg.generic {indexing_maps = [#x, #x, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<2x3x16384xf16>, tensor<2x3x16384xf16>) outs(%f : tensor<2x3xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %u = arith.extf %a : f16 to f32
    %v = arith.extf %b : f16 to f32
    %p = arith.mulf %u, %v : f32
    %y2 = arith.addf %acc, %p : f32
    linalg.yield %y2 : f32
  } -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
