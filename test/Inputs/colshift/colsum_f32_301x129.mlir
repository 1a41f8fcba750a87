// Column sums of an f32 matrix whose rows (129 elements) are not a multiple
// of the 16-byte vector: row r starts at r * 129 elements, at every
// alignment. The shifted column form reads two aligned chunks per row and
// takes its four lanes at the row's offset; the last row goes lane by lane.
#in = affine_map<(r, c) -> (r, c)>
#out = affine_map<(r, c) -> (c)>
func.func @colsum(%x: tensor<301x129xf32>) -> tensor<129xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<129xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<129xf32>) -> tensor<129xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<301x129xf32>) outs(%f : tensor<129xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<129xf32>
  return %s : tensor<129xf32>
}
