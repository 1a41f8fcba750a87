// RUN: memopt-opt %s --split-input-file --memopt-pipeline-loads="stages=3" --canonicalize --cse | FileCheck %s
// RUN: memopt-opt %s --split-input-file --memopt-pipeline-loads="stages=1" --canonicalize --cse | FileCheck %s --check-prefix=ONE
// RUN: memopt-opt %s --split-input-file --memopt-pipeline-loads --canonicalize --cse | FileCheck %s --check-prefix=AUTO

// A loop over tiles: each thread's 16-byte load becomes a cp.async into its
// slot of a 3-stage ring in dynamic shared memory. Prologue: tiles 0 and 1
// copied (one group each). Steady state: the copy of tile t + 2 (predicated
// off past the end: zero bytes from index 0), one commit, wait until at most
// 2 groups are pending, then the load of tile t from slot t mod 3.
// Epilogue: not peeled; the pending (empty) groups are drained after the loop.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[BYTES:.+]] = arith.constant 12288 : i32
// CHECK:         gpu.launch {{.*}} threads(%[[TX:[a-z0-9]+]], {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK:           %[[DYN:.+]] = gpu.dynamic_shared_memory
// CHECK:           %[[RING:.+]] = memref.view %[[DYN]][%{{.+}}][] : {{.*}} to memref<3x256x4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[CP0:.+]] = nvgpu.device_async_copy %{{.+}}, %[[RING]][%c0, %[[TX]], %c0], 4 {bypassL1}
// CHECK:           %[[G0:.+]] = nvgpu.device_async_create_group %[[CP0]]
// CHECK:           nvgpu.device_async_wait %[[G0]] {numGroups = 2 : i32}
// CHECK:           %[[CP1:.+]] = nvgpu.device_async_copy %{{.+}}, %[[RING]][%c1, %[[TX]], %c0], 4 {bypassL1}
// CHECK:           nvgpu.device_async_create_group %[[CP1]]
// CHECK:           scf.for %[[T:.+]] = %c0 to %c4 step %c1 iter_args
// CHECK:             %[[LIVE:.+]] = arith.cmpi slt, %[[T]], %[[C2]]
// CHECK:             %[[AHEAD:.+]] = arith.addi %[[T]], %[[C2]]
// CHECK:             %[[SLOT:.+]] = arith.remui %[[AHEAD]], %[[C3]]
// CHECK:             %[[N:.+]] = arith.select %[[LIVE]], %c4, %c0
// CHECK:             %[[CP:.+]] = nvgpu.device_async_copy %{{.+}}, %[[RING]][%[[SLOT]], %[[TX]], %c0], 4, %[[N]] {bypassL1}
// CHECK:             %[[G:.+]] = nvgpu.device_async_create_group %[[CP]]
// CHECK:             nvgpu.device_async_wait %[[G]] {numGroups = 2 : i32}
// CHECK:             %[[USE:.+]] = arith.remui %[[T]], %[[C3]]
// CHECK:             vector.load %[[RING]][%[[USE]], %[[TX]], %c0] {alignment = 16 : i64}
// CHECK:             vector.reduction
// CHECK:             scf.yield
// CHECK:           %[[DRAIN:.+]] = nvgpu.device_async_create_group
// CHECK-NEXT:      nvgpu.device_async_wait %[[DRAIN]] {numGroups = 0 : i32}
// CHECK-NOT:       vector.load %arg0

// One stage: copy, commit, wait for it, read: no prologue, no prefetch.
// ONE-LABEL: func.func @row_sum
// ONE:         memref.view {{.*}} to memref<1x256x4xf32, #gpu.address_space<workgroup>>
// ONE-NOT:     nvgpu.device_async_copy
// ONE:         scf.for
// ONE:           nvgpu.device_async_copy
// ONE:           nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// ONE:           vector.load

// Default: as many 4 KiB stages as the 64 KiB budget holds, at most 4.
// AUTO-LABEL: func.func @row_sum
// AUTO:         memref<4x256x4xf32, #gpu.address_space<workgroup>>
// AUTO:         nvgpu.device_async_wait %{{.+}} {numGroups = 3 : i32}
func.func @row_sum(%x: memref<8x4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %acc = scf.for %t = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      %v = vector.load %x[%bx, %col] {alignment = 16 : i64} : memref<8x4096xf32>, vector<4xf32>
      %s = vector.reduction <add>, %v : vector<4xf32> into f32
      %n = arith.addf %a, %s : f32
      scf.yield %n : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}

// -----

// Scalar f16 loads are not a cp.async size (2 bytes); a scalar f32 load
// (4 bytes) of a 2-D block is: the ring is indexed by the linear thread id.
// CHECK-LABEL: func.func @scalar_2d_block
// CHECK:         gpu.launch {{.*}} threads(%[[TX:[a-z0-9]+]], %[[TY:[a-z0-9]+]], {{.*}} in (%[[SX:[a-z0-9]+]] = {{.*}}, %[[SY:[a-z0-9]+]] =
// CHECK:           %[[LIN0:.+]] = arith.muli %[[SX]], %[[TY]]
// CHECK:           %[[LIN:.+]] = arith.addi %[[TX]], %[[LIN0]]
// CHECK:           memref.view {{.*}} to memref<3x64x1xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy {{.*}}[%c0, %[[LIN]], %c0], 1 :
// CHECK:           scf.for
// CHECK:             memref.load %{{.+}}[%{{.+}}, %[[LIN]], %c0]
// CHECK:             memref.load %arg1
func.func @scalar_2d_block(%x: memref<64x1024xf32>, %h: memref<64x1024xf16>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c2, %sz = %c1) {
    %lin0 = arith.muli %ty, %c32 : index
    %lin = arith.addi %lin0, %tx : index
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c64 : index
      %col = arith.addi %base, %lin : index
      %v = memref.load %x[%bx, %col] : memref<64x1024xf32>
      %hv = memref.load %h[%bx, %col] : memref<64x1024xf16>
      %hf = arith.extf %hv : f16 to f32
      %p = arith.mulf %v, %hf : f32
      %n = arith.addf %a, %p : f32
      scf.yield %n : f32
    }
    %is0 = arith.cmpi eq, %lin, %c0 : index
    scf.if %is0 {
      memref.store %acc, %out[%bx] : memref<64xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Dynamic shared memory the kernel reserves without using it (memopt's
// streamed rows reserve over half a multiprocessor's to keep one row in
// flight) hosts the ring and sets the default depth: 100000 bytes hold 6
// stages of 4 KiB, capped at 4; the reservation is kept.
// CHECK-LABEL: func.func @reserved
// CHECK:         %[[R:.+]] = arith.constant 100000 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[R]]
// CHECK:           memref.view {{.*}} to memref<3x256x4xf32, #gpu.address_space<workgroup>>
// AUTO-LABEL: func.func @reserved
// AUTO:         memref<4x256x4xf32, #gpu.address_space<workgroup>>
func.func @reserved(%x: memref<8x4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.constant 100000 : i32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %acc = scf.for %t = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      %v = vector.load %x[%bx, %col] {alignment = 16 : i64} : memref<8x4096xf32>, vector<4xf32>
      %s = vector.reduction <add>, %v : vector<4xf32> into f32
      %n = arith.addf %a, %s : f32
      scf.yield %n : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}
