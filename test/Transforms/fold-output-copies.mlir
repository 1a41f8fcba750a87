// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-fold-output-copies))" | FileCheck %s

// A result computed in a rank-0 allocation and expanded to its out
// parameter's shape: the allocation becomes the out parameter collapsed,
// and the copy goes.
// CHECK-LABEL: func.func @expanded
// CHECK-SAME:    (%[[X:.+]]: memref<8xf32>, %[[OUT:.+]]: memref<1xf32>)
// CHECK:         %[[V:.+]] = memref.collapse_shape %[[OUT]] [] : memref<1xf32> into memref<f32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[V]] : memref<f32>)
// CHECK-NOT:     memref.copy
func.func @expanded(%x: memref<8xf32>, %out: memref<1xf32>) {
  %a = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<8xf32>) outs(%a : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  %e = memref.expand_shape %a [] output_shape [1] : memref<f32> into memref<1xf32>
  memref.copy %e, %out : memref<1xf32> to memref<1xf32>
  return
}

// -----

// Keepdim statistics through a collapse: the out parameter expanded.
// CHECK-LABEL: func.func @collapsed
// CHECK:         %[[V:.+]] = memref.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[V]] : memref<4x1xf32>)
// CHECK-NOT:     memref.copy
func.func @collapsed(%x: memref<4x1xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1xf32>) outs(%a : memref<4x1xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  }
  %c = memref.collapse_shape %a [[0, 1]] : memref<4x1xf32> into memref<4xf32>
  memref.copy %c, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The allocation read after the copy: kept (writing the out parameter
// early would be the same here, but only uses before the copy are folded).
// CHECK-LABEL: func.func @used_after
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @used_after(%x: memref<8xf32>, %out: memref<1xf32>, %out2: memref<f32>) {
  %a = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<8xf32>) outs(%a : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  %e = memref.expand_shape %a [] output_shape [1] : memref<f32> into memref<1xf32>
  memref.copy %e, %out : memref<1xf32> to memref<1xf32>
  memref.copy %a, %out2 : memref<f32> to memref<f32>
  return
}
