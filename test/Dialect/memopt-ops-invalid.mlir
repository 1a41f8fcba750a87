// RUN: memopt-opt %s --split-input-file -verify-diagnostics

// memopt.cluster_load reads shared memory only.
func.func @global(%m: memref<4xf32>, %r: index) -> f32 {
  // expected-error @+1 {{reads shared memory: expected a workgroup memref}}
  %v = memopt.cluster_load %m[%r] from %r : memref<4xf32>
  return %v : f32
}

// -----

func.func @indices(%m: memref<4x4xf32, #gpu.address_space<workgroup>>, %r: index) -> f32 {
  // expected-error @+1 {{expected 2 indices, got 1}}
  %v = memopt.cluster_load %m[%r] from %r : memref<4x4xf32, #gpu.address_space<workgroup>>
  return %v : f32
}

// -----

func.func @layout(%m: memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>, %r: index) -> f32 {
  // expected-error @+1 {{expected an identity layout}}
  %v = memopt.cluster_load %m[%r] from %r : memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>
  return %v : f32
}

// -----

func.func @no_blocks() {
  // expected-error @+1 {{attribute 'blocks_per_multiprocessor' failed to satisfy constraint}}
  memopt.occupancy_hint 0
  return
}

// -----

// A kernel group holds linalg.generic ops only.
func.func @copy_in_group(%a: memref<4xf32>, %b: memref<4xf32>) {
  memopt.kernel_group {
    // expected-error @+1 {{inside a memopt.kernel_group: only linalg.generic ops may form a kernel group}}
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----

// Its strategy is one of the families' attributes.
func.func @bad_strategy() {
  // expected-error @+1 {{strategy must be a #memopt strategy attribute, got 3 : i64}}
  memopt.kernel_group attributes {strategy = 3} {
  }
  return
}

// -----

// A target's limits must be consistent.
// expected-error @+1 {{#memopt.target of sm_90: shared memory limits must satisfy per block <= max per block <= per multiprocessor}}
func.func @bad_target() attributes {t = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 1024, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16>} {
  return
}

// -----

// Block reductions need a power-of-two warp and at most a warp of warps.
// expected-error @+1 {{#memopt.target of sm_90: warp_size and vector_bytes must be powers of two and max_threads_per_block a multiple of warp_size up to warp_size squared}}
func.func @big_blocks() attributes {t = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 2048, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16>} {
  return
}

// -----

// A cache line narrower than the widest access.
// expected-error @+1 {{cache_line_bytes at least vector_bytes}}
func.func @short_line() attributes {t = #memopt.target<chip = "sm_90", multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16, cache_line_bytes = 8>} {
  return
}

// -----

// memopt.last_arrival counts blocks: outside a kernel it has none.
func.func @arrival_outside(%slot: index) -> i1 {
  // expected-error @+1 {{counts a block's arrival: expected it inside a gpu.launch or a gpu.func}}
  %last = memopt.last_arrival %slot of 2 after 4
  return %last : i1
}

// -----

gpu.module @arrivals {
  gpu.func @no_arrivals(%slot: index) kernel {
    // expected-error @+1 {{attribute 'arrivals' failed to satisfy constraint}}
    %last = memopt.last_arrival %slot of 2 after 0
    gpu.return
  }
}
