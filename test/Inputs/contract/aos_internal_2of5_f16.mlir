// Contract input: an intermediate array of records built inside the
// function and read at two of its fields.
//   x: 2048 f16; t[i, f] = (x[i] * (f + 1), exp(x[i]), x[i] * x[i], x[i] + 1, -x[i])[f]
//   y[i] = t[i, 1] * t[i, 3]
// The intermediate's records are 5 x f16 (10 bytes, not sector-aligned); only
// fields 1 and 3 are read, so memopt-aos-to-soa computes only those two, as
// separate tensors, and the consumer reads them without the record stride.

#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f1 = affine_map<(d0) -> (d0, 1)>
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
func.func @aos_internal_2of5_f16(%x: tensor<2048xf16>) -> tensor<2048xf16> {
  %e = tensor.empty() : tensor<2048x5xf16>
  %t = linalg.generic {indexing_maps = [#row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048xf16>) outs(%e : tensor<2048x5xf16>) {
  ^bb0(%a: f16, %o: f16):
    %f = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.000000e+00 : f16
    %fi = arith.index_cast %f : index to i32
    %ff = arith.sitofp %fi : i32 to f16
    %fp1 = arith.addf %ff, %one : f16
    %v0 = arith.mulf %a, %fp1 : f16
    %v1 = math.exp %a : f16
    %v2 = arith.mulf %a, %a : f16
    %v3 = arith.addf %a, %one : f16
    %v4 = arith.negf %a : f16
    %is1 = arith.cmpi eq, %f, %c1 : index
    %is2 = arith.cmpi eq, %f, %c2 : index
    %is3 = arith.cmpi eq, %f, %c3 : index
    %is4 = arith.cmpi eq, %f, %c4 : index
    %s4 = arith.select %is4, %v4, %v0 : f16
    %s3 = arith.select %is3, %v3, %s4 : f16
    %s2 = arith.select %is2, %v2, %s3 : f16
    %s1 = arith.select %is1, %v1, %s2 : f16
    linalg.yield %s1 : f16
  } -> tensor<2048x5xf16>
  %e1 = tensor.empty() : tensor<2048xf16>
  %y = linalg.generic {indexing_maps = [#f1, #f3, #id], iterator_types = ["parallel"]}
      ins(%t, %t : tensor<2048x5xf16>, tensor<2048x5xf16>) outs(%e1 : tensor<2048xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<2048xf16>
  return %y : tensor<2048xf16>
}
