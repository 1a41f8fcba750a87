// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// An argument of records of 32 fields read at fields 3 and 20 is over
// max-record-fields=16: kept, with a remark.
#f3 = affine_map<(d0) -> (d0, 3)>
#f20 = affine_map<(d0) -> (d0, 20)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @argument_over_limit
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x32xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]], %[[P]] :
// expected-remark @+1 {{argument 0 kept as an array of records: its records of 32 fields are over max-record-fields (16)}}
func.func @argument_over_limit(%p: tensor<1024x32xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f3, #f20, #id], iterator_types = ["parallel"]}
      ins(%p, %p : tensor<1024x32xf32>, tensor<1024x32xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
