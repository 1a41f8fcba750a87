// RUN: memopt-opt %s --split-input-file -verify-diagnostics --memopt-pipeline-loads="stages=3" | FileCheck %s

// Loops memopt-pipeline-loads cannot pipeline keep their loads, with a
// remark saying why.

// A trip count that is not a constant.
// CHECK-LABEL: func.func @dynamic_trip_count
// CHECK-NOT:     nvgpu.device_async_copy
func.func @dynamic_trip_count(%x: memref<8x4096xf32>, %out: memref<8x256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: its trip count is not a constant}}
    %acc = scf.for %t = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %v = memref.load %x[%bx, %col] : memref<8x4096xf32>
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// Two iterations cannot fill three stages.
// CHECK-LABEL: func.func @too_few_iterations
// CHECK-NOT:     nvgpu.device_async_copy
func.func @too_few_iterations(%x: memref<8x512xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: fewer iterations (2) than stages (3)}}
    %acc = scf.for %t = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %v = memref.load %x[%bx, %col] : memref<8x512xf32>
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// A barrier in the loop: the loop synchronizes threads.
// CHECK-LABEL: func.func @barrier_in_loop
// CHECK-NOT:     nvgpu.device_async_copy
func.func @barrier_in_loop(%x: memref<8x4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: it synchronizes threads (barrier or shuffle)}}
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %v = memref.load %x[%bx, %col] : memref<8x4096xf32>
      gpu.barrier
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// Loads refused one by one: the loop writes the buffer, a vector load
// without a known alignment, an address that depends on a loop-carried
// value; with no load left the loop is not pipelined.
// CHECK-LABEL: func.func @refused_loads
// CHECK-NOT:     nvgpu.device_async_copy
func.func @refused_loads(%x: memref<8x4096xf32>, %y: memref<8x4096xf32>, %idx: memref<8x4096xindex>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: no load of the loop can be copied asynchronously}}
    %acc:2 = scf.for %t = %c0 to %c4 step %c1 iter_args(%a = %zero, %p = %tx) -> (f32, index) {
      %base = arith.muli %t, %c256 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      // expected-remark @+1 {{load not prefetched: the loop writes the buffer it reads}}
      %v = memref.load %y[%bx, %col] : memref<8x4096xf32>
      memref.store %v, %y[%bx, %chunk] : memref<8x4096xf32>
      // expected-remark @+1 {{load not prefetched: its alignment is not known to be 16 bytes}}
      %w = vector.load %x[%bx, %col] : memref<8x4096xf32>, vector<4xf32>
      // expected-remark @+1 {{load not prefetched: its address depends on a value carried by the loop}}
      %u = memref.load %x[%bx, %p] : memref<8x4096xf32>
      %ws = vector.reduction <add>, %w : vector<4xf32> into f32
      %s0 = arith.addf %a, %v : f32
      %s1 = arith.addf %s0, %ws : f32
      %s2 = arith.addf %s1, %u : f32
      scf.yield %s2, %chunk : f32, index
    }
    memref.store %acc#0, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// A kernel that already uses dynamic shared memory (a size it does not use
// is a reservation the rings may take, see pipeline-loads.mlir).
// CHECK-LABEL: func.func @has_dynamic_shared
// CHECK-NOT:     nvgpu.device_async_copy
func.func @has_dynamic_shared(%x: memref<8x4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.constant 1024 : i32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %buf = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    // expected-remark @+1 {{loop not pipelined: the kernel already uses dynamic shared memory}}
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %v = memref.load %x[%bx, %col] : memref<8x4096xf32>
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    memref.store %acc, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// An address computed with a division by a runtime value cannot be
// speculated for the iterations past the end; a load of index elements is
// not copied either.
// CHECK-LABEL: func.func @not_speculatable
// CHECK-NOT:     nvgpu.device_async_copy
func.func @not_speculatable(%x: memref<8x4096xf32>, %ix: memref<8x4096xindex>, %out: memref<8x256xf32>, %d: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: no load of the loop can be copied asynchronously}}
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %q = arith.divui %col, %d : index
      // expected-remark @+1 {{load not prefetched: its address is computed by an op that cannot be speculated (memory effects, regions, or a division that may trap)}}
      %v = memref.load %x[%bx, %q] : memref<8x4096xf32>
      // expected-remark @+1 {{load not prefetched: its element type is not an integer or float}}
      %i = memref.load %ix[%bx, %col] : memref<8x4096xindex>
      %ic = arith.index_cast %i : index to i64
      %f = arith.sitofp %ic : i64 to f32
      %s0 = arith.addf %a, %v : f32
      %s = arith.addf %s0, %f : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// A loop that already copies asynchronously (a persistent row kernel's
// prefetch) keeps its schedule: no ring, no remark, its other loads stay.
// CHECK-LABEL: func.func @already_prefetching
// CHECK-NOT:     gpu.dynamic_shared_memory
// CHECK-COUNT-1: nvgpu.device_async_copy
// CHECK-NOT:     nvgpu.device_async_copy
func.func @already_prefetching(%x: memref<8x4096xf32>, %g: memref<4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
             workgroup(%stage : memref<256xf32, #gpu.address_space<workgroup>>) {
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %col = arith.addi %base, %tx : index
      %cp = nvgpu.device_async_copy %x[%bx, %col], %stage[%tx], 1 : memref<8x4096xf32> to memref<256xf32, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %grp {numGroups = 0 : i32}
      %v = memref.load %stage[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      %w = memref.load %g[%col] : memref<4096xf32>
      %p = arith.mulf %v, %w : f32
      %s = arith.addf %a, %p : f32
      scf.yield %s : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}
