// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-widen-records))" -split-input-file 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-widen-records))" -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REM
// RUN: memopt-opt %s --memopt-plan-stage -split-input-file 2>/dev/null | FileCheck %s --check-prefix=PLAN

// Rotary pairs: fields 0 and 1 of x, a per-(position, pair) table. The
// pair loop and the field loop become one loop of 16 x 2; x is read at
// (e floordiv 2) * 2 + c, the table at e floordiv 2, the field index is
// e mod 2. The plan reads 8 bf16 lanes a thread (f32 tables as 4-wide
// windows).
// CHECK-DAG: #[[F0:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, (d2 floordiv 2) * 2)>
// CHECK-DAG: #[[F1:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, (d2 floordiv 2) * 2 + 1)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1, d2) -> (d0, d2 floordiv 2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @pairs
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<37x5x16x2xbf16> into tensor<37x5x32xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[F0]], #[[F1]], #[[T]], #[[T]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: %[[E:.*]] = linalg.index 2 : index
// CHECK: arith.remui %[[E]], %c2
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [37, 5, 16, 2]
// REM: widen-records.mlir:[[@LINE+5]]:{{.*}} remark: records of 2 fields and their 16 records iterated as one loop of 32: a vector covers whole records
// PLAN-LABEL: func.func @pairs
// PLAN: #memopt.elementwise<layout = rows, vector = 8, threads = 256, windowed = true>
func.func @pairs(%x: tensor<37x5x16x2xbf16>, %cos: tensor<37x16xf32>, %sin: tensor<37x16xf32>) -> tensor<37x5x16x2xbf16> {
  %e = tensor.empty() : tensor<37x5x16x2xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(s, h, p, c) -> (s, h, p, 0)>, affine_map<(s, h, p, c) -> (s, h, p, 1)>, affine_map<(s, h, p, c) -> (s, p)>, affine_map<(s, h, p, c) -> (s, p)>, affine_map<(s, h, p, c) -> (s, h, p, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %cos, %sin : tensor<37x5x16x2xbf16>, tensor<37x5x16x2xbf16>, tensor<37x16xf32>, tensor<37x16xf32>) outs(%e : tensor<37x5x16x2xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32, %s: f32, %o: bf16):
    %k = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %k, %c0 : index
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %ac = arith.mulf %af, %c : f32
    %bs = arith.mulf %bf, %s : f32
    %as = arith.mulf %af, %s : f32
    %bc = arith.mulf %bf, %c : f32
    %r0 = arith.subf %ac, %bs : f32
    %r1 = arith.addf %as, %bc : f32
    %sel = arith.select %is0, %r0, %r1 : f32
    %t = arith.truncf %sel : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<37x5x16x2xbf16>
  return %r : tensor<37x5x16x2xbf16>
}

// -----

// Records scaled by a per-record value (no field read): the table is read
// once per record, so the loops merge too; the record loop's index is
// e floordiv 4.
// CHECK-LABEL: func.func @per_record
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.divui %{{.*}}, %c4
// REM: remark: records of 4 fields and their 100 records iterated as one loop of 400
func.func @per_record(%x: tensor<3x100x4xf32>, %w: tensor<3x100xf32>) -> tensor<3x100x4xf32> {
  %e = tensor.empty() : tensor<3x100x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, n, c) -> (b, n, c)>, affine_map<(b, n, c) -> (b, n)>, affine_map<(b, n, c) -> (b, n, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %w : tensor<3x100x4xf32>, tensor<3x100xf32>) outs(%e : tensor<3x100x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %n = linalg.index 1 : index
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %nf : f32
    linalg.yield %s : f32
  } -> tensor<3x100x4xf32>
  return %r : tensor<3x100x4xf32>
}

// -----

// Records transposed on the way out (fields outermost in the result): not
// whole records; kept, with the reason.
// CHECK-LABEL: func.func @transposed_out
// CHECK: iterator_types = ["parallel", "parallel"]
// CHECK-NOT: collapse_shape
// REM: remark: records of 2 fields keep one record per vector: an operand reads the records or their fields in another order
func.func @transposed_out(%x: tensor<64x2xf32>) -> tensor<2x64xf32> {
  %e = tensor.empty() : tensor<2x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, 1)>, affine_map<(n, c) -> (c, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x2xf32>) outs(%e : tensor<2x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// -----

// Three fields (not a power of two) and a plain elementwise op over records
// (nothing narrow): both untouched, no remark.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: collapse_shape
// CHECK: return
// REM-NOT: remark
func.func @untouched(%x: tensor<64x3xf32>, %y: tensor<64x2xf32>) -> (tensor<64x3xf32>, tensor<64x2xf32>) {
  %e = tensor.empty() : tensor<64x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, 0)>, affine_map<(n, c) -> (n, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x3xf32>) outs(%e : tensor<64x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64x3xf32>
  %e2 = tensor.empty() : tensor<64x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x2xf32>) outs(%e2 : tensor<64x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<64x2xf32>
  return %r, %s : tensor<64x3xf32>, tensor<64x2xf32>
}
