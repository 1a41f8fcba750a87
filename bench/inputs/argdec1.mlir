// Bench input argdec1: greedy-decoding argmax over one row of 128256 (Llama-3
// vocabulary) bf16 logits, as torch-mlir writes torch.argmax(x, -1): one two-
// result generic (a maximumf value, an i64 index selected on ogt).
// Minimum bytes: x 256512 + 8 of i64 indices.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @argdec1(%x: tensor<1x128256xbf16>) -> tensor<1xi64> {
  %ninf = arith.constant 0xFF80 : bf16
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<1xbf16>
  %fv = linalg.fill ins(%ninf : bf16) outs(%ev : tensor<1xbf16>) -> tensor<1xbf16>
  %ei = tensor.empty() : tensor<1xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<1xi64>) -> tensor<1xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x128256xbf16>) outs(%fv, %fi : tensor<1xbf16>, tensor<1xi64>) {
  ^bb0(%in: bf16, %acc: bf16, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : bf16
    %gt = arith.cmpf ogt, %in, %acc : bf16
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : bf16, i64
  } -> (tensor<1xbf16>, tensor<1xi64>)
  return %r#1 : tensor<1xi64>
}
