// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// Intermediate records of 32 fields are over max-record-fields=16.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f7 = affine_map<(d0) -> (d0, 7)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_over_limit
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK:         } -> tensor<64x32xf32>
// CHECK:         ins(%[[T]] : tensor<64x32xf32>)
func.func @internal_over_limit(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  // expected-remark @+1 {{intermediate kept as an array of records: its records of 32 fields are over max-record-fields (16)}}
  %t = linalg.generic {indexing_maps = [#row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %f = linalg.index 1 : index
    %fi = arith.index_cast %f : index to i32
    %ff = arith.sitofp %fi : i32 to f32
    %v = arith.mulf %a, %ff : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#f7, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<64x32xf32>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
