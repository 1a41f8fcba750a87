// torch.max(x, dim=1) -> (values, indices) over the middle dim of [8, 300, 129] f32, one generic with linalg.index
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @maxdim(%x: tensor<8x300x129xf32>) -> (tensor<8x129xf32>, tensor<8x129xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8x129xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8x129xf32>) -> tensor<8x129xf32>
  %ei = tensor.empty() : tensor<8x129xi64>
  %fi = linalg.fill ins(%z : i64) outs(%ei : tensor<8x129xi64>) -> tensor<8x129xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #o, #o], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<8x300x129xf32>) outs(%f, %fi : tensor<8x129xf32>, tensor<8x129xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ki, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<8x129xf32>, tensor<8x129xi64>)
  return %r#0, %r#1 : tensor<8x129xf32>, tensor<8x129xi64>
}
