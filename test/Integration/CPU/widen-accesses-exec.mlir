// Execution check of memopt-widen-accesses on the CPU: a hand-written
// gpu.launch whose threads each load and store four consecutive floats runs
// as host loops (memopt-launch-to-loops) before and after widening; both
// print the same values.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: memopt-opt %s --memopt-widen-accesses | FileCheck %s --check-prefix=IR
// RUN: memopt-opt %s --memopt-widen-accesses | memopt-opt --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// IR: vector.load {{.*}} {alignment = 16 : i64} : memref<36xf32>, vector<4xf32>
// IR: vector.store {{.*}} {alignment = 16 : i64} : memref<36xf32>, vector<4xf32>
// IR: vector.load {{.*}} {alignment = 8 : i64} : memref<36xf32>, vector<2xf32>

// o[i] = a[i] * (i mod 4 + 1) with a[i] = i for i < 32, then o[32..35] from
// a run at 4 * tid + 2 (only its middle pair is 8-byte aligned):
// o[32 + k] = a[4 * 0 + 2 + k] for k < 4 written by thread 0.
// CHECK: 0
// CHECK-NEXT: 2
// CHECK-NEXT: 6
// CHECK-NEXT: 12
// CHECK-NEXT: 4
// CHECK-NEXT: 10
// CHECK-NEXT: 18
// CHECK-NEXT: 28
// CHECK-NEXT: 1280
// CHECK-NEXT: 2
// CHECK-NEXT: 3
// CHECK-NEXT: 4
// CHECK-NEXT: 5

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c36 = arith.constant 36 : index
  %a = memref.alloc() : memref<36xf32>
  %o = memref.alloc() : memref<36xf32>
  scf.for %i = %c0 to %c36 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %a[%i] : memref<36xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %i = arith.muli %tx, %c4 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    %x0 = memref.load %a[%i] : memref<36xf32>
    %x1 = memref.load %a[%i1] : memref<36xf32>
    %x2 = memref.load %a[%i2] : memref<36xf32>
    %x3 = memref.load %a[%i3] : memref<36xf32>
    %k2 = arith.constant 2.0 : f32
    %k3 = arith.constant 3.0 : f32
    %k4 = arith.constant 4.0 : f32
    %y1 = arith.mulf %x1, %k2 : f32
    %y2 = arith.mulf %x2, %k3 : f32
    %y3 = arith.mulf %x3, %k4 : f32
    memref.store %x0, %o[%i] : memref<36xf32>
    memref.store %y1, %o[%i1] : memref<36xf32>
    memref.store %y2, %o[%i2] : memref<36xf32>
    memref.store %y3, %o[%i3] : memref<36xf32>
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %j = arith.addi %i, %c2 : index
      %j1 = arith.addi %j, %c1 : index
      %j2 = arith.addi %j, %c2 : index
      %j3 = arith.addi %j, %c3 : index
      %z0 = memref.load %a[%j] : memref<36xf32>
      %z1 = memref.load %a[%j1] : memref<36xf32>
      %z2 = memref.load %a[%j2] : memref<36xf32>
      %z3 = memref.load %a[%j3] : memref<36xf32>
      %c33 = arith.constant 33 : index
      %c34 = arith.constant 34 : index
      %c35 = arith.constant 35 : index
      memref.store %z0, %o[%c32] : memref<36xf32>
      memref.store %z1, %o[%c33] : memref<36xf32>
      memref.store %z2, %o[%c34] : memref<36xf32>
      memref.store %z3, %o[%c35] : memref<36xf32>
    }
    gpu.terminator
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %o[%i] : memref<36xf32>
    vector.print %v : f32
  }
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c32 step %c1 iter_args(%s = %zero) -> (f32) {
    %v = memref.load %o[%i] : memref<36xf32>
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  vector.print %sum : f32
  scf.for %i = %c32 to %c36 step %c1 {
    %v = memref.load %o[%i] : memref<36xf32>
    vector.print %v : f32
  }
  memref.dealloc %a : memref<36xf32>
  memref.dealloc %o : memref<36xf32>
  return
}
