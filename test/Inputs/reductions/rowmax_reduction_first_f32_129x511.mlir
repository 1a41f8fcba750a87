// IREE-dispatch-like: a row max where the generic's iteration space puts the reduction dim
// first: iterators [reduction, parallel], input read (d0,d1)->(d1,d0) (row d1, contiguous d0),
// outs a linalg.fill of -inf; then x - max broadcast, also with the permuted maps.
#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowmax_redfirst(%x: tensor<129x511xf32>) -> (tensor<129xf32>, tensor<129x511xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<129xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<129xf32>) -> tensor<129xf32>
  %m = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<129x511xf32>) outs(%f : tensor<129xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<129xf32>
  %e2 = tensor.empty() : tensor<129x511xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<129x511xf32>, tensor<129xf32>) outs(%e2 : tensor<129x511xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<129x511xf32>
  return %m, %c : tensor<129xf32>, tensor<129x511xf32>
}
