// Bench input argpre: argmax over 2048 rows of 32000 f32 logits (a prefill's
// tokens, Llama-2 vocabulary), as torch-mlir writes torch.argmax(x, -1): one
// two-result generic (a maximumf value, an i64 index selected on ogt).
// Minimum bytes: x 262144000 + 16384 of i64 indices.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @argpre(%x: tensor<2048x32000xf32>) -> tensor<2048xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<2048xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2048xf32>) -> tensor<2048xf32>
  %ei = tensor.empty() : tensor<2048xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2048xi64>) -> tensor<2048xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2048x32000xf32>) outs(%fv, %fi : tensor<2048xf32>, tensor<2048xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<2048xf32>, tensor<2048xi64>)
  return %r#1 : tensor<2048xi64>
}
