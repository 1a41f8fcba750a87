// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// A record-array result whose every field is computed on the device: the
// kernel writes whole records contiguously either way, so it stays.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @result_every_field_computed
// CHECK-SAME:    -> tensor<1003x2xf32>
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic
// CHECK:         } -> tensor<1003x2xf32>
// expected-remark @+1 {{result 0 kept as an array of records: every field is computed on the device and the records are written contiguously, so per-field arrays would not move fewer DRAM sectors}}
func.func @result_every_field_computed(%a: tensor<1003xf32>, %b: tensor<1003xf32>) -> tensor<1003x2xf32> {
  %e = tensor.empty() : tensor<1003x2xf32>
  %r = linalg.generic {indexing_maps = [#row, #row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<1003xf32>, tensor<1003xf32>) outs(%e : tensor<1003x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %f = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %f, %c0 : index
    %two = arith.constant 2.000000e+00 : f32
    %x2 = arith.mulf %x, %two : f32
    %y1 = arith.addf %y, %two : f32
    %v = arith.select %is0, %x2, %y1 : f32
    linalg.yield %v : f32
  } -> tensor<1003x2xf32>
  return %r : tensor<1003x2xf32>
}
