// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused row-prefetch=1 multiprocessors=1 row-register-elements=64}))"

// Each reason --row-prefetch gives for keeping one row per cluster (one
// multiprocessor: one cluster fits at once, so every case has rows to
// prefetch). Three rows, fewer than the four per multiprocessor that
// would stream these scalar-only sums in one pass instead.

// Rows whose length is not a multiple of the vector (shifted chunks).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @shifted(%x: memref<3x69631xf32>, %s: memref<3xf32>) {
  // expected-remark @+1 {{rows not prefetched: a row of 69631 elements is not a multiple of the 4-element vector}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x69631xf32>) outs(%s : memref<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// No input along the row: a sum of a vector broadcast to every row.
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @broadcast_only(%g: memref<139264xf32>, %s: memref<3xf32>) {
  // expected-remark @+1 {{rows not prefetched: no input is read along the row}}
  linalg.generic {indexing_maps = [#col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%g : memref<139264xf32>) outs(%s : memref<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A block's slice (64 f32 per thread, 128 KiB) does not fit in its half of
// a multiprocessor's shared memory.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @slice_too_big(%x: memref<3x131072xf32>, %s: memref<3xf32>) {
  // expected-remark @+1 {{rows not prefetched: a block's slice of an input does not fit in its share of shared memory}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x131072xf32>) outs(%s : memref<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row that fits in one block's registers is not split over a cluster:
// nothing to say.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @short_rows(%x: memref<64x4096xf32>, %s: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x4096xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
