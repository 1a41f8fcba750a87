// memopt-interchange-normalizations: a normalization over a loop that is
// not the innermost one iterates with that loop innermost, its buffers
// permuted (views of the ones others use, permuted allocations of its
// own), and then forms one interleaved row group.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-interchange-normalizations))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-interchange-normalizations, memopt-form-groups, memopt-select-kernel-strategy{interleaved-rows-per-thread=8}))" 2>/dev/null | FileCheck %s --check-prefix=PLAN

// Softmax over dim 0 of 300 x 64 (as bufferized from linalg.softmax
// dimension(0)): max, sum of exp(x - max) recomputing the exponential,
// the exponential, the division.
// CHECK-LABEL: func.func @sm0
// CHECK-SAME:    (%[[X:.*]]: memref<300x64xf32>, %[[Y:.*]]: memref<300x64xf32>)
// CHECK-DAG:     %[[YT:.*]] = memref.transpose %[[Y]] (d0, d1) -> (d1, d0) : memref<300x64xf32> to memref<64x300xf32, strided<[1, 64]>>
// CHECK-DAG:     %[[XT:.*]] = memref.transpose %[[X]] (d0, d1) -> (d1, d0) : memref<300x64xf32> to memref<64x300xf32, strided<[1, 64]>>
// CHECK-DAG:     %[[EX:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x300xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}}outs(%[[MX:.*]] : memref<64xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID:.*]], #[[ROW:.*]]], iterator_types = ["parallel", "reduction"]} ins(%[[XT]] : {{.*}}) outs(%[[MX]] : memref<64xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[XT]], %[[MX]] : {{.*}})
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[XT]], %[[MX]] : {{.*}}) outs(%[[EX]] : memref<64x300xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[EX]], %{{.*}} : memref<64x300xf32>, memref<64xf32>) outs(%[[YT]] : memref<64x300xf32, strided<[1, 64]>>)
// PLAN-LABEL: func.func @sm0
// PLAN:         memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 40, chunks = 8, cluster = 1, {{.*}}rows_per_block = 32, interleaved = true>}
// PLAN-NOT:     memopt.kernel_group
// PLAN:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#v = affine_map<(d0) -> (d0)>
func.func @sm0(%arg0: memref<300x64xf32>, %arg1: memref<300x64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFFC00000 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<300x64xf32>
  %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #v], iterator_types = ["parallel"]} ins(%cst_0 : f32) outs(%alloc_1 : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%arg0 : memref<300x64xf32>) outs(%alloc_1 : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maxnumf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#sc, #v], iterator_types = ["parallel"]} ins(%cst : f32) outs(%alloc_2 : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["reduction", "parallel"]} ins(%arg0, %alloc_1 : memref<300x64xf32>, memref<64xf32>) outs(%alloc_2 : memref<64xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %0 = arith.subf %in, %in_3 : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %out : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc_1 : memref<300x64xf32>, memref<64xf32>) outs(%alloc : memref<300x64xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %0 = arith.subf %in, %in_3 : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_2 : memref<300x64xf32>, memref<64xf32>) outs(%arg1 : memref<300x64xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %0 = arith.divf %in, %in_3 : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %alloc : memref<300x64xf32>
  return
}

// -----

// Over the middle loop of 3 x 40 x 16 (the mean subtracted over dim 1):
// loop 1 moves innermost, the views permute (d0, d1, d2) -> (d0, d2, d1).
// CHECK-LABEL: func.func @center1
// CHECK:         memref.transpose %{{.*}} (d0, d1, d2) -> (d0, d2, d1) : memref<3x40x16xf32> to memref<3x16x40xf32, strided<[640, 1, 16]>>
// CHECK:         iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         iterator_types = ["parallel", "parallel", "parallel"]
// PLAN-LABEL: func.func @center1
// PLAN:         #memopt.row<vector = 4, {{.*}}rows_per_block = 16, interleaved = true>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#sc2 = affine_map<(d0, d1) -> ()>
func.func @center1(%x: memref<3x40x16xf32>, %y: memref<3x40x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 2.5e-02 : f32
  %s = memref.alloc() : memref<3x16xf32>
  linalg.generic {indexing_maps = [#sc2, #id2], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%s : memref<3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<3x40x16xf32>) outs(%s : memref<3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : memref<3x40x16xf32>, memref<3x16xf32>) outs(%y : memref<3x40x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.mulf %m, %inv : f32
    %1 = arith.subf %in, %0 : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %s : memref<3x16xf32>
  return
}

// -----

// A lone column reduction (nothing reads its result over the whole space)
// stays for the column family.
// CHECK-LABEL: func.func @colsum
// CHECK-NOT:     memref.transpose
// CHECK:         iterator_types = ["reduction", "parallel"]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @colsum(%x: memref<300x64xf32>, %s: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<300x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}
