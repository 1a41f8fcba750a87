// The NaN semantics of torch-mlir's form: argmax of log(x) for x in
// [-1, 1), so about half the elements are NaN. maximumf makes the value NaN
// at the first NaN and no later element beats a NaN, so the index is the
// first maximum of the elements before the row's first NaN (0 where the row
// starts with one). Values and indices returned.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmax_nan(%x: tensor<8x500xf32>) -> (tensor<8xf32>, tensor<8xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<8xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<8xf32>) -> tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x500xf32>) outs(%fv, %fi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %l = math.log %in : f32
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %l, %acc : f32
    %gt = arith.cmpf ogt, %l, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi64>
}
