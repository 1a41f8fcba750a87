// torch.max(x, dim=1, keepdim=True) for bf16 (33, 777): values and i64
// indices, both written through the keepdim map (d0, d1) -> (d0, 0); bf16
// rounding leaves many ties, so the first index of the maximum matters.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0, 0)>
func.func @maxdim(%x: tensor<33x777xbf16>) -> (tensor<33x1xbf16>, tensor<33x1xi64>) {
  %ninf = arith.constant 0xFF80 : bf16
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<33x1xbf16>
  %fv = linalg.fill ins(%ninf : bf16) outs(%ev : tensor<33x1xbf16>) -> tensor<33x1xbf16>
  %ei = tensor.empty() : tensor<33x1xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<33x1xi64>) -> tensor<33x1xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<33x777xbf16>) outs(%fv, %fi : tensor<33x1xbf16>, tensor<33x1xi64>) {
  ^bb0(%in: bf16, %acc: bf16, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : bf16
    %gt = arith.cmpf ogt, %in, %acc : bf16
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : bf16, i64
  } -> (tensor<33x1xbf16>, tensor<33x1xi64>)
  return %r#0, %r#1 : tensor<33x1xbf16>, tensor<33x1xi64>
}
