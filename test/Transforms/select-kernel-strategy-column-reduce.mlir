// The column-reduction family's selection rules, and the fill its
// whole-column form takes into its group: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s

// A column sum whose columns fill the GPU (4096 columns: 256 slices of 16)
// takes the fill of its output into its group: the whole-column form
// seeds its result with the fill's value.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @whole_columns
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 512, unroll = 16, seed_from_fill = true>}
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @whole_columns(%x: memref<512x4096xf32>, %y: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Too few columns to give every multiprocessor a block: the fill is a
// kernel of its own and the sum takes row slices combined with atomics.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @row_slices
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 4, threads = 256>}
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = row_slices, vector = 4, threads = 32, column_threads = 1, rows_per_block = 256, unroll = 16, seed_from_fill = false>}
func.func @row_slices(%x: memref<1000x96xf32>, %y: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<96xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1000x96xf32>) outs(%y : memref<96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of columns has no atomic form and too few columns: naive.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @column_product
// CHECK:       #memopt.naive<threads = 256, reason = "no fused strategy applies (transpose: not a single-output all-parallel op of rank >= 2; column reduction: whole columns: too few column slices (6) to give every multiprocessor a block; row slices: combiner has no atomic form)">
func.func @column_product(%x: memref<1000x96xf32>, %y: memref<96xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1000x96xf32>) outs(%y : memref<96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.mulf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
