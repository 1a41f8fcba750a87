// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" | FileCheck %s

// A per-row value read from memory and rewritten in place, in a group of
// elementwise ops: the threads of a row sit in several blocks with no order
// between them, so the elementwise family refuses and the ops run as naive
// kernels.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_value_in_place
// CHECK:       #memopt.naive<threads = 256, reason = "a per-row value is updated in place by threads of several blocks">
func.func @row_value_in_place(%x: memref<4x8xf32>, %s: memref<4xf32>, %y: memref<4x8xf32>) {
  // expected-remark @below {{fused kernel not formed: a per-row value is updated in place by threads of several blocks; using a naive kernel}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%s : memref<4xf32>) {
  ^bb0(%o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %o, %two : f32
    linalg.yield %r : f32
  }
  // expected-remark @below {{fused kernel not formed: a per-row value is updated in place by threads of several blocks; using a naive kernel}}
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
