// Greedy decoding: the argmax of one row of bf16 logits over a vocabulary
// of 32000 (a 1-D input, a 0-d i64 result), torch-mlir's form.
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
func.func @greedy(%x: tensor<32000xbf16>) -> tensor<i64> {
  %ninf = arith.constant 0xFF80 : bf16
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<bf16>
  %fv = linalg.fill ins(%ninf : bf16) outs(%ev : tensor<bf16>) -> tensor<bf16>
  %ei = tensor.empty() : tensor<i64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["reduction"]}
      ins(%x : tensor<32000xbf16>) outs(%fv, %fi : tensor<bf16>, tensor<i64>) {
  ^bb0(%in: bf16, %acc: bf16, %idx: i64):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : bf16
    %gt = arith.cmpf ogt, %in, %acc : bf16
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : bf16, i64
  } -> (tensor<bf16>, tensor<i64>)
  return %r#1 : tensor<i64>
}
