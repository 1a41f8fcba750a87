// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-merge-kernel-modules)" | FileCheck %s

// Two outlined modules become one; the launches are retargeted.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.module @f_kernel {
// CHECK:           gpu.func @f_kernel(
// CHECK:             arith.negf
// CHECK:           gpu.func @f_kernel_0(
// CHECK:             math.exp
// CHECK:         }
// CHECK-NOT:     gpu.module
// CHECK-LABEL: func.func @f
// CHECK:         gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK:         gpu.launch_func @f_kernel::@f_kernel_0 blocks
module attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%x: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<16xf32>
      %n = arith.negf %v : f32
      memref.store %n, %x[%c0] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%x: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<16xf32>
      %n = math.exp %v : f32
      memref.store %n, %x[%c0] : memref<16xf32>
      gpu.return
    }
  }
  func.func @f(%x: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    return
  }
}

// -----

// Distinct kernel names keep their names; three modules merge into the first.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.module @m0 {
// CHECK-DAG:       gpu.func @a(
// CHECK-DAG:       gpu.func @b(
// CHECK-DAG:       gpu.func @c(
// CHECK-NOT:     gpu.module @m1
// CHECK-NOT:     gpu.module @m2
// CHECK-LABEL: func.func @g
// CHECK:         gpu.launch_func @m0::@c
// CHECK:         gpu.launch_func @m0::@a
// CHECK:         gpu.launch_func @m0::@b
module attributes {gpu.container_module} {
  gpu.module @m0 {
    gpu.func @a() kernel { gpu.return }
  }
  gpu.module @m1 {
    gpu.func @b() kernel { gpu.return }
  }
  gpu.module @m2 {
    gpu.func @c() kernel { gpu.return }
  }
  func.func @g() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m2::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m0::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m1::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A single module is left alone.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.module @only {
// CHECK:           gpu.func @k()
// CHECK-LABEL: func.func @h
// CHECK:         gpu.launch_func @only::@k
module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @h() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @only::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
