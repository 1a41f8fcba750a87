// The column-reduction family's selection rules, and the fill its
// whole-column form takes into its group: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{column-last-block=false}))" 2>/dev/null | FileCheck %s --check-prefix=KERNEL

// Columns that fill the GPU (4096: 256 blocks of 4 chunks of 4): whole
// columns seeded by the fill in its group; 64 row lanes walk the 512 rows,
// unrolled 8 (all the rows one sweep needs).
// CHECK-LABEL: func.func @whole_columns
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 512, unroll = 8, seed_from_fill = true>}
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @whole_columns(%x: memref<512x4096xf32>, %y: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 96 columns (6 blocks) but only 1000 rows, less than two slices of a full
// unrolled sweep (64 row lanes x 16): whole columns in 6 blocks, seeded.
// CHECK-LABEL: func.func @few_columns_few_rows
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 1000, unroll = 16, seed_from_fill = true>}
// CHECK-NOT:   memopt.kernel_group
func.func @few_columns_few_rows(%x: memref<1000x96xf32>, %y: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<96xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1000x96xf32>) outs(%y : memref<96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 96 columns of 100000 rows: the rows are split into 44 slices of 2304
// (two blocks per multiprocessor), partials combined in slice order by the
// last block of each column block to arrive (column-last-block=false: by a
// second kernel); the fill seeds the result.
// KERNEL-LABEL: func.func @split_rows
// KERNEL:       strategy = #memopt.column_reduce<form = split_rows, {{.*}}seed_from_fill = true>}
// CHECK-LABEL: func.func @split_rows
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = split_rows, vector = 4, threads = 256, column_threads = 4, rows_per_block = 2304, unroll = 16, seed_from_fill = true, last_block = true>}
// CHECK-NOT:   memopt.kernel_group
func.func @split_rows(%x: memref<100000x96xf32>, %y: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<96xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<100000x96xf32>) outs(%y : memref<96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product has no atomic form; no selected form needs one.
// CHECK-LABEL: func.func @column_product
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 1000, unroll = 16, seed_from_fill = false>}
func.func @column_product(%x: memref<1000x96xf32>, %y: memref<96xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1000x96xf32>) outs(%y : memref<96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.mulf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Mean over the middle dim of (64, 512, 1024): 64 batches of column sums;
// 16384 chunks of 4 need few row lanes (16), so 16 chunks side by side
// (256 contiguous bytes of a row) per block of 256 threads.
// CHECK-LABEL: func.func @middle_dim
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 16, rows_per_block = 512, unroll = 16, seed_from_fill = true>}
func.func @middle_dim(%x: memref<64x512x1024xf32>, %y: memref<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%y : memref<64x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<64x512x1024xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// (16, 64, 1024): 64 rows, 64 row lanes, one load per lane (unroll 1).
// CHECK-LABEL: func.func @middle_dim_short
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 64, unroll = 1, seed_from_fill = true>}
func.func @middle_dim_short(%x: memref<16x64x1024xf32>, %y: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%y : memref<16x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<16x64x1024xf32>) outs(%y : memref<16x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// (2, 20000, 96): 2 batches of 24 chunks give 12 blocks; the 20000 rows
// are split into 19 slices of 1088 (22 would give two blocks per
// multiprocessor, but each slice is at least one unrolled sweep of 1024).
// CHECK-LABEL: func.func @middle_dim_split
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = split_rows, vector = 4, threads = 256, column_threads = 4, rows_per_block = 1088, unroll = 16, seed_from_fill = true, last_block = true>}
func.func @middle_dim_split(%x: memref<2x20000x96xf32>, %y: memref<2x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%y : memref<2x96xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<2x20000x96xf32>) outs(%y : memref<2x96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Over loop 1 of (4, 300, 6, 64): the inner points are (6, 64), the
// vector in the last.
// CHECK-LABEL: func.func @two_inner_dims
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
func.func @two_inner_dims(%x: memref<4x300x6x64xf32>, %y: memref<4x6x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%zero : f32) outs(%y : memref<4x6x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x : memref<4x300x6x64xf32>) outs(%y : memref<4x6x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The output transposes the parallel loops: not this family's form.
// CHECK-LABEL: func.func @permuted_output
// CHECK: #memopt.naive<threads = 256, reason = "no fused strategy applies (transpose: not a single-output all-parallel op of rank >= 2; column reduction: output is not indexed by the parallel loops in order)">
func.func @permuted_output(%x: memref<8x300x64xf32>, %y: memref<64x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<8x300x64xf32>) outs(%y : memref<64x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A mean over the middle dim: the division over the outputs is the column
// kernel's epilogue (one group: fill, sum, division).
// CHECK-LABEL: func.func @mean_epilogue
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @mean_epilogue(%x: memref<16x64x1024xf32>, %y: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %t = memref.alloc() : memref<16x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%t : memref<16x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<16x64x1024xf32>) outs(%t : memref<16x1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : memref<16x1024xf32>) outs(%y : memref<16x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.divf %a, %n : f32
    linalg.yield %q : f32
  }
  memref.dealloc %t : memref<16x1024xf32>
  return
}

// -----

// An op reading the sums at another point (a reversed index) cannot run
// where each output is finished: a kernel of its own.
// CHECK-LABEL: func.func @not_an_epilogue
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise
func.func @not_an_epilogue(%x: memref<512x4096xf32>, %t: memref<4096xf32>, %y: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%t : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (4095 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : memref<4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// An op that touches memory between the sums and their epilogue: the
// epilogue is not merged (the group would move the reduction past it).
// CHECK-LABEL: func.func @copy_between
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
// CHECK:       memref.copy
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise
func.func @copy_between(%x: memref<512x4096xf32>, %t: memref<4096xf32>, %s: memref<4096xf32>, %y: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%t : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %s : memref<4096xf32> to memref<4096xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : memref<4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %q = arith.mulf %a, %h : f32
    linalg.yield %q : f32
  }
  return
}

// -----

// An epilogue writing a buffer the reduction reads (w, while other blocks
// still read it): not merged.
// CHECK-LABEL: func.func @epilogue_writes_input
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise
func.func @epilogue_writes_input(%a: memref<4096x4096xf32>, %w: memref<4096xf32>, %t: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a, %w : memref<4096x4096xf32>, memref<4096xf32>) outs(%t : memref<4096xf32>) {
  ^bb0(%x: f32, %v: f32, %acc: f32):
    %p = arith.mulf %x, %v : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : memref<4096xf32>) outs(%w : memref<4096xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// i8 inputs summed in i32: vectors of 16 and a warp of chunks side by side
// (few row lanes are needed); a block finishes its 32 x 16 columns one per
// thread, so it has 512 threads (16 row lanes, 4 rows each), not 256.
// CHECK-LABEL: func.func @i8_wide_vectors
// CHECK:       strategy = #memopt.column_reduce<form = whole_column, vector = 16, threads = 512, column_threads = 32, rows_per_block = 64, unroll = 4, seed_from_fill = false>
func.func @i8_wide_vectors(%x: memref<64x327680xi8>, %y: memref<327680xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x327680xi8>) outs(%y : memref<327680xi32>) {
  ^bb0(%a: i8, %acc: i32):
    %w = arith.extsi %a : i8 to i32
    %r = arith.addi %w, %acc : i32
    linalg.yield %r : i32
  }
  return
}
