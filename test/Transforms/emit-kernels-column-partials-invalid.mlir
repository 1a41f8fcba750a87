// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-emit-kernels))" -o /dev/null

// Column-partial strategies (a row group ending with column reductions) that
// cannot be honoured are errors at the group.

// A row group with a column reduction but no column partials.
func.func @f(%x: memref<8x1024xf32>, %s: memref<8xf32>, %c: memref<1024xf32>) {
  // expected-error @+1 {{column_partials must be above 0 exactly when the group has column reductions}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x1024xf32>) outs(%s : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x1024xf32>) outs(%c : memref<1024xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Column partials over a cluster.
func.func @f(%x: memref<8x1024xf32>, %s: memref<8xf32>, %c: memref<1024xf32>) {
  // expected-error @+1 {{column partials need one block per row: cluster = 1, no shifted chunks, no staging, not interleaved, no online softmax}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 128, chunks = 1, cluster = 2, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, column_partials = 4>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x1024xf32>) outs(%s : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x1024xf32>) outs(%c : memref<1024xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// More blocks walking the rows than there are rows.
func.func @f(%x: memref<8x1024xf32>, %s: memref<8xf32>, %c: memref<1024xf32>) {
  // expected-error @+1 {{column_partials is over the 8 blocks of rows}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, column_partials = 9>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x1024xf32>) outs(%s : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x1024xf32>) outs(%c : memref<1024xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Accumulators in shared memory over the block's 48 KiB (16384 f32 columns).
func.func @f(%x: memref<8x16384xf32>, %s: memref<8xf32>, %c: memref<16384xf32>) {
  // expected-error @+1 {{shared_accumulators needs column partials whose accumulators share one type and fit in the block's 49152 bytes of shared memory}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 1024, chunks = 4, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, column_partials = 4, shared_accumulators = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x16384xf32>) outs(%s : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x16384xf32>) outs(%c : memref<16384xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Column reductions are fused by the row family only.
func.func @f(%x: memref<8x1024xf32>, %s: memref<8xf32>, %c: memref<1024xf32>) {
  // expected-error @+1 {{column reductions in a row group are fused only by #memopt.row with column_partials}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 256, tiles = 1, reserved_shared_bytes = 0>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x1024xf32>) outs(%s : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x1024xf32>) outs(%c : memref<1024xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// More partial rows than the combine kernel unrolls (33000 blocks).
func.func @f(%x: memref<40000x128xf32>, %s: memref<40000xf32>, %c: memref<128xf32>) {
  // expected-error @+1 {{column_partials x rows_per_block is over 32768 partial rows}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, column_partials = 33000>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<40000x128xf32>) outs(%s : memref<40000xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<40000x128xf32>) outs(%c : memref<128xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}
