// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | FileCheck %s

// A cluster launch runs one cluster at a time: the cluster barrier splits
// the body into phases like a block barrier, each phase runs the cluster's
// blocks one after another, and the blocks' workgroup memory is one flat
// host buffer, block r's memory the slice at r * 4 that its own accesses and
// the other blocks' distributed shared memory reads see through a view.
// CHECK-LABEL: func.func @swap_halves
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[FLAT:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
// CHECK:         %[[NCL:.+]] = arith.divui %[[C2]], %{{.+}} : index
// CHECK:         scf.for %[[CL:.+]] = %{{.+}} to %[[NCL]]
// Phase 1: every block stores into its own slice.
// CHECK:           scf.for %[[R1:.+]] = %{{.+}} to %{{.+}}
// CHECK:             %[[OFF:.+]] = arith.muli %[[R1]], %{{.+}} : index
// CHECK:             %[[VIEW:.+]] = memref.reinterpret_cast %[[FLAT]] to offset: [%[[OFF]]], sizes: [4], strides: [1]
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:                 scf.for %[[T1:.+]] =
// CHECK:                   memref.store %{{.+}}, %[[VIEW]][%[[T1]]]
// Phase 2: every block reads the other block's slice.
// CHECK:           scf.for %[[R2:.+]] = %{{.+}} to %{{.+}}
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:                 scf.for %[[T2:.+]] =
// CHECK:                   %[[OTHER:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK:                   %[[ROFF:.+]] = arith.muli %[[OTHER]], %{{.+}} : index
// CHECK:                   %[[RVIEW:.+]] = memref.reinterpret_cast %[[FLAT]] to offset: [%[[ROFF]]], sizes: [4], strides: [1]
// CHECK:                   memref.load %[[RVIEW]][%[[T2]]]
// CHECK-NOT:     memopt.
// CHECK-NOT:     gpu.launch
func.func @swap_halves(%o: memref<2x4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    %r = arith.remui %bx, %c2 : index
    %ri = arith.index_cast %r : index to i32
    %v = arith.sitofp %ri : i32 to f32
    memref.store %v, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    memopt.cluster_barrier
    %other = arith.subi %c1, %r : index
    %x = memopt.cluster_load %w[%tx] from %other : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%r, %tx] : memref<2x4xf32>
    memopt.cluster_barrier
    gpu.terminator
  }
  return
}

// -----

// A distributed shared memory read under control flow cannot be placed in a
// phase.
func.func @cluster_load_in_if(%o: memref<4xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    scf.if %c {
      %x = memopt.cluster_load %w[%tx] from %c1 : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %x, %o[%tx] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A read of another block's buffer that no cluster barrier orders after
// the writes: the host's phase order would hide the race, so it is refused.
func.func @cluster_load_unordered(%o: memref<4xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    memref.store %v, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memopt.cluster_load %w[%tx] from %c1 : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<4xf32>
    memopt.cluster_barrier
    gpu.terminator
  }
  return
}

// -----

// A read after the block's arrival: the other blocks may already be gone.
func.func @cluster_load_after_arrive(%o: memref<4xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    memref.store %v, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    memopt.cluster_barrier
    memopt.cluster_arrive
    %x = memopt.cluster_load %w[%tx] from %c1 : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<4xf32>
    memopt.cluster_wait
    gpu.terminator
  }
  return
}

// -----

// A grid that is not whole clusters.
func.func @partial_cluster(%o: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memopt.cluster_barrier
    gpu.terminator
  }
  return
}

// -----

// A loop that reads another block's memory and then overwrites its own
// without a cluster barrier in between: the other block may still be
// reading what it overwrites.
func.func @cluster_load_loop_unordered(%o: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    memopt.cluster_barrier
    scf.for %i = %c0 to %c4 step %c1 {
      memopt.cluster_barrier
      %x = memopt.cluster_load %w[%tx] from %c1 : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %x, %o[%tx] : memref<4xf32>
      memref.store %v, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    memopt.cluster_barrier
    gpu.terminator
  }
  return
}

// -----

// A store after the loop and a read before it with no barrier between
// them when the loop runs no iteration: the state after a loop includes
// the state before it.
func.func @cluster_load_after_loop_unordered(%o: memref<4xf32>, %v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    memref.store %v, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %n step %c1 {
      memopt.cluster_barrier
      memref.store %v, %o[%tx] : memref<4xf32>
      memopt.cluster_barrier
    }
    %x = memopt.cluster_load %w[%tx] from %c1 : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<4xf32>
    memopt.cluster_barrier
    gpu.terminator
  }
  return
}
