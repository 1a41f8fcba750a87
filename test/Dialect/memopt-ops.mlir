// RUN: memopt-opt %s | memopt-opt | FileCheck %s
// RUN: memopt-opt %s --mlir-print-op-generic | memopt-opt | FileCheck %s

// memopt's operations round-trip through both printed forms.
// CHECK-LABEL: func.func @round_trip
// CHECK:         memopt.cluster_barrier
// CHECK-NEXT:    memopt.cluster_arrive
// CHECK-NEXT:    memopt.cluster_wait
// CHECK-NEXT:    memopt.occupancy_hint 2
// CHECK-NEXT:    %{{.+}} = memopt.cluster_load %{{.+}}[%{{.+}}, %{{.+}}] from %{{.+}} : memref<2x32xf16, #gpu.address_space<workgroup>>
func.func @round_trip(%m: memref<2x32xf16, #gpu.address_space<workgroup>>, %i: index, %r: index) -> f16 {
  memopt.cluster_barrier
  memopt.cluster_arrive
  memopt.cluster_wait
  memopt.occupancy_hint 2
  %v = memopt.cluster_load %m[%i, %i] from %r : memref<2x32xf16, #gpu.address_space<workgroup>>
  return %v : f16
}

// A last arrival inside a kernel.
// CHECK-LABEL: gpu.func @arrival
// CHECK:         %{{.+}} = memopt.last_arrival %{{.+}} of 8 after 3
gpu.module @arrivals {
  gpu.func @arrival(%slot: index, %out: memref<1xi1>) kernel {
    %c0 = arith.constant 0 : index
    %last = memopt.last_arrival %slot of 8 after 3
    memref.store %last, %out[%c0] : memref<1xi1>
    gpu.return
  }
}

// The plan's attributes and the kernel group round-trip too.
// CHECK-LABEL: func.func @plan
// CHECK-SAME:    target = #memopt.target<chip = "sm_80", multiprocessors = 108
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = true, threads = 64, chunks = 2, cluster = 2, shared_chunks = 1, blocks_per_multiprocessor = 4, persistent_clusters = 0, online_softmax = true>} {
// CHECK-NEXT:      linalg.generic
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 2, threads = 64, tiles = 8, reserved_shared_bytes = 1024>} {
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = shifted_rows, vector = 4, threads = 96>} {
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.tile_transpose<transpose = 0, tile = 16, tile_rows = 4>} {
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = row_slices, vector = 2, threads = 48, column_threads = 1, rows_per_block = 7, unroll = 5, seed_from_fill = false>} {
// CHECK:         memopt.kernel_group attributes {strategy = #memopt.naive<threads = 128, reason = "why not">} {
// CHECK:         memopt.kernel_group {
func.func @plan(%x: memref<4x8xf32>, %y: memref<4x8xf32>) attributes {target = #memopt.target<chip = "sm_80", multiprocessors = 108, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 167936, shared_memory_per_block = 49152, max_shared_memory_per_block = 166912, l2_bytes = 41943040, portable_cluster_size = 1, max_cluster_size = 1, vector_bytes = 16>} {
  memopt.kernel_group attributes {strategy = #memopt.row<vector = 4, shifted = true, threads = 64, chunks = 2, cluster = 2, shared_chunks = 1, blocks_per_multiprocessor = 4, persistent_clusters = 0, online_softmax = true>} {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  memopt.kernel_group attributes {strategy = #memopt.streamed_row<vector = 2, threads = 64, tiles = 8, reserved_shared_bytes = 1024>} {
  }
  memopt.kernel_group attributes {strategy = #memopt.elementwise<layout = shifted_rows, vector = 4, threads = 96>} {
  }
  memopt.kernel_group attributes {strategy = #memopt.tile_transpose<transpose = 0, tile = 16, tile_rows = 4>} {
  }
  memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = row_slices, vector = 2, threads = 48, column_threads = 1, rows_per_block = 7, unroll = 5, seed_from_fill = false>} {
  }
  memopt.kernel_group attributes {strategy = #memopt.naive<threads = 128, reason = "why not">} {
  }
  memopt.kernel_group {
  }
  return
}
