// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,memopt-fold-permutation-copies))" -split-input-file 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg,memopt-fold-permutation-copies))" -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REM

// q @ k.transpose(-1, -2) as torch-mlir writes it: the transpose is read in
// place by the batch_matmul, whose reduced (innermost) loop then walks K's
// contiguous dim.
// CHECK-LABEL: func.func @qk
// REM: fold-permutation-copies.mlir:[[@LINE+12]]:{{.*}} remark: input 1 read in place of its permuted copy
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[Q:.*]], #[[K:.*]], #[[S:.*]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x1x40xbf16>, tensor<4x77x40xbf16>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @qk(%q: tensor<4x1x40xbf16>, %k: tensor<4x77x40xbf16>) -> tensor<4x1x77xf32> {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x40x77xbf16>
  %kt = linalg.transpose ins(%k : tensor<4x77x40xbf16>) outs(%et : tensor<4x40x77xbf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x1x77xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<4x1x77xf32>) -> tensor<4x1x77xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x1x40xbf16>, tensor<4x40x77xbf16>) outs(%fs : tensor<4x1x77xf32>) -> tensor<4x1x77xf32>
  return %s : tensor<4x1x77xf32>
}

// -----

// An elementwise reader that would walk the source across its rows keeps
// the copy (the tile-transpose family stages it); a second reader that
// reduces along the source's rows reads it in place.
// CHECK-LABEL: func.func @kept
// REM-DAG: remark: permuted copy materialized: a reader's innermost loop would walk the source across its contiguous dim
// REM-DAG: remark: input 0 read in place of its permuted copy
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<64x32xf32>) outs({{.*}} : tensor<32x64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<32x64xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<64x32xf32>)
func.func @kept(%x: tensor<64x32xf32>) -> (tensor<32x64xf32>, tensor<64xf32>) {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<32x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%et : tensor<32x64xf32>) permutation = [1, 0]
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%xt : tensor<32x64xf32>) outs(%et : tensor<32x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  // Sum over the copy's rows = over the source's columns: read in place,
  // the reduced loop is the innermost and walks the source's rows.
  %s = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%xt : tensor<32x64xf32>) outs(%fr : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y, %s : tensor<32x64xf32>, tensor<64xf32>
}

// -----

// A copy of a copy read twice by one reader: the first copy read in place
// by the second, then that twice by the reader; both
// copies gone.
// CHECK-LABEL: func.func @chain
// REM-COUNT-3: remark: input {{[0-9]}} read in place of its permuted copy
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg0 : tensor<2x3x8xf32>, tensor<2x3x8xf32>)
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %e1 = tensor.empty() : tensor<3x2x8xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x8xf32>) outs(%e1 : tensor<3x2x8xf32>) permutation = [1, 0, 2]
  %e2 = tensor.empty() : tensor<2x3x8xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x2x8xf32>) outs(%e2 : tensor<2x3x8xf32>) permutation = [1, 0, 2]
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t2, %t2 : tensor<2x3x8xf32>, tensor<2x3x8xf32>) outs(%e2 : tensor<2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

// Attention's output o.transpose(1, 2).reshape(B, T, H * D) + bias: the copy
// is read through a collapse_shape, so the bias add iterates over
// [B, T, H, D] instead (the bias viewed as [H, D], the result collapsed
// back) and reads o in place: no copy written.
// REM: remark: input 0 read in place of its permuted copy
// CHECK-LABEL: func.func @transpose_reshape
// CHECK-SAME:    (%[[O:.+]]: tensor<2x8x33x64xf32>, %[[B:.+]]: tensor<512xf32>)
// CHECK:         %[[BV:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [8, 64]
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} ins(%[[BV]], %[[O]] : tensor<8x64xf32>, tensor<2x8x33x64xf32>)
// CHECK:         tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2, 3]] : tensor<2x33x8x64xf32> into tensor<2x33x512xf32>
func.func @transpose_reshape(%o: tensor<2x8x33x64xf32>, %bias: tensor<512xf32>) -> tensor<2x33x512xf32> {
  %e0 = tensor.empty() : tensor<2x33x8x64xf32>
  %t = linalg.transpose ins(%o : tensor<2x8x33x64xf32>) outs(%e0 : tensor<2x33x8x64xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0], [1], [2, 3]] : tensor<2x33x8x64xf32> into tensor<2x33x512xf32>
  %e1 = tensor.empty() : tensor<2x33x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x33x512xf32>, tensor<512xf32>) outs(%e1 : tensor<2x33x512xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<2x33x512xf32>
  return %y : tensor<2x33x512xf32>
}
