// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))"

// A barrier under control flow cannot be split into phases.
func.func @barrier_in_if(%a: memref<64xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host: synchronization is nested in control flow (other than a loop without results that begins and ends with a barrier, whose bounds no thread id decides), a shuffle is not xor, or a value crossing a barrier is not a scalar or vector}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    scf.if %c {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Only xor shuffles are emulated.
func.func @shuffle_down(%a: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %off = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<32xf32>
    %s, %valid = gpu.shuffle down %v, %off, %w : f32
    memref.store %s, %a[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.all_reduce needs lock-step execution.
func.func @all_reduce(%a: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<32xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %s, %a[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Phases need a static block size (one slot per thread).
func.func @barrier_dynamic_block(%a: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A loop around a barrier runs on the host around its phases: it may not
// carry values (each thread's would be another).
func.func @barrier_loop_iter_args(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f32 {
      gpu.barrier
      %v = memref.load %a[%tx] : memref<64xf32>
      %n = arith.addf %acc, %v : f32
      scf.yield %n : f32
    }
    memref.store %s, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Nor may a thread id decide its trip count (the barrier inside would not
// be met by every thread).
func.func @barrier_loop_thread_bound(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %tx step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A loop around a barrier under other control flow is still nested.
func.func @barrier_loop_in_if(%a: memref<64xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    scf.if %c {
      scf.for %i = %c0 to %c4 step %c1 {
        gpu.barrier
      }
    }
    gpu.terminator
  }
  return
}

// -----

// A loop around a barrier that does not begin with one: the host would end
// a phase between iterations where the kernel does not synchronize.
func.func @barrier_loop_not_at_barrier(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'gpu.launch' op cannot run on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<64xf32, #gpu.address_space<workgroup>>) {
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %a[%tx] : memref<64xf32>
      memref.store %v, %w[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
