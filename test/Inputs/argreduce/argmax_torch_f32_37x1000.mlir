// torch.argmax(x, dim=1) for f32 (37, 1000) as torch-mlir writes it: one
// two-result generic over (rows, cols) whose value is a maximumf and whose
// i64 index is a select on `ogt` against the running value, seeded by
// fills of -inf and 0; only the index is returned.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: tensor<37x1000xf32>) -> tensor<37xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<37xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<37xf32>) -> tensor<37xf32>
  %ei = tensor.empty() : tensor<37xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<37xi64>) -> tensor<37xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x1000xf32>) outs(%fv, %fi : tensor<37xf32>, tensor<37xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<37xf32>, tensor<37xi64>)
  return %r#1 : tensor<37xi64>
}
