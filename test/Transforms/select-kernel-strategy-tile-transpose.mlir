// The tiled-transpose family's selection rules and the group
// memopt-form-groups forms around a tile: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s

// A transpose with a scale before it (the prologue, run while the tile is
// loaded) and a bias after it (the epilogue): one group, op 1 transposes.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @tile_fused
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.tile_transpose<transpose = 1, tile = 32, tile_rows = 8>}
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @tile_fused(%x: memref<64x96xf32>, %b: memref<64xf32>, %y: memref<96x64xf32>) {
  %t = memref.alloc() : memref<64x96xf32>
  %u = memref.alloc() : memref<96x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x96xf32>) outs(%t : memref<64x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<64x96xf32>) outs(%u : memref<96x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %b : memref<96x64xf32>, memref<64xf32>) outs(%y : memref<96x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<64x96xf32>
  memref.dealloc %u : memref<96x64xf32>
  return
}
