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
