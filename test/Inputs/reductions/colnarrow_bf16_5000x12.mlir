// Column sums of a tall, narrow matrix: bf16 in, f32 accumulation, 5000 x
// 12 (12 outputs cannot fill a GPU: the optimized plan splits the rows
// across blocks and combines the slices in a second kernel).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @colnarrow(%x: tensor<5000x12xbf16>) -> tensor<12xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<5000x12xbf16>) outs(%f : tensor<12xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<12xf32>
  return %s : tensor<12xf32>
}
