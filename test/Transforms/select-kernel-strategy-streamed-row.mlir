// The streamed row family's selection rules: rows too long for a cluster
// the target or the options allow stream in tiles of one chunk per thread
// of the largest block, reserving half of a multiprocessor's shared memory
// plus 1 KiB (one row in flight per multiprocessor; sm_90 228 KiB, sm_80
// 164 KiB). The plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1}))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target{chip=sm_80}, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s --check-prefix=SM80
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1 vector-bytes=8}))" 2>/dev/null | FileCheck %s --check-prefix=NARROW

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_65536
// CHECK:       #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 117760>
// SM80-LABEL:  func.func @sum_65536
// SM80:        #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 84992>
// NARROW-LABEL: func.func @sum_65536
// NARROW:      #memopt.streamed_row<vector = 2, threads = 1024, tiles = 32, reserved_shared_bytes = 117760>
func.func @sum_65536(%x: memref<256x65536xf32>, %s: memref<256xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<256x65536xf32>) outs(%s : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A row that fits one block's registers is not streamed.
// CHECK-LABEL: func.func @sum_4096
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 128, chunks = 8, cluster = 1,
func.func @sum_4096(%x: memref<256x4096xf32>, %s: memref<256xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<256x4096xf32>) outs(%s : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
