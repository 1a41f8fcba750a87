// The streamed row family's selection rules: rows too long for a cluster
// the target or the options allow stream in tiles of one chunk per thread
// of the largest block, reserving half of a multiprocessor's shared memory
// plus 1 KiB (one row in flight per multiprocessor; sm_90 228 KiB, sm_80
// 164 KiB), or half less 2 KiB where the group walks the row once and
// writes row scalars only (a sum: two rows in flight). The plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1}))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target{chip=sm_80}, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s --check-prefix=SM80
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{max-cluster-size=1 vector-bytes=8}))" 2>/dev/null | FileCheck %s --check-prefix=NARROW

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_65536
// CHECK:       #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 114688>
// SM80-LABEL:  func.func @sum_65536
// SM80:        #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 81920>
// NARROW-LABEL: func.func @sum_65536
// NARROW:      #memopt.streamed_row<vector = 2, threads = 1024, tiles = 32, reserved_shared_bytes = 114688>
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

// -----

// Softmax writes its rows: a maximum and the sum of exp(x - max) share the
// first walk (online_softmax), the normalized row takes a second, so one
// row in flight per multiprocessor keeps the second walk in L2.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax_65536
// CHECK:       #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 117760, online_softmax = true>
// NARROW-LABEL: func.func @softmax_65536
// NARROW:      #memopt.streamed_row<vector = 2, threads = 1024, tiles = 32, reserved_shared_bytes = 117760, online_softmax = true>
func.func @softmax_65536(%x: memref<256x65536xf32>, %m: memref<256xf32>, %s: memref<256xf32>, %y: memref<256x65536xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<256x65536xf32>) outs(%m : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %m : memref<256x65536xf32>, memref<256xf32>) outs(%s : memref<256xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m, %s : memref<256x65536xf32>, memref<256xf32>, memref<256xf32>) outs(%y : memref<256x65536xf32>) {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %sm : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Log-sum-exp of 1024 bf16 rows of 131072 (torch-mlir's form, the exp in
// the sum's body): row scalars only, one walk, so streamed without a
// cluster, 8 lanes of bf16 (the f32 statistics do not set the width).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// SM80-LABEL: func.func @lse_bf16
// SM80:       #memopt.streamed_row<vector = 8, threads = 1024, tiles = 16, reserved_shared_bytes = 81920, online_softmax = true>
func.func @lse_bf16(%x: memref<1024x131072xbf16>, %m: memref<1024xf32>, %s: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1024x131072xbf16>) outs(%m : memref<1024xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.maximumf %w, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %m : memref<1024x131072xbf16>, memref<1024xf32>) outs(%s : memref<1024xf32>) {
  ^bb0(%a: bf16, %mx: f32, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %mx : f32
    %e = math.exp %d : f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}
