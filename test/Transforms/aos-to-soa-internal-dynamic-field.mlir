// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// An intermediate record array read by a generic that walks every field
// with a loop (the field is not a constant of the map) stays whole.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f0 = affine_map<(d0) -> (d0, 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_dynamic_field
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK:         } -> tensor<256x4xf32>
// CHECK:         ins(%[[T]] : tensor<256x4xf32>)
// CHECK:         ins(%[[T]] : tensor<256x4xf32>)
func.func @internal_dynamic_field(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %e = tensor.empty() : tensor<256x4xf32>
  // expected-remark @+1 {{intermediate kept as an array of records: a use reads a field chosen at run time}}
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
  %y = linalg.generic {indexing_maps = [#f0, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<256x4xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<256xf32>
  %s = linalg.generic {indexing_maps = [#rec, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<256x4xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  return %y, %s : tensor<256xf32>, tensor<256xf32>
}
