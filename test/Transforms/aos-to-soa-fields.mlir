// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=false max-record-fields=16 sector-bytes=32})" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-aos-to-soa{keep-signature=true max-record-fields=16 sector-bytes=32})" 2>/dev/null | FileCheck %s --check-prefix=KEEP

// Record arrays built inside the function (intermediates) and returned by
// it (results): the producing generic is rewritten with its record loop
// fixed per field. Arguments are in aos-to-soa.mlir, refusals in
// aos-to-soa-internal-*.mlir and aos-to-soa-result-*.mlir.

// Intermediate: records of 3 f32 built by one generic (fields computed
// through the record index), read at fields 0 and 2. Field 1 is never read,
// so it is never computed.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f0 = affine_map<(d0) -> (d0, 0)>
#f2 = affine_map<(d0) -> (d0, 2)>
#id = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_2of3_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: tensor<1003xf32>, %[[W:[a-z0-9_]+]]: tensor<1003xf32>) -> tensor<1003xf32>
// CHECK:         %[[S:.+]]:2 = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel"]}
// CHECK-SAME:      ins(%[[W]], %[[X]] : tensor<1003xf32>, tensor<1003xf32>)
// CHECK-NEXT:    ^bb0(%[[IW:.+]]: f32, %[[IX:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[SUM:.+]] = arith.addf %[[IX]], %[[IW]] : f32
// CHECK-NEXT:      %[[NEG:.+]] = arith.negf %[[IW]] : f32
// CHECK-NEXT:      linalg.yield %[[SUM]], %[[NEG]] : f32, f32
// CHECK-NEXT:    } -> (tensor<1003xf32>, tensor<1003xf32>)
// CHECK-NOT:     arith.mulf %[[IX]], %[[IW]]
// CHECK:         linalg.generic {{.*}} ins(%[[S]]#0, %[[S]]#1 : tensor<1003xf32>, tensor<1003xf32>)
// CHECK-NOT:     tensor<1003x3xf32>, tensor<1003x3xf32>
// KEEP-LABEL:  func.func @internal_2of3_f32
// KEEP:          linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<1003xf32>, tensor<1003xf32>)
func.func @internal_2of3_f32(%x: tensor<1003xf32>, %w: tensor<1003xf32>) -> tensor<1003xf32> {
  %e = tensor.empty() : tensor<1003x3xf32>
  %t = linalg.generic {indexing_maps = [#row, #row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<1003xf32>, tensor<1003xf32>) outs(%e : tensor<1003x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %f = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %sum = arith.addf %a, %b : f32
    %prod = arith.mulf %a, %b : f32
    %neg = arith.negf %b : f32
    %is0 = arith.cmpi eq, %f, %c0 : index
    %is1 = arith.cmpi eq, %f, %c1 : index
    %s1 = arith.select %is1, %prod, %neg : f32
    %s0 = arith.select %is0, %sum, %s1 : f32
    linalg.yield %s0 : f32
  } -> tensor<1003x3xf32>
  %e1 = tensor.empty() : tensor<1003xf32>
  %y = linalg.generic {indexing_maps = [#f0, #f2, #id], iterator_types = ["parallel"]}
      ins(%t, %t : tensor<1003x3xf32>, tensor<1003x3xf32>) outs(%e1 : tensor<1003xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1003xf32>
  return %y : tensor<1003xf32>
}

// -----

// Intermediate records of 2 i32 whose both fields are read, each by its own
// consumer: the consumers read every other element of the records, the
// split arrays contiguously.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f0 = affine_map<(d0) -> (d0, 0)>
#f1 = affine_map<(d0) -> (d0, 1)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_2of2_i32
// CHECK:         %[[S:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%{{.+}} : tensor<512xi32>)
// CHECK:           %[[C0:.+]] = arith.constant 0 : index
// CHECK:           arith.index_cast %[[C0]] : index to i32
// CHECK:           %[[C1:.+]] = arith.constant 1 : index
// CHECK:           arith.index_cast %[[C1]] : index to i32
// CHECK:         linalg.generic {{.*}} ins(%[[S]]#0 : tensor<512xi32>)
// CHECK:         linalg.generic {{.*}} ins(%[[S]]#1 : tensor<512xi32>)
func.func @internal_2of2_i32(%x: tensor<512xi32>) -> (tensor<512xi32>, tensor<512xi32>) {
  %e = tensor.empty() : tensor<512x2xi32>
  %t = linalg.generic {indexing_maps = [#row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<512xi32>) outs(%e : tensor<512x2xi32>) {
  ^bb0(%a: i32, %o: i32):
    %f = linalg.index 1 : index
    %fi = arith.index_cast %f : index to i32
    %v = arith.shli %a, %fi : i32
    linalg.yield %v : i32
  } -> tensor<512x2xi32>
  %e1 = tensor.empty() : tensor<512xi32>
  %y0 = linalg.generic {indexing_maps = [#f0, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<512x2xi32>) outs(%e1 : tensor<512xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c = arith.constant 3 : i32
    %m = arith.muli %a, %c : i32
    linalg.yield %m : i32
  } -> tensor<512xi32>
  %y1 = linalg.generic {indexing_maps = [#f1, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<512x2xi32>) outs(%e1 : tensor<512xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c = arith.constant 1 : i32
    %m = arith.addi %a, %c : i32
    linalg.yield %m : i32
  } -> tensor<512xi32>
  return %y0, %y1 : tensor<512xi32>, tensor<512xi32>
}

// -----

// Intermediate records of 16 f16 (one sector each) produced from a named
// op's result and read at field 15 only.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#f15 = affine_map<(d0) -> (d0, 15)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @internal_1of16_f16_named
// CHECK:         %[[EX:.+]] = linalg.exp
// CHECK:         %[[S:.+]] = linalg.generic {{.*}} ins(%[[EX]] : tensor<256xf16>) outs(%{{.+}} : tensor<256xf16>)
// CHECK:           arith.constant 15 : index
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<256xf16>)
// CHECK-NOT:     tensor<256x16xf16>)
// CHECK:         linalg.exp
func.func @internal_1of16_f16_named(%x: tensor<256xf16>) -> tensor<256xf16> {
  %e0 = tensor.empty() : tensor<256xf16>
  %ex = linalg.exp ins(%x : tensor<256xf16>) outs(%e0 : tensor<256xf16>) -> tensor<256xf16>
  %e = tensor.empty() : tensor<256x16xf16>
  %t = linalg.generic {indexing_maps = [#row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%ex : tensor<256xf16>) outs(%e : tensor<256x16xf16>) {
  ^bb0(%a: f16, %o: f16):
    %f = linalg.index 1 : index
    %fi = arith.index_cast %f : index to i32
    %ff = arith.sitofp %fi : i32 to f16
    %v = arith.mulf %a, %ff : f16
    linalg.yield %v : f16
  } -> tensor<256x16xf16>
  %y = linalg.generic {indexing_maps = [#f15, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<256x16xf16>) outs(%e0 : tensor<256xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<256xf16>
  %z = linalg.exp ins(%y : tensor<256xf16>) outs(%e0 : tensor<256xf16>) -> tensor<256xf16>
  return %z : tensor<256xf16>
}

// -----

// Result: records of 8 f32 (x y z vx vy vz m q); fields 0..2 move by the
// velocity, fields 3..7 are copies of the argument's. The result becomes
// three field arrays, the copies a memopt.aos_pass_through entry each; the
// split producer reads the argument at six constant fields, which the
// argument step then splits too.
#rec = affine_map<(d0, d1) -> (d0, d1)>
#f3 = affine_map<(d0, d1) -> (d0, 3)>
#f4 = affine_map<(d0, d1) -> (d0, 4)>
#f5 = affine_map<(d0, d1) -> (d0, 5)>
// CHECK-LABEL: func.func @result_3of8_f32
// CHECK-SAME:    (%[[P0:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 0 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P1:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 1 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P2:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 2 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P3:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 3 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P4:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 4 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[P5:[a-z0-9_]+]]: tensor<1003xf32> {memopt.aos_field = {field = 5 : i64, record = 8 : i64, source = 0 : i64}})
// CHECK-SAME:    -> (tensor<1003xf32> {memopt.aos_field = {field = 0 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:        tensor<1003xf32> {memopt.aos_field = {field = 1 : i64, record = 8 : i64, source = 0 : i64}},
// CHECK-SAME:        tensor<1003xf32> {memopt.aos_field = {field = 2 : i64, record = 8 : i64, source = 0 : i64}})
// CHECK-SAME:    attributes {memopt.aos_pass_through = [{field = 3 : i64, result = 0 : i64, source = 0 : i64, source_field = 3 : i64},
// CHECK-SAME:      {field = 7 : i64, result = 0 : i64, source = 0 : i64, source_field = 7 : i64}]}
// CHECK:         %[[R:.+]]:3 = linalg.generic
// CHECK-SAME:      ins(%[[P3]], %[[P0]], %[[P4]], %[[P1]], %[[P5]], %[[P2]] :
// CHECK-NEXT:    ^bb0(%[[VX:[a-z0-9_]+]]: f32, %[[X:[a-z0-9_]+]]: f32,
// CHECK:           %[[DX:.+]] = arith.mulf %[[VX]], %{{.+}} : f32
// CHECK-NEXT:      %[[MX:.+]] = arith.addf %[[X]], %[[DX]] : f32
// CHECK-NOT:       arith.select
// CHECK:           linalg.yield %[[MX]], %{{.+}}, %{{.+}} : f32, f32, f32
// CHECK:         return %[[R]]#0, %[[R]]#1, %[[R]]#2 : tensor<1003xf32>, tensor<1003xf32>, tensor<1003xf32>

// With keep-signature, the record argument and result stay: the split
// kernel reads the argument at fields 0..5 and a pack generic rebuilds the
// records from the three computed fields and fields 3..7 of the argument.
// KEEP-LABEL:  func.func @result_3of8_f32
// KEEP-SAME:     (%[[P:[a-z0-9_]+]]: tensor<1003x8xf32>) -> tensor<1003x8xf32>
// KEEP-NOT:      memopt.aos
// KEEP:          %[[R:.+]]:3 = linalg.generic {{.*}} ins(%[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]] :
// KEEP:          %[[PACK:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// KEEP-SAME:       ins(%[[R]]#0, %[[R]]#1, %[[R]]#2, %[[P]], %[[P]], %[[P]], %[[P]], %[[P]] :
// KEEP:            linalg.index 1 : index
// KEEP-COUNT-7:    arith.select
// KEEP:          return %[[PACK]] : tensor<1003x8xf32>
func.func @result_3of8_f32(%p: tensor<1003x8xf32>) -> tensor<1003x8xf32> {
  %e = tensor.empty() : tensor<1003x8xf32>
  %r = linalg.generic {indexing_maps = [#rec, #f3, #f4, #f5, #rec],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %p, %p, %p : tensor<1003x8xf32>, tensor<1003x8xf32>, tensor<1003x8xf32>, tensor<1003x8xf32>)
      outs(%e : tensor<1003x8xf32>) {
  ^bb0(%x: f32, %vx: f32, %vy: f32, %vz: f32, %o: f32):
    %f = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %dt = arith.constant 5.000000e-01 : f32
    %is0 = arith.cmpi eq, %f, %c0 : index
    %is1 = arith.cmpi eq, %f, %c1 : index
    %v12 = arith.select %is1, %vy, %vz : f32
    %v = arith.select %is0, %vx, %v12 : f32
    %dx = arith.mulf %v, %dt : f32
    %moved = arith.addf %x, %dx : f32
    %pos = arith.cmpi ult, %f, %c3 : index
    %y = arith.select %pos, %moved, %x : f32
    linalg.yield %y : f32
  } -> tensor<1003x8xf32>
  return %r : tensor<1003x8xf32>
}

// -----

// Result: records of 5 i32; field 4 is computed from a second argument, the
// rest copied from the first (whose type is the result's).
#rec = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @result_1of5_i32
// CHECK-SAME:    (%[[P4:[a-z0-9_]+]]: tensor<64xi32> {memopt.aos_field = {field = 4 : i64, record = 5 : i64, source = 0 : i64}},
// CHECK-SAME:     %[[C:[a-z0-9_]+]]: tensor<64xi32>)
// CHECK-SAME:    -> (tensor<64xi32>, tensor<64xi32> {memopt.aos_field = {field = 4 : i64, record = 5 : i64, source = 1 : i64}})
// CHECK-SAME:    memopt.aos_pass_through = [{field = 0 : i64, result = 1 : i64, source = 0 : i64, source_field = 0 : i64},
// CHECK:         %[[R:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[P4]] : tensor<64xi32>, tensor<64xi32>)
// CHECK:           arith.addi
// CHECK:         return %[[C]], %[[R]] : tensor<64xi32>, tensor<64xi32>
func.func @result_1of5_i32(%p: tensor<64x5xi32>, %c: tensor<64xi32>) -> (tensor<64xi32>, tensor<64x5xi32>) {
  %e = tensor.empty() : tensor<64x5xi32>
  %r = linalg.generic {indexing_maps = [#rec, #row, #rec], iterator_types = ["parallel", "parallel"]}
      ins(%p, %c : tensor<64x5xi32>, tensor<64xi32>) outs(%e : tensor<64x5xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %f = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %last = arith.cmpi eq, %f, %c4 : index
    %s = arith.addi %a, %b : i32
    %v = arith.select %last, %s, %a : i32
    linalg.yield %v : i32
  } -> tensor<64x5xi32>
  return %c, %r : tensor<64xi32>, tensor<64x5xi32>
}
