// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1}))" -o /dev/null
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1}))" 2>/dev/null | FileCheck %s

// A row too long for a cluster of the allowed size is streamed, and says
// so.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @streamed
// CHECK: #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 114688>
func.func @streamed(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-remark @below {{row of 65536 elements streamed in tiles: holding it in registers takes a cluster of 2 blocks, more than max-cluster-size (1)}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Reductions whose partials travel in different 32-bit types (a sum and a
// count) share the block's exchange, the integer bitcast to f32 there: one
// row kernel, no remark.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @mixed_accumulators
// CHECK: #memopt.row<
func.func @mixed_accumulators(%x: memref<4x64xf32>, %s: memref<4xf32>, %c: memref<4xi32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%c : memref<4xi32>) {
  ^bb0(%a: f32, %acc: i32):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %z : f32
    %one = arith.extui %p : i1 to i32
    %r = arith.addi %acc, %one : i32
    linalg.yield %r : i32
  }
  return
}
