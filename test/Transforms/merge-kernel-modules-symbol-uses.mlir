// RUN: memopt-opt %s --pass-pipeline="builtin.module(memopt-merge-kernel-modules)" | FileCheck %s
// Known bug: when a moved symbol is renamed on a clash (@helper -> @helper_0),
// uses inside the moved kernels are not updated, so @kb silently calls the
// first module's @helper (addf) instead of its own (mulf).

// CHECK:       gpu.module @a_kernel {
// CHECK:         func.func @helper_0(
// CHECK-NEXT:      arith.mulf
// CHECK:         gpu.func @kb(
// CHECK:           func.call @helper_0(
module attributes {gpu.container_module} {
  gpu.module @a_kernel {
    func.func @helper(%v: f32) -> f32 {
      %r = arith.addf %v, %v : f32
      return %r : f32
    }
    gpu.func @ka(%x: memref<16xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b_kernel {
    func.func @helper(%v: f32) -> f32 {
      %r = arith.mulf %v, %v : f32
      return %r : f32
    }
    gpu.func @kb(%x: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<16xf32>
      %r = func.call @helper(%v) : (f32) -> f32
      memref.store %r, %x[%c0] : memref<16xf32>
      gpu.return
    }
  }
  func.func @f(%x: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a_kernel::@ka blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    gpu.launch_func @b_kernel::@kb blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    return
  }
}
