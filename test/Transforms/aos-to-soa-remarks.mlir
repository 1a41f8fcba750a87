// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s

// Record-array arguments the pass leaves alone, each with a remark saying why.

// All 8 fields of a 32-byte record are read: the records are already
// contiguous.
#f0 = affine_map<(d0) -> (d0, 0)>
#f1 = affine_map<(d0) -> (d0, 1)>
#f2 = affine_map<(d0) -> (d0, 2)>
#f3 = affine_map<(d0) -> (d0, 3)>
#f4 = affine_map<(d0) -> (d0, 4)>
#f5 = affine_map<(d0) -> (d0, 5)>
#f6 = affine_map<(d0) -> (d0, 6)>
#f7 = affine_map<(d0) -> (d0, 7)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @every_field_used
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]] :
// expected-remark @+1 {{argument 0 kept as an array of records: every field is used, so the records are read contiguously}}
func.func @every_field_used(%p: tensor<1024x8xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f0, #f1, #f2, #f3, #f4, #f5, #f6, #f7, #id], iterator_types = ["parallel"]}
      ins(%p, %p, %p, %p, %p, %p, %p, %p : tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>,
                                           tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>)
      outs(%e : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %f: f32, %g: f32, %h: f32, %i: f32, %o: f32):
    %s0 = arith.addf %a, %b : f32
    %s1 = arith.addf %s0, %c : f32
    %s2 = arith.addf %s1, %d : f32
    %s3 = arith.addf %s2, %f : f32
    %s4 = arith.addf %s3, %g : f32
    %s5 = arith.addf %s4, %h : f32
    %s6 = arith.addf %s5, %i : f32
    linalg.yield %s6 : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// Fields 0..7 of a 16 x f32 record fill exactly its first 32-byte sector: the
// fields alone move as many bytes as the records do.
#f0 = affine_map<(d0) -> (d0, 0)>
#f1 = affine_map<(d0) -> (d0, 1)>
#f2 = affine_map<(d0) -> (d0, 2)>
#f3 = affine_map<(d0) -> (d0, 3)>
#f4 = affine_map<(d0) -> (d0, 4)>
#f5 = affine_map<(d0) -> (d0, 5)>
#f6 = affine_map<(d0) -> (d0, 6)>
#f7 = affine_map<(d0) -> (d0, 7)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @one_full_sector
// CHECK-SAME:    (%{{.+}}: tensor<1024x16xf32>)
// CHECK-NOT:     memopt.aos_field
// expected-remark @+1 {{argument 0 kept as an array of records: the fields alone would not move fewer DRAM sectors}}
func.func @one_full_sector(%p: tensor<1024x16xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f0, #f1, #f2, #f3, #f4, #f5, #f6, #f7, #id], iterator_types = ["parallel"]}
      ins(%p, %p, %p, %p, %p, %p, %p, %p : tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<1024x16xf32>,
                                           tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<1024x16xf32>)
      outs(%e : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %f: f32, %g: f32, %h: f32, %i: f32, %o: f32):
    %s0 = arith.addf %a, %b : f32
    %s1 = arith.addf %s0, %c : f32
    %s2 = arith.addf %s1, %d : f32
    %s3 = arith.addf %s2, %f : f32
    %s4 = arith.addf %s3, %g : f32
    %s5 = arith.addf %s4, %h : f32
    %s6 = arith.addf %s5, %i : f32
    linalg.yield %s6 : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// One use reads field 3, another walks the fields with a loop dimension.
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @field_chosen_at_run_time
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[P]], %{{.+}} : tensor<1024x8xf32>, tensor<1024xf32>)
// expected-remark @+1 {{argument 0 kept as an array of records: a use reads a field chosen at run time}}
func.func @field_chosen_at_run_time(%p: tensor<1024x8xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#f3, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<1024x8xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#all, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p, %a : tensor<1024x8xf32>, tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// The records are also returned.
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @record_returned
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// CHECK:         return %{{.+}}, %[[P]] : tensor<1024xf32>, tensor<1024x8xf32>
// expected-remark @+1 {{argument 0 kept as an array of records: it is used other than as a linalg.generic input}}
func.func @record_returned(%p: tensor<1024x8xf32>) -> (tensor<1024xf32>, tensor<1024x8xf32>) {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f3, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<1024x8xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1024xf32>
  return %r, %p : tensor<1024xf32>, tensor<1024x8xf32>
}

// -----

// The records are also reshaped.
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @record_reshaped
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         tensor.expand_shape %[[P]]
// expected-remark @+1 {{argument 0 kept as an array of records: it is used other than as a linalg.generic input}}
func.func @record_reshaped(%p: tensor<1024x8xf32>) -> (tensor<1024xf32>, tensor<1024x2x4xf32>) {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f3, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<1024x8xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1024xf32>
  %x = tensor.expand_shape %p [[0], [1, 2]] output_shape [1024, 2, 4] : tensor<1024x8xf32> into tensor<1024x2x4xf32>
  return %r, %x : tensor<1024xf32>, tensor<1024x2x4xf32>
}

// -----

// The records are the destination of a generic that writes field 3.
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @record_as_outs
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>, %[[V:[a-z0-9_]+]]: tensor<1024xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[V]] : tensor<1024xf32>) outs(%[[P]] : tensor<1024x8xf32>)
// expected-remark @+1 {{argument 0 kept as an array of records: it is used other than as a linalg.generic input}}
func.func @record_as_outs(%p: tensor<1024x8xf32>, %v: tensor<1024xf32>) -> tensor<1024x8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #f3], iterator_types = ["parallel"]}
      ins(%v : tensor<1024xf32>) outs(%p : tensor<1024x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1024x8xf32>
  return %r : tensor<1024x8xf32>
}

// -----

// Every other record, at field 3: the records are not indexed by a plain loop
// dimension.
#f3s = affine_map<(d0) -> (d0 * 2, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @strided_records
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// expected-remark @+1 {{argument 0 kept as an array of records: a use indexes the records with a non-trivial expression}}
func.func @strided_records(%p: tensor<1024x8xf32>) -> tensor<512xf32> {
  %e = tensor.empty() : tensor<512xf32>
  %r = linalg.generic {indexing_maps = [#f3s, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<1024x8xf32>) outs(%e : tensor<512xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}
