// Remarks of the row family across row counts (the plans are in
// select-kernel-strategy-row-shapes.mlir).
// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" -o /dev/null

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Decode: 16 rows of 8192 bf16: clusters of 16 blocks (two per
// multiprocessor: 264 / 16).
func.func @decode_16(%x: memref<16x8192xbf16>, %s: memref<16xf32>) {
  // expected-remark @below {{16 rows spread over clusters of 16 blocks: a block per row would keep 116 of 132 multiprocessors idle}}
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
func.func @one_row(%x: memref<1x8192xf32>, %s: memref<1xf32>) {
  // expected-remark @below {{1 rows spread over clusters of 16 blocks}}
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
func.func @few_short(%x: memref<8x256xf32>, %s: memref<8xf32>) {
  // expected-remark @below {{8 rows spread over clusters of 2 blocks}}
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
// 600 rows of 256: two blocks per multiprocessor need 264 blocks, so 2
// rows per block (300 blocks), not 4 (150).
func.func @some_short(%x: memref<600x256xf32>, %s: memref<600xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<600x256xf32>) outs(%s : memref<600xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
