// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,linalg-fold-unit-extent-dims,memopt-interchange-reductions))" -split-input-file 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,linalg-fold-unit-extent-dims,memopt-interchange-reductions))" -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REM

// p . V of decode attention as generics over [h, d, t]: V is contiguous
// along d, a parallel loop, so the loops follow V's layout, [h, t, d].
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @pv
// REM: interchange-reductions.mlir:[[@LINE+6]]:{{.*}} remark: loops interchanged to (d0, d2, d1), its largest input's layout order
// CHECK: linalg.generic {indexing_maps = [#[[P]], #[[V]], #[[O]]], iterator_types = ["parallel", "reduction", "parallel"]}
#p = affine_map<(h, d, t) -> (h, t)>
#v = affine_map<(h, d, t) -> (h, t, d)>
#o = affine_map<(h, d, t) -> (h, d)>
func.func @pv(%p: tensor<4x77xf32>, %v: tensor<4x77x40xbf16>, %init: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %r = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x77xf32>, tensor<4x77x40xbf16>) outs(%init : tensor<4x40xf32>) {
  ^bb0(%a: f32, %b: bf16, %acc: f32):
    %e = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x40xf32>
  return %r : tensor<4x40xf32>
}

// -----

// torch-mlir's p . V: a batch_matmul with one query row, the unit dim
// folded away, then in V's order ([b, k, n]).
// CHECK-LABEL: func.func @pv_named
// REM: remark: loops interchanged to (d0, d2, d1)
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%{{.*}}, %arg1 : tensor<4x77xf32>, tensor<4x77x40xf32>)
func.func @pv_named(%p: tensor<4x1x77xf32>, %v: tensor<4x77x40xf32>) -> tensor<4x1x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x1x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x1x40xf32>) -> tensor<4x1x40xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x1x77xf32>, tensor<4x77x40xf32>) outs(%f : tensor<4x1x40xf32>) -> tensor<4x1x40xf32>
  return %o : tensor<4x1x40xf32>
}

// -----

// A matmul with several rows: V's order would put the rows m outside the
// batch, and the output [b, m, n] would be written across its layout.
// CHECK-LABEL: func.func @bmm
// REM: remark: reduction keeps its loop order, walking its largest input across its contiguous dim: an output would then be written across its layout
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @bmm(%a: tensor<4x8x77xf32>, %v: tensor<4x77x40xf32>) -> tensor<4x8x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8x40xf32>) -> tensor<4x8x40xf32>
  %o = linalg.batch_matmul ins(%a, %v : tensor<4x8x77xf32>, tensor<4x77x40xf32>) outs(%f : tensor<4x8x40xf32>) -> tensor<4x8x40xf32>
  return %o : tensor<4x8x40xf32>
}

// -----

// Softmax over dim 0 written with the reduced loop innermost: the input is
// read back by the exponentials, so the reduction keeps the program's
// order (memopt-interchange-normalizations takes the run at memref level).
// CHECK-LABEL: func.func @readback
// REM: remark: reduction keeps its loop order, walking its largest input across its contiguous dim: its largest input is read by other ops too
// CHECK: iterator_types = ["parallel", "reduction"]
#t = affine_map<(n, r) -> (r, n)>
#n = affine_map<(n, r) -> (n)>
#id = affine_map<(r, n) -> (r, n)>
#col = affine_map<(r, n) -> (n)>
func.func @readback(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<32xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %m = linalg.generic {indexing_maps = [#t, #n], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x32xf32>) outs(%f1 : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<64x32xf32>, tensor<32xf32>) outs(%e2 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// -----

// A row reduction already walks its input's contiguous dim: unchanged, no
// remark.
// CHECK-LABEL: func.func @row
// REM-NOT: remark
// CHECK: iterator_types = ["parallel", "reduction"]
#i2 = affine_map<(r, c) -> (r, c)>
#r1 = affine_map<(r, c) -> (r)>
func.func @row(%x: tensor<64x32xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %s = linalg.generic {indexing_maps = [#i2, #r1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x32xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// A row max written IREE-style with the reduced loop first ([reduction,
// parallel], x read as (d1, d0)): x's contiguous dim is the reduced loop,
// so the loops take x's order, the reduced loop innermost (a row
// reduction), even though x is read back (the read-back walks x in the
// same order).
// REM: remark: loops interchanged to (d1, d0), its largest input's layout order: the reduced loop now innermost (a row reduction)
// CHECK-LABEL: func.func @reduction_first
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<129x511xf32>)
#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reduction_first(%x: tensor<129x511xf32>) -> (tensor<129xf32>, tensor<129x511xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<129xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<129xf32>) -> tensor<129xf32>
  %m = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<129x511xf32>) outs(%f : tensor<129xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<129xf32>
  %e2 = tensor.empty() : tensor<129x511xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<129x511xf32>, tensor<129xf32>) outs(%e2 : tensor<129x511xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<129x511xf32>
  return %m, %c : tensor<129xf32>, tensor<129x511xf32>
}

// -----

// A sum over dims 0 and 2 of x[13, 200, 66] iterated as [d1, d0, d2] (the
// parallel loop first): in x's order, [d0 (13), d1 (200), d2 (66)], the
// reduced loops of the layout (staged later).
// REM: remark: loops interchanged to (d1, d0, d2), its largest input's layout order: the reduced loop now innermost (a row reduction)
// CHECK-LABEL: func.func @parallel_first
// CHECK: iterator_types = ["reduction", "parallel", "reduction"]
func.func @parallel_first(%x: tensor<13x200x66xf16>, %init: tensor<200xf32>) -> tensor<200xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<13x200x66xf16>) outs(%init : tensor<200xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<200xf32>
  return %s : tensor<200xf32>
}

// -----

// A row sum written transposed, out[c, n] = sum_k x[n, c, k]: each row of x
// is read contiguously in any order, so the parallel loops follow the
// output (the rows walked as (c, n)); the reduced loop stays innermost.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @rowsum_transposed
// REM: interchange-reductions.mlir:[[@LINE+6]]:{{.*}} remark: loops interchanged to (d1, d0, d2), its largest input's layout order along its rows, its output's across them: the reduced loop now innermost (a row reduction)
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @rowsum_transposed(%x: tensor<5x7x100xf32>) -> tensor<7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, c, k)>, affine_map<(n, c, k) -> (c, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<5x7x100xf32>) outs(%z : tensor<7x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
