// torch.argmax(x, dim=0) for f32 (300, 40): the reduced loop outermost,
// the index from linalg.index 0; values scaled by 2 in the body (the
// compared element computed from the input).
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @argmax0(%x: tensor<300x40xf32>) -> tensor<40xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %two = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<40xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<40xf32>) -> tensor<40xf32>
  %ei = tensor.empty() : tensor<40xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<40xi64>) -> tensor<40xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<300x40xf32>) outs(%fv, %fi : tensor<40xf32>, tensor<40xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %s = arith.mulf %in, %two : f32
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %s, %acc : f32
    %gt = arith.cmpf ogt, %s, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<40xf32>, tensor<40xi64>)
  return %r#1 : tensor<40xi64>
}
