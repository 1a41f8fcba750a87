// The row family across row counts (memopt-select-kernel-strategy): few
// rows are spread over clusters, many short rows share blocks.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target{chip=sm_80}, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s --check-prefix=SM80

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Decode: 16 rows of 8192 bf16 (2048 chunks of 4: the f32 sum sets the
// vector). A block per row would use 16 of 132 multiprocessors: clusters
// of 16 blocks (two per multiprocessor: 264 / 16), each 32 threads x 4
// chunks. sm_80 has no clusters: a block per row.
// CHECK-LABEL: func.func @decode_16
// CHECK: #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 4, cluster = 16, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>
// SM80-LABEL: func.func @decode_16
// SM80: #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1,
func.func @decode_16(%x: memref<16x8192xbf16>, %s: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x8192xbf16>) outs(%s : memref<16xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %sq = arith.mulf %w, %w : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// One row of 8192 f32 (2048 chunks): the largest cluster (16).
// CHECK-LABEL: func.func @one_row
// SM80-LABEL: func.func @one_row
// CHECK: #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 4, cluster = 16,
func.func @one_row(%x: memref<1x8192xf32>, %s: memref<1xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x8192xf32>) outs(%s : memref<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// 8 rows of 256 f32 (64 chunks): at least a warp of chunks per block, so
// clusters of 2.
// CHECK-LABEL: func.func @few_short
// CHECK: #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 1, cluster = 2,
func.func @few_short(%x: memref<8x256xf32>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x256xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Many short rows (8192 of 256 f32): a warp per row, 8 rows per block.
// CHECK-LABEL: func.func @many_short
// CHECK: #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 2, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, rows_per_block = 8>
func.func @many_short(%x: memref<8192x256xf32>, %s: memref<8192xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8192x256xf32>) outs(%s : memref<8192xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// An odd row count: 8 rows per block all the same (the last block holds 7).
// CHECK-LABEL: func.func @odd_short
// CHECK: #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 2, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, rows_per_block = 8>
func.func @odd_short(%x: memref<8191x256xf32>, %s: memref<8191xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8191x256xf32>) outs(%s : memref<8191xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// 600 rows of 256: two blocks per multiprocessor need 264 blocks, so 2
// rows per block (300 blocks), not 4 (150).
// CHECK-LABEL: func.func @some_short
// CHECK: rows_per_block = 2>
func.func @some_short(%x: memref<600x256xf32>, %s: memref<600xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<600x256xf32>) outs(%s : memref<600xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
