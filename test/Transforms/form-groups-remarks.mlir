// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups))" | FileCheck %s

// An op other than an allocation, view or constant between two ops ends
// the group, and the op after it says so.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @copy_between
// CHECK:       memopt.kernel_group {
// CHECK-NEXT:    linalg.generic
// CHECK:       memref.copy
// CHECK:       memopt.kernel_group {
// CHECK-NEXT:    linalg.generic
func.func @copy_between(%x: memref<4x8xf32>, %t: memref<4x8xf32>, %c: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  memref.copy %x, %c : memref<4x8xf32> to memref<4x8xf32>
  // expected-remark @below {{not fused with the preceding kernel group: 'memref.copy' between them may touch memory}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A reduction of the output of a group at other positions than the ones
// its threads hold (a broadcast of an intermediate) starts a new group.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @other_positions
// CHECK-COUNT-2: memopt.kernel_group {
func.func @other_positions(%x: memref<8x8xf32>, %t: memref<8x8xf32>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  // expected-remark @below {{not fused with the preceding kernel group: it reads a group result at other positions than the ones the producing thread holds (a broadcast or permutation of an intermediate)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #row], iterator_types = ["parallel", "reduction"]} ins(%t : memref<8x8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A fill is not taken into the column reduction's group across an op that
// may read the filled buffer (the copy must see the fill).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @fill_copy_reduce
// CHECK:       memopt.kernel_group {
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : f32)
// CHECK:       memref.copy
// CHECK-NEXT:  memopt.kernel_group {
// CHECK-NEXT:    linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
func.func @fill_copy_reduce(%x: memref<512x4096xf32>, %y: memref<4096xf32>, %d: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.copy %y, %d : memref<4096xf32> to memref<4096xf32>
  // expected-remark @below {{not fused with the preceding kernel group: 'memref.copy' between them may touch memory}}
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
