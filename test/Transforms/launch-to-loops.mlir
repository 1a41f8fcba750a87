// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | FileCheck %s

// A barrier-free launch becomes a nest of scf.for over blocks (z, y, x) then
// threads (z, y, x); block and thread ids become the induction variables.
// CHECK-LABEL: func.func @copy_guarded
// CHECK-SAME:    (%[[A:.+]]: memref<1000xf32>, %[[O:.+]]: memref<1000xf32>)
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-NOT:     gpu.launch
// CHECK:         scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK:           scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK:             scf.for %[[BX:.+]] = %[[C0]] to %[[C4]]
// CHECK:               scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK:                 scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK:                   scf.for %[[TX:.+]] = %[[C0]] to %[[C256]]
// CHECK:                     %[[B:.+]] = arith.muli %[[BX]], %[[C256]] : index
// CHECK:                     %[[I:.+]] = arith.addi %[[B]], %[[TX]] : index
// CHECK:                     scf.if
// CHECK:                       %[[V:.+]] = memref.load %[[A]][%[[I]]]
// CHECK:                       memref.store %[[V]], %[[O]][%[[I]]]
// CHECK-NOT:     gpu.terminator
func.func @copy_guarded(%a: memref<1000xf32>, %o: memref<1000xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 1000 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c256 : index
    %i = arith.addi %b, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %v = memref.load %a[%i] : memref<1000xf32>
      memref.store %v, %o[%i] : memref<1000xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Grid and block sizes used inside the body are replaced by the launch operands.
// CHECK-LABEL: func.func @sizes_in_body
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         scf.for %[[BY:.+]] = %{{.+}} to %[[C3]]
// CHECK:           scf.for %[[TY:.+]] = %{{.+}} to %[[C8]]
// CHECK:             %[[P:.+]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK:             %[[Q:.+]] = arith.addi %[[P]], %[[TY]] : index
// CHECK:             memref.store %[[C3]], %{{.+}}[%[[Q]]] : memref<24xindex>
func.func @sizes_in_body(%o: memref<24xindex>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c3, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c8, %sz = %c1) {
    %p = arith.muli %by, %sy : index
    %q = arith.addi %p, %ty : index
    memref.store %gy, %o[%q] : memref<24xindex>
    gpu.terminator
  }
  return
}

// -----

// A barrier splits the body into phases: within each block, every thread
// finishes phase 1 before any starts phase 2. Workgroup memory becomes a host
// buffer, values crossing the barrier go through per-thread slots.
// CHECK-LABEL: func.func @barrier_phases
// CHECK-SAME:    (%[[A:.+]]: memref<64xf32>, %[[O:.+]]: memref<64xf32>)
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[SMEM:.+]] = memref.alloca() {alignment = 64 : i64} : memref<64xf32>
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     gpu.barrier
// CHECK:         scf.for %[[T1:.+]] = %{{.+}} to %[[C64]]
// CHECK:           %[[V:.+]] = memref.load %[[A]][%[[T1]]]
// CHECK:           memref.store %[[V]], %[[SMEM]][%[[T1]]]
// CHECK:         }
// CHECK:         scf.for %[[T2:.+]] = %{{.+}} to %[[C64]]
// CHECK:           %[[R:.+]] = arith.subi %{{.+}}, %[[T2]] : index
// CHECK:           %[[W:.+]] = memref.load %[[SMEM]][%[[R]]]
// CHECK:           memref.store %[[W]], %[[O]][%[[T2]]]
func.func @barrier_phases(%a: memref<64xf32>, %o: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) workgroup(%smem : memref<64xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %a[%tx] : memref<64xf32>
    memref.store %v, %smem[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %tx : index
    %w = memref.load %smem[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %o[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// An xor shuffle publishes each thread's value, then reads the partner's.
// CHECK-LABEL: func.func @xor_shuffle
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[SLOT:.+]] = memref.alloca() : memref<32xf32>
// CHECK-NOT:     gpu.shuffle
// CHECK:         scf.for %[[T1:.+]] = %{{.+}} to %[[C32]]
// CHECK:           %[[V:.+]] = memref.load %{{.+}}[%[[T1]]] : memref<32xf32>
// CHECK:           memref.store %[[V]], %[[SLOT]][%{{.+}}]
// CHECK:         scf.for %[[T2:.+]] = %{{.+}} to %[[C32]]
// CHECK:           arith.xori
// CHECK:           memref.load %[[SLOT]]
func.func @xor_shuffle(%a: memref<32xf32>, %o: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %off = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<32xf32>
    %s, %valid = gpu.shuffle xor %v, %off, %w : f32
    %r = arith.addf %v, %s : f32
    memref.store %r, %o[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
