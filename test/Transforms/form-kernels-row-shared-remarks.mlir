// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused row-shared-elements=96}))"

// Each reason a row split over a cluster keeps its slices in registers
// although shared memory (here 96 more elements per thread) would let
// fewer blocks share the row.

// Rows whose length is not a multiple of the vector (shifted chunks).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @shifted(%x: memref<4x69631xf32>, %s: memref<4xf32>) {
  // expected-remark @+1 {{row slices kept in registers: a row of 69631 elements is not a multiple of the 4-element vector}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x69631xf32>) outs(%s : memref<4xf32>) {
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
func.func @broadcast_only(%g: memref<139264xf32>, %s: memref<4xf32>) {
  // expected-remark @+1 {{row slices kept in registers: no input is read along the row}}
  linalg.generic {indexing_maps = [#col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%g : memref<139264xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The rest of a block's slice (96 f32 per thread of 256, 96 KiB: blocks of
// 256 keep the cluster within 8) does not fit in its quarter of a
// multiprocessor's shared memory.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @slice_too_big(%x: memref<4x131072xf32>, %s: memref<4xf32>) {
  // expected-remark @+1 {{row slices kept in registers: a block's share of shared memory does not hold the rest of its slice}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x131072xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
