// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{row-prefetch=true row-shared-elements=0}))" -o /dev/null

// Persistent clusters need more rows than clusters fit at once.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @few_rows(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-remark @below {{rows not prefetched: 4 rows, at most one per cluster (66 clusters fit at once)}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Rows whose length is not a multiple of the vector are not prefetched.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @odd_rows(%x: memref<256x65537xf32>, %s: memref<256xf32>) {
  // expected-remark @below {{rows not prefetched: a row of 65537 elements is not a multiple of the 4-element vector}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<256x65537xf32>) outs(%s : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
