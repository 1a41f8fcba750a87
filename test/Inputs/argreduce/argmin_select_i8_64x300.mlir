// Arg-min of i8 values in [-8, 8) (many ties) over rows of 300, the compare
// written with the accumulator first (`sgt %acc, %in`: %in < %acc), the
// value and the index both selects, seeded by 7 and 0 (an element of 7
// never beats the seed): values and indices returned.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmin(%x: tensor<64x300xi8>) -> (tensor<64xi8>, tensor<64xi64>) {
  %seven = arith.constant 7 : i8
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<64xi8>
  %fv = linalg.fill ins(%seven : i8) outs(%ev : tensor<64xi8>) -> tensor<64xi8>
  %ei = tensor.empty() : tensor<64xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<64xi64>) -> tensor<64xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x300xi8>) outs(%fv, %fi : tensor<64xi8>, tensor<64xi64>) {
  ^bb0(%in: i8, %acc: i8, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %lt = arith.cmpi sgt, %acc, %in : i8
    %v = arith.select %lt, %in, %acc : i8
    %i = arith.select %lt, %jj, %idx : i64
    linalg.yield %v, %i : i8, i64
  } -> (tensor<64xi8>, tensor<64xi64>)
  return %r#0, %r#1 : tensor<64xi8>, tensor<64xi64>
}
