// The column family on inner points that are not a multiple of the vector
// (the shifted form), and when it splits the reduced loop: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s

// 10007 rows of 769 f32: rows start at every alignment. Shifted vectors of
// 4 (193 chunks, 4 per block: 49 blocks, too few for 132 multiprocessors),
// the rows split into 6 slices of 1728 (294 blocks, two per
// multiprocessor).
// CHECK-LABEL: func.func @odd_columns
// CHECK:       strategy = #memopt.column_reduce<form = split_rows, vector = 4, threads = 256, column_threads = 4, rows_per_block = 1728, unroll = 16, seed_from_fill = true, shifted = true, last_block = true>
func.func @odd_columns(%x: memref<10007x769xf32>, %y: memref<769xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%y : memref<769xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<10007x769xf32>) outs(%y : memref<769xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A sum over the middle dim of 33 x 2047 x 129 f32: shifted vectors of 4
// (33 chunks per batch: 9 blocks each, 297 in all) over whole columns (too
// few rows for two slices of a full unrolled sweep).
// CHECK-LABEL: func.func @odd_middle
// CHECK:       strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 2047, unroll = 16, seed_from_fill = true, shifted = true>
func.func @odd_middle(%x: memref<33x2047x129xf32>, %y: memref<33x129xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%y : memref<33x129xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<33x2047x129xf32>) outs(%y : memref<33x129xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 columns of 77 (f32 accumulation): shifted vectors of 8 (8 bf16 per
// 16 bytes); a weight along the columns only (broadcast over the rows) is
// read lane by lane and does not stop the shifted form.
// CHECK-LABEL: func.func @odd_bf16_weighted
// CHECK:       strategy = #memopt.column_reduce<form = split_rows, vector = 8, threads = 256, column_threads = 4, rows_per_block = 1344, unroll = 16, seed_from_fill = false, shifted = true, last_block = true>
func.func @odd_bf16_weighted(%x: memref<4000x77xbf16>, %w: memref<77xbf16>, %y: memref<77xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x, %w : memref<4000x77xbf16>, memref<77xbf16>) outs(%y : memref<77xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %p = arith.mulf %a, %b : bf16
    %e = arith.extf %p : bf16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fewer than two vectors of inner points (6 f32): no shifted form; vectors
// of 2 (6 is a multiple of 2).
// CHECK-LABEL: func.func @narrow_columns
// CHECK:       strategy = #memopt.column_reduce<form = split_rows, vector = 2, threads = 256, column_threads = 4, rows_per_block = 1088, unroll = 16, seed_from_fill = false, last_block = true>
func.func @narrow_columns(%x: memref<40000x6xf32>, %y: memref<6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<40000x6xf32>) outs(%y : memref<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A view with a strided layout along the reduced loop (a slice of a wider
// matrix): not a buffer the shifted form can read in aligned chunks;
// scalar lanes.
// CHECK-LABEL: func.func @strided_view
// CHECK:       strategy = #memopt.column_reduce<form = split_rows, vector = 1, threads = 256, column_threads = 16, rows_per_block = 272, unroll = 16, seed_from_fill = false, last_block = true>
func.func @strided_view(%x: memref<5000x129xf32, strided<[200, 1]>>, %y: memref<129xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<5000x129xf32, strided<[200, 1]>>) outs(%y : memref<129xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// W7's shape (16384 x 4096 f32: 256 blocks, 1.94 per multiprocessor, the
// busiest with 2): whole columns, no split.
// CHECK-LABEL: func.func @balanced_whole_columns
// CHECK:       strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 16384, unroll = 16, seed_from_fill = false>
func.func @balanced_whole_columns(%x: memref<16384x4096xf32>, %y: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<16384x4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 160 blocks of whole columns (2 batches of 1280 columns: 80 blocks of 4
// chunks each) cover the multiprocessors: no split, though 28 of them hold
// two blocks (splitting such grids further measured slower: run 45).
// CHECK-LABEL: func.func @unbalanced_blocks
// CHECK:       strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 8192, unroll = 16, seed_from_fill = false>
func.func @unbalanced_blocks(%x: memref<2x8192x1280xf32>, %y: memref<2x1280xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<2x8192x1280xf32>) outs(%y : memref<2x1280xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One input read with its rows in reverse (3 - r): that buffer's last row
// is reached at r = 0, not at the peeled last row, so its second aligned
// chunk would lie past the end: no shifted form, scalar lanes.
// CHECK-LABEL: func.func @reversed_rows
// CHECK:       strategy = #memopt.column_reduce<form = whole_column, vector = 1, {{[^>]*}}seed_from_fill = false>
func.func @reversed_rows(%x: memref<4x129xf32>, %w: memref<4x129xf32>, %y: memref<129xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (3 - d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x, %w : memref<4x129xf32>, memref<4x129xf32>) outs(%y : memref<129xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
