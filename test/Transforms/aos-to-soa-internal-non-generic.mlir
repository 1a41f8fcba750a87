// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// An intermediate record array also read by a named op (linalg.exp over
// whole records) stays whole.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f1 = affine_map<(d0) -> (d0, 1)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_named_use
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK:         } -> tensor<256x4xf32>
// CHECK:         linalg.exp ins(%[[T]] : tensor<256x4xf32>)
func.func @internal_named_use(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256x4xf32>) {
  %e = tensor.empty() : tensor<256x4xf32>
  // expected-remark @+1 {{intermediate kept as an array of records: it is used by linalg.exp, not by a linalg.generic}}
  %t = linalg.generic {indexing_maps = [#row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256xf32>) outs(%e : tensor<256x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %f = linalg.index 1 : index
    %fi = arith.index_cast %f : index to i32
    %ff = arith.sitofp %fi : i32 to f32
    %v = arith.mulf %a, %ff : f32
    linalg.yield %v : f32
  } -> tensor<256x4xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %y = linalg.generic {indexing_maps = [#f1, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<256x4xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<256xf32>
  %z = linalg.exp ins(%t : tensor<256x4xf32>) outs(%e : tensor<256x4xf32>) -> tensor<256x4xf32>
  return %y, %z : tensor<256xf32>, tensor<256x4xf32>
}
