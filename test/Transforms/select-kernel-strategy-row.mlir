// The row family's selection rules (memopt-select-kernel-strategy): the
// plan only, no kernels. Options and targets that change the choice each
// have their own prefix.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{row-shared-elements=0}))" | FileCheck %s --check-prefix=REGS
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{row-prefetch=true}))" 2>/dev/null | FileCheck %s --check-prefix=PREFETCH

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>

// RMSNorm over 64 rows of 1024 f32: 32 threads x 8 chunks of 4
// (row-chunks-per-thread) would hold a row, but a block per row leaves
// half the multiprocessors idle: clusters of 4 blocks of 32 x 2 (two
// blocks per multiprocessor).
// CHECK-LABEL: func.func @rms_1024
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 2, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>}
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @rms_1024(%x: memref<64x1024xf32>, %g: memref<1024xf32>, %y: memref<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %ssq = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%ssq : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x1024xf32>) outs(%ssq : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %ssq, %g : memref<64x1024xf32>, memref<64xf32>, memref<1024xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%a: f32, %ss: f32, %gv: f32, %o: f32):
    %r = math.rsqrt %ss : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %gv : f32
    linalg.yield %u : f32
  }
  memref.dealloc %ssq : memref<64xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Rows of 1003 f32: chunks shifted to the buffers' 16-byte alignment.
// CHECK-LABEL: func.func @sum_1003
// CHECK:       #memopt.row<vector = 4, shifted = true, threads = 32, chunks = 8, cluster = 1,
func.func @sum_1003(%x: memref<8x1003xf32>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x1003xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// f16 rows of 4096 summed in f32: the widest buffer (the f32 sums) sets
// the vector, 4 elements; 8 rows are spread over clusters of 16.
// CHECK-LABEL: func.func @sum_f16
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 2, cluster = 16,
func.func @sum_f16(%x: memref<8x4096xf16>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x4096xf16>) outs(%s : memref<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Rows of 65536 f32 are too long for one block's registers (32 elements
// per thread): on chip, a cluster of 4 blocks of 256 threads, each holding
// 8 chunks in registers and 8 in shared memory, four blocks per
// multiprocessor; for 256 rows that is 1024 blocks in two waves of 528
// slots, so the rows stream instead, a block per row, two a
// multiprocessor (select-kernel-strategy-streamed-clusters.mlir). With
// registers only the clusters are of 512 threads, four waves of 264.
// CHECK-LABEL: func.func @sum_65536
// CHECK:       #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 114688>
// REGS-LABEL:  func.func @sum_65536
// REGS:        #memopt.row<vector = 4, shifted = false, threads = 512, chunks = 8, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 2, persistent_clusters = 0, online_softmax = false>
// PREFETCH-LABEL: func.func @sum_65536
// PREFETCH:    #memopt.row<vector = 4, shifted = false, threads = 512, chunks = 8, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 2, persistent_clusters = 66, online_softmax = false>
// (row-shared-elements=0: registers only; row-prefetch: as many persistent
// clusters as fit, 132 x 2 / 4; select-kernel-strategy-streamed-row.mlir
// has the rows that stream.)
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
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// Softmax over rows of 65536 split over a cluster: the maximum and the sum
// of exp(v - max) exchange once (online softmax).
// CHECK-LABEL: func.func @softmax_65536
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 4, shared_chunks = 8, blocks_per_multiprocessor = 4, persistent_clusters = 0, online_softmax = true>
func.func @softmax_65536(%x: memref<4x65536xf32>, %y: memref<4x65536xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4x65536xf32>
  %s = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maxnumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<4x65536xf32>, memref<4xf32>) outs(%e : memref<4x65536xf32>) {
  ^bb0(%a: f32, %mv: f32, %o: f32):
    %d = arith.subf %a, %mv : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<4x65536xf32>, memref<4xf32>) outs(%y : memref<4x65536xf32>) {
  ^bb0(%ev: f32, %sv: f32, %o: f32):
    %q = arith.divf %ev, %sv : f32
    linalg.yield %q : f32
  }
  memref.dealloc %m : memref<4xf32>
  memref.dealloc %e : memref<4x65536xf32>
  memref.dealloc %s : memref<4xf32>
  return
}
