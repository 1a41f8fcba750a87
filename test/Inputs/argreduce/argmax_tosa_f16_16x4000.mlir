// tosa.argmax(axis = 1) for f16 (16, 4000) as tosa-to-linalg writes it: the
// i32 index output first, the value second, seeded by 0 and the lowest
// finite f16; both updated by selects on one `ogt`. Only the index is
// returned.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: tensor<16x4000xf16>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %low = arith.constant -6.550400e+04 : f16
  %ei = tensor.empty() : tensor<16xi32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  %ev = tensor.empty() : tensor<16xf16>
  %fv = linalg.fill ins(%low : f16) outs(%ev : tensor<16xf16>) -> tensor<16xf16>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x4000xf16>) outs(%fi, %fv : tensor<16xi32>, tensor<16xf16>) {
  ^bb0(%in: f16, %idx: i32, %acc: f16):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f16
    %v = arith.select %gt, %in, %acc : f16
    %i = arith.select %gt, %jj, %idx : i32
    linalg.yield %i, %v : i32, f16
  } -> (tensor<16xi32>, tensor<16xf16>)
  return %r#0 : tensor<16xi32>
}
