// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-emit-kernels))" -o /dev/null

// Strategy attributes that cannot be honoured are errors at the group.

// A cluster over the target's limit (sm_90: 16 blocks).
func.func @f(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{cluster must be between 1 and the target's 16}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 32, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A vector the row length forbids (1003 elements, not shifted).
func.func @f(%x: memref<4x1003xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{a row of 1003 elements is not a multiple of the vector (use shifted = true)}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1003xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A vector wider than the target's 16-byte accesses.
func.func @f(%x: memref<4x1024xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{vector must be a power of two of at most 16 bytes of the widest element read or written along the row (4 bytes)}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 8, shifted = false, threads = 32, chunks = 4, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1024xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Shared memory over the target's budget: 28 chunks of 16 bytes per thread of 1024
// (rows of 262144: each of the 2 blocks holds half).
func.func @f(%x: memref<4x262144xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{a block's share of shared memory (blocks_per_multiprocessor = 1) does not hold its staged chunks}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 1024, chunks = 4, cluster = 2, shared_chunks = 28, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x262144xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Chunks that do not cover the row.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{its chunks cover 256 of the row's 1024 chunks}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 8, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Threads that are not whole warps.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{threads must be a multiple of 32 up to 1024}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 48, chunks = 32, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Online softmax needs a cluster.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{online softmax exchanges between the blocks of a cluster (cluster = 1)}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 4, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// An elementwise strategy for a reduction.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the group has a reduction}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 4, threads = 256>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// The streamed kernel reserving more shared memory than a block has.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{reserved_shared_bytes with the block's 128 static bytes is over the target's 232448 bytes per block}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 1, reserved_shared_bytes = 300000>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A group without a strategy.
func.func @f(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  // expected-error @+1 {{kernel group without a strategy (run memopt-select-kernel-strategy first)}}
  memopt.kernel_group {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// -----

// A tile whose rows of threads do not divide it.
func.func @f(%x: memref<64x96xf32>, %y: memref<96x64xf32>) {
  // expected-error @+1 {{tile_rows must divide tile and tile x tile_rows threads fit in a block of at most 1024}}
  memopt.kernel_group attributes {strategy = #memopt.tile_transpose<transpose = 0, tile = 32, tile_rows = 5>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x96xf32>) outs(%y : memref<96x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// -----

// A column reduction told to seed its result from a fill it does not have.
func.func @f(%x: memref<512x4096xf32>, %y: memref<4096xf32>) {
  // expected-error @+1 {{seed_from_fill needs a fill of an output in the group}}
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 512, unroll = 16, seed_from_fill = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%y : memref<4096xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Row slices combine with atomics: a product has none.
func.func @f(%x: memref<512x96xf32>, %y: memref<96xf32>) {
  // expected-error @+1 {{the combiner has no atomic form}}
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = row_slices, vector = 4, threads = 32, column_threads = 1, rows_per_block = 256, unroll = 16, seed_from_fill = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x96xf32>) outs(%y : memref<96xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.mulf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// A row strategy for a group without a reduction.
func.func @f(%x: memref<4x1024xf32>, %y: memref<4x1024xf32>) {
  // expected-error @+1 {{the group has no reduction over a row (use #memopt.elementwise)}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 8, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1024xf32>) outs(%y : memref<4x1024xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// -----

// More persistent clusters than rows.
func.func @f(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{more persistent clusters than the 4 rows}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 512, chunks = 8, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 2, persistent_clusters = 8, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// More resident threads than a multiprocessor has.
func.func @f(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{blocks_per_multiprocessor x threads is over the 2048 threads of a multiprocessor}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 1024, chunks = 4, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 8, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Whole columns with fewer threads than the block's columns.
func.func @f(%x: memref<512x4096xf32>, %y: memref<4096xf32>) {
  // expected-error @+1 {{a block finishes one column per thread: threads must be at least column_threads x vector (128)}}
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 32, column_threads = 32, rows_per_block = 512, unroll = 16, seed_from_fill = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%y : memref<4096xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// The streamed kernel's reservation plus its static buffer over a block's
// shared memory.
func.func @f(%x: memref<4x4096xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{reserved_shared_bytes with the block's 128 static bytes is over the target's 232448 bytes per block}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 1, reserved_shared_bytes = 232448>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4096xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A cluster whose last block starts past the row's end (100 chunks, blocks
// of 32 x 2: the third would hold none).
func.func @f(%x: memref<4x100xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the last block of the cluster starts past the row's 100 chunks}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 1, shifted = false, threads = 32, chunks = 2, cluster = 3, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x100xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Rows per block must be positive (they need not divide the rows: the
// last block's slots past the last row store nothing).
func.func @f(%x: memref<30x128xf32>, %s: memref<30xf32>) {
  // expected-error @+1 {{rows_per_block must be positive and, with column partials, divide the 30 rows}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, rows_per_block = 0>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<30x128xf32>) outs(%s : memref<30xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

func.func @f(%x: memref<32x1024xf32>, %s: memref<32xf32>) {
  // expected-error @+1 {{rows_per_block > 1 needs one warp per row (threads <= 32), no cluster and no shared-memory staging}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 64, chunks = 4, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, rows_per_block = 2>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<32x1024xf32>) outs(%s : memref<32xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Windowed reads in shifted rows.
func.func @f(%x: memref<5x96xf32>, %t: memref<5x48xf32>, %y: memref<5x96xf32>) {
  // expected-error @+1 {{windowed reads need the rows layout}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = shifted_rows, vector = 4, threads = 256, windowed = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 2) * 2)>, affine_map<(d0, d1) -> (d0, d1 floordiv 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t : memref<5x96xf32>, memref<5x48xf32>) outs(%y : memref<5x96xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.mulf %a, %b : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Windowed reads of one lane.
func.func @f(%x: memref<5x96xf32>, %t: memref<5x48xf32>, %y: memref<5x96xf32>) {
  // expected-error @+1 {{windowed reads need a vector of several lanes}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 1, threads = 256, windowed = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 2) * 2)>, affine_map<(d0, d1) -> (d0, d1 floordiv 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t : memref<5x96xf32>, memref<5x48xf32>) outs(%y : memref<5x96xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.mulf %a, %b : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A window of 8 f32 lanes: wider than the target's 16-byte accesses.
func.func @f(%x: memref<5x96xf32>, %t: memref<5x48xf32>, %y: memref<5x96xf32>) {
  // expected-error @+1 {{an access would be wider than the target's vector bytes}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 8, threads = 256, windowed = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 2) * 2)>, affine_map<(d0, d1) -> (d0, d1 floordiv 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t : memref<5x96xf32>, memref<5x48xf32>) outs(%y : memref<5x96xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.mulf %a, %b : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A block order that is not a permutation of the outer dims (2 of them).
func.func @f(%x: memref<3x4x1024xf32>, %s: memref<3x4xf32>) {
  // expected-error @+1 {{block_order is not a permutation of the group's 2 outer dims}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, block_order = [1, 1]>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<3x4x1024xf32>) outs(%s : memref<3x4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A block order with persistent clusters (they walk rows in grid steps).
func.func @f(%x: memref<2x4x65536xf32>, %s: memref<2x4xf32>) {
  // expected-error @+1 {{block_order takes rows that are not interleaved, persistent clusters or column partials}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 512, chunks = 8, cluster = 4, shared_chunks = 0, blocks_per_multiprocessor = 2, persistent_clusters = 2, online_softmax = false, block_order = [1, 0]>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<2x4x65536xf32>) outs(%s : memref<2x4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A block order on the flat elementwise layout (it has no rows).
func.func @f(%x: memref<3x4x1024xf32>, %y: memref<3x4x1024xf32>) {
  // expected-error @+1 {{block_order needs a rows or shifted_rows layout}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = flat, vector = 4, threads = 256, block_order = [1, 0]>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<3x4x1024xf32>) outs(%y : memref<3x4x1024xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.negf %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// online_softmax on a streamed row with no maximum followed by an exp sum.
func.func @f(%x: memref<4x65536xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{online_softmax: no maximum is followed by a sum of exp(v - max) that can share its pass}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 16, reserved_shared_bytes = 114688, online_softmax = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Streamed shifted chunks: tiles that reach chunks not whole at every
// alignment (rows of 8195 f32: chunks 1 to 2047 are).
func.func @f(%x: memref<4x8195xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{9 tiles of 256 chunks pass the row's 2047 chunks whole at every alignment}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 256, tiles = 9, reserved_shared_bytes = 0, shifted = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8195xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Streamed shifted chunks: more left after the tiles than one a thread.
func.func @f(%x: memref<4x8195xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the 1025 chunks after 4 tiles of 256 are more than one a thread}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 256, tiles = 4, reserved_shared_bytes = 0, shifted = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8195xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Streamed shifted chunks on a group with row-shaped results (the pass
// that writes them walks aligned rows only).
func.func @f(%x: memref<4x8195xf32>, %s: memref<4xf32>, %y: memref<4x8195xf32>) {
  // expected-error @+1 {{shifted: the group writes row-shaped results}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 256, tiles = 7, reserved_shared_bytes = 0, shifted = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8195xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8195xf32>, memref<4xf32>) outs(%y : memref<4x8195xf32>) {
    ^bb0(%a: f32, %t: f32, %o: f32):
      %r = arith.divf %a, %t : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A streamed row over a cluster whose last block holds none of the row
// (2048 chunks of 4 lanes, 3 blocks of one tile of 1024).
func.func @f(%x: memref<4x8192xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the last of 3 slices of 1 tiles of 1024 chunks would hold none of the row's 2048 chunks}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 1, reserved_shared_bytes = 0, cluster = 3>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8192xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A streamed row over clusters whose slices do not cover it.
func.func @f(%x: memref<4x16384xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{1 tiles of 1024 chunks in each of 2 blocks do not cover the row's 4096 chunks}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 1, reserved_shared_bytes = 0, cluster = 2>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x16384xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A streamed row over a cluster larger than the target allows.
func.func @f(%x: memref<4x131072xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{cluster of 32 blocks is over the target's max-cluster-size (16)}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 1024, tiles = 1, reserved_shared_bytes = 0, cluster = 32>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x131072xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Shifted chunks are not split over a cluster.
func.func @f(%x: memref<4x8195xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{cluster: not with shifted chunks}}
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 4, threads = 256, tiles = 4, reserved_shared_bytes = 0, shifted = true, cluster = 2>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8195xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Several chunks per thread on shifted rows.
func.func @f(%x: memref<7x333xf32>, %b: memref<333xf32>, %y: memref<7x333xf32>) {
  // expected-error @+1 {{several chunks per thread need the rows or flat layout}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = shifted_rows, vector = 4, threads = 256, chunks = 2>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<7x333xf32>, memref<333xf32>) outs(%y : memref<7x333xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Several chunks per thread over a flat array whose last chunk is partial.
func.func @f(%x: memref<7x333xf32>, %y: memref<7x333xf32>) {
  // expected-error @+1 {{several chunks per thread in the flat layout need its elements to be a multiple of the vector}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = flat, vector = 4, threads = 256, chunks = 2>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<7x333xf32>) outs(%y : memref<7x333xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.negf %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// An in-place update (y += x) whose chunks threads x chunks do not divide:
// a repeated chunk would add x twice.
func.func @f(%x: memref<7x336xf32>, %y: memref<7x336xf32>) {
  // expected-error @+1 {{the group updates a buffer in place, so its 588 chunks must be a multiple of threads x chunks (no chunk may be repeated)}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 4, threads = 64, chunks = 4>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<7x336xf32>) outs(%y : memref<7x336xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Chunks per thread out of range.
func.func @f(%x: memref<7x336xf32>, %y: memref<7x336xf32>) {
  // expected-error @+1 {{chunks must be between 1 and 64}}
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = rows, vector = 4, threads = 64, chunks = 0>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<7x336xf32>) outs(%y : memref<7x336xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.negf %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Row slices take one reduction: two sibling sums cannot share atomics.
func.func @f(%x: memref<512x96xf32>, %y: memref<96xf32>, %z: memref<96xf32>) {
  // expected-error @+1 {{row slices take one reduction}}
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = row_slices, vector = 4, threads = 32, column_threads = 1, rows_per_block = 256, unroll = 16, seed_from_fill = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x96xf32>) outs(%y : memref<96xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x96xf32>) outs(%z : memref<96xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %p = arith.mulf %a, %a : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Sibling reductions writing one buffer would race.
func.func @f(%x: memref<512x96xf32>, %y: memref<96xf32>) {
  // expected-error @+1 {{sibling reductions write the same buffer}}
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, vector = 4, threads = 256, column_threads = 4, rows_per_block = 512, unroll = 8, seed_from_fill = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x96xf32>) outs(%y : memref<96xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x96xf32>) outs(%y : memref<96xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.maximumf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Interleaved rows four to a thread where the last outer dim (30 points)
// is not a multiple of four: a thread's rows would cross into the next
// outer point.
func.func @f(%x: memref<64x30xf32, strided<[1, 64]>>, %y: memref<30xf32>) {
  // expected-error @+1 {{interleaved rows take a vector (rows a thread) that is a power of two dividing rows_per_block and the last outer dim's 30 points}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 2, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, rows_per_block = 8, interleaved = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x30xf32, strided<[1, 64]>>) outs(%y : memref<30xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// A tail in the last block of a previous kernel that is not there.
func.func @f(%x: memref<1x256xf32>, %s: memref<1xf32>) {
  // expected-error @+1 {{after_last_block needs the previous group's kernel right before it}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 64, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, after_last_block = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x256xf32>) outs(%s : memref<1xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A tail of several rows.
func.func @f(%x: memref<2x256xf32>, %s: memref<2xf32>) {
  // expected-error @+1 {{after_last_block takes one row in one block}}
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 64, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, after_last_block = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<2x256xf32>) outs(%s : memref<2xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// The previous kernel's blocks are not of the tail's threads.
func.func @f(%x: memref<8x256xf32>, %p: memref<8xf32>, %s: memref<1xf32>) {
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 64, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x256xf32>) outs(%p : memref<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  %pv = memref.expand_shape %p [[0, 1]] output_shape [1, 8] : memref<8xf32> into memref<1x8xf32>
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = false, threads = 32, chunks = 1, cluster = 1, shared_chunks = 0, blocks_per_multiprocessor = 1, persistent_clusters = 0, online_softmax = false, after_last_block = true>} {
    // expected-error @+1 {{the previous kernel must be one launch without clusters of 1-D blocks of this group's threads}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%pv : memref<1x8xf32>) outs(%s : memref<1xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}
