// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=true max-record-fields=16 sector-bytes=32})" | FileCheck %s --check-prefix=KEEP

// Record-array arguments read at a few constant fields become one argument per
// used field; the refusals are in aos-to-soa-remarks.mlir.

// W6: records of 8 f32 read at fields 3..6 become four tensor<1024xf32>
// arguments that say where they come from, and every map loses its field index.
// With keep-signature, the record argument stays and one extraction generic per
// field reads it.
#f3 = affine_map<(d0) -> (d0, 3)>
#f4 = affine_map<(d0) -> (d0, 4)>
#f5 = affine_map<(d0) -> (d0, 5)>
#f6 = affine_map<(d0) -> (d0, 6)>
#id = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @w6_4of8_f32
// CHECK-SAME:    (%[[P3:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 3 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P4:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 4 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P5:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 5 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P6:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 6 : i64, record = 8 : i64, source = 0 : i64}})
// CHECK-SAME:    -> tensor<1024xf32>
// CHECK-NOT:     tensor<1024x8xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK-SAME:      ins(%[[P3]], %[[P4]], %[[P5]], %[[P6]] : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>)
// CHECK-NOT:     tensor<1024x8xf32>

// KEEP-DAG:    #[[$KF3:.+]] = affine_map<(d0) -> (d0, 3)>
// KEEP-DAG:    #[[$KF4:.+]] = affine_map<(d0) -> (d0, 4)>
// KEEP-DAG:    #[[$KF5:.+]] = affine_map<(d0) -> (d0, 5)>
// KEEP-DAG:    #[[$KF6:.+]] = affine_map<(d0) -> (d0, 6)>
// KEEP-DAG:    #[[$KID:.+]] = affine_map<(d0) -> (d0)>
// KEEP-LABEL:  func.func @w6_4of8_f32
// KEEP-SAME:     (%[[P:[a-z0-9_]+]]: tensor<1024x8xf32>) -> tensor<1024xf32>
// KEEP-NOT:      memopt.aos_field
// KEEP:          %[[X3:.+]] = linalg.generic {indexing_maps = [#[[$KF3]], #[[$KID]]]{{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// KEEP-NEXT:     ^bb0(%[[IN3:.+]]: f32, %{{.+}}: f32):
// KEEP-NEXT:       linalg.yield %[[IN3]] : f32
// KEEP:          %[[X4:.+]] = linalg.generic {indexing_maps = [#[[$KF4]], #[[$KID]]]{{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// KEEP:          %[[X5:.+]] = linalg.generic {indexing_maps = [#[[$KF5]], #[[$KID]]]{{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// KEEP:          %[[X6:.+]] = linalg.generic {indexing_maps = [#[[$KF6]], #[[$KID]]]{{.*}} ins(%[[P]] : tensor<1024x8xf32>)
// KEEP:          linalg.generic {indexing_maps = [#[[$KID]], #[[$KID]], #[[$KID]], #[[$KID]], #[[$KID]]]
// KEEP-SAME:       ins(%[[X3]], %[[X4]], %[[X5]], %[[X6]] : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>)
func.func @w6_4of8_f32(%p: tensor<1024x8xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#f3, #f4, #f5, #f6, #id], iterator_types = ["parallel"]}
      ins(%p, %p, %p, %p : tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>)
      outs(%e : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %o: f32):
    %s0 = arith.addf %a, %b : f32
    %s1 = arith.addf %s0, %c : f32
    %s2 = arith.mulf %s1, %d : f32
    linalg.yield %s2 : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// Records of 16 f32 (64 bytes, two sectors) read at fields 2 and 9 by two
// generics; the arguments come in field order, whatever the order of the uses.
#f9 = affine_map<(d0) -> (d0, 9)>
#f2 = affine_map<(d0) -> (d0, 2)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @two_of_16_f32
// CHECK-SAME:    (%[[P2:[a-z0-9_]+]]: tensor<4096xf32> {memopt.aos_field = {field = 2 : i64, record = 16 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P9:[a-z0-9_]+]]: tensor<4096xf32> {memopt.aos_field = {field = 9 : i64, record = 16 : i64, source = 0 : i64}})
// CHECK:         %[[A:.+]] = linalg.generic {{.*}} ins(%[[P9]] : tensor<4096xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[P2]], %[[A]] : tensor<4096xf32>, tensor<4096xf32>)
// CHECK-NOT:     tensor<4096x16xf32>
// KEEP-LABEL:  func.func @two_of_16_f32
// KEEP-SAME:     (%{{.+}}: tensor<4096x16xf32>)
// KEEP-COUNT-2:  ins(%{{.+}} : tensor<4096x16xf32>)
// KEEP-NOT:      tensor<4096x16xf32>
func.func @two_of_16_f32(%p: tensor<4096x16xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %a = linalg.generic {indexing_maps = [#f9, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<4096x16xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [#f2, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %a : tensor<4096x16xf32>, tensor<4096xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}

// -----

// A field read by two generics becomes one argument.
#f1 = affine_map<(d0) -> (d0, 1)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @same_field_twice
// CHECK-SAME:    (%[[P1:[a-z0-9_]+]]: tensor<256xf32> {memopt.aos_field = {field = 1 : i64, record = 4 : i64, source = 0 : i64}})
// CHECK-SAME:    -> tensor<256xf32>
// CHECK:         %[[A:.+]] = linalg.generic {{.*}} ins(%[[P1]] : tensor<256xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[P1]], %[[A]] : tensor<256xf32>, tensor<256xf32>)
func.func @same_field_twice(%p: tensor<256x4xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %a = linalg.generic {indexing_maps = [#f1, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<256x4xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#f1, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %a : tensor<256x4xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// f16 records: 16 x 2 bytes = one sector per record, two fields = 4 bytes.
#f0 = affine_map<(d0) -> (d0, 0)>
#f5 = affine_map<(d0) -> (d0, 5)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @f16_record
// CHECK-SAME:    (%[[P0:[a-z0-9_]+]]: tensor<512xf16> {memopt.aos_field = {field = 0 : i64, record = 16 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P5:[a-z0-9_]+]]: tensor<512xf16> {memopt.aos_field = {field = 5 : i64, record = 16 : i64, source = 0 : i64}})
// CHECK:         linalg.generic {{.*}} ins(%[[P0]], %[[P5]] : tensor<512xf16>, tensor<512xf16>)
// CHECK-NOT:     tensor<512x16xf16>
func.func @f16_record(%p: tensor<512x16xf16>) -> tensor<512xf16> {
  %e = tensor.empty() : tensor<512xf16>
  %r = linalg.generic {indexing_maps = [#f0, #f5, #id], iterator_types = ["parallel"]}
      ins(%p, %p : tensor<512x16xf16>, tensor<512x16xf16>) outs(%e : tensor<512xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<512xf16>
  return %r : tensor<512xf16>
}

// -----

// i32 records of 4 fields (16 bytes, smaller than a sector) read at 2 fields.
#f0 = affine_map<(d0) -> (d0, 0)>
#f2 = affine_map<(d0) -> (d0, 2)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @i32_record
// CHECK-SAME:    (%[[P0:[a-z0-9_]+]]: tensor<256xi32> {memopt.aos_field = {field = 0 : i64, record = 4 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P2:[a-z0-9_]+]]: tensor<256xi32> {memopt.aos_field = {field = 2 : i64, record = 4 : i64, source = 0 : i64}})
// CHECK:         linalg.generic {{.*}} ins(%[[P0]], %[[P2]] : tensor<256xi32>, tensor<256xi32>)
// CHECK-NOT:     tensor<256x4xi32>
func.func @i32_record(%p: tensor<256x4xi32>) -> tensor<256xi32> {
  %e = tensor.empty() : tensor<256xi32>
  %r = linalg.generic {indexing_maps = [#f0, #f2, #id], iterator_types = ["parallel"]}
      ins(%p, %p : tensor<256x4xi32>, tensor<256x4xi32>) outs(%e : tensor<256xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = arith.addi %x, %y : i32
    linalg.yield %s : i32
  } -> tensor<256xi32>
  return %r : tensor<256xi32>
}

// -----

// The record argument is the second one: the new arguments take its place
// (after the scale, before the bias) and `source` names its original index.
#f1 = affine_map<(d0) -> (d0, 1)>
#f6 = affine_map<(d0) -> (d0, 6)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @record_not_first
// CHECK-SAME:    (%[[S:[a-z0-9_]+]]: tensor<1024xf32>,
// CHECK-SAME:     %[[P1:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 1 : i64, record = 8 : i64, source = 1 : i64}},
// CHECK-SAME:     %[[P6:[a-z0-9_]+]]: tensor<1024xf32> {memopt.aos_field = {field = 6 : i64, record = 8 : i64, source = 1 : i64}},
// CHECK-SAME:     %[[B:[a-z0-9_]+]]: tensor<1024xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[S]], %[[P1]], %[[P6]], %[[B]] : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>)
// KEEP-LABEL:  func.func @record_not_first
// KEEP-SAME:     (%{{.+}}: tensor<1024xf32>, %[[P:[a-z0-9_]+]]: tensor<1024x8xf32>, %{{.+}}: tensor<1024xf32>)
// KEEP-COUNT-2:  ins(%[[P]] : tensor<1024x8xf32>)
func.func @record_not_first(%s: tensor<1024xf32>, %p: tensor<1024x8xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #f1, #f6, #id, #id], iterator_types = ["parallel"]}
      ins(%s, %p, %p, %b : tensor<1024xf32>, tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024xf32>)
      outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %n = arith.mulf %m, %z : f32
    %a = arith.addf %n, %w : f32
    linalg.yield %a : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// Two record arguments are both split; each keeps its own `source`.
#f0 = affine_map<(d0) -> (d0, 0)>
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @two_record_args
// CHECK-SAME:    (%[[A0:[a-z0-9_]+]]: tensor<128xf32> {memopt.aos_field = {field = 0 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[B3:[a-z0-9_]+]]: tensor<128xf32> {memopt.aos_field = {field = 3 : i64, record = 4 : i64, source = 1 : i64}})
// CHECK:         linalg.generic {{.*}} ins(%[[A0]], %[[B3]] : tensor<128xf32>, tensor<128xf32>)
func.func @two_record_args(%a: tensor<128x8xf32>, %b: tensor<128x4xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [#f0, #f3, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<128x8xf32>, tensor<128x4xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// -----

// Records indexed by two loop dimensions: the fields keep the leading shape.
#f7 = affine_map<(d0, d1) -> (d0, d1, 7)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rank3_record
// CHECK-SAME:    (%[[P7:[a-z0-9_]+]]: tensor<16x64xf32> {memopt.aos_field = {field = 7 : i64, record = 8 : i64, source = 0 : i64}})
// CHECK:         linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]]{{.*}} ins(%[[P7]] : tensor<16x64xf32>)
func.func @rank3_record(%p: tensor<16x64x8xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#f7, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<16x64x8xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// A 32-field innermost dimension is over max-record-fields=16: not a record,
// left alone without a remark.
#f3 = affine_map<(d0) -> (d0, 3)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @too_many_fields
// CHECK-SAME:    (%[[P:[a-z0-9_]+]]: tensor<64x32xf32>)
// CHECK-NOT:     memopt.aos_field
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<64x32xf32>)
func.func @too_many_fields(%p: tensor<64x32xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#f3, #id], iterator_types = ["parallel"]}
      ins(%p : tensor<64x32xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
