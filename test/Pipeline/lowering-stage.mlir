// RUN: memopt-opt %s --memopt-lowering-stage="chip=sm_90" | FileCheck %s

// The lowering stage takes gpu.launch kernels on memrefs: the launches are
// outlined, both kernels land in one module, and that module becomes a
// gpu.binary with PTX. Index arithmetic is sunk into the kernel: the launch
// passes only the buffers.
// CHECK-LABEL: func.func @two_kernels
// CHECK-SAME:    (%[[A:.+]]: memref<256xf32>, %[[B:.+]]: memref<256xf32>)
// CHECK:         gpu.launch_func @two_kernels_kernel::@two_kernels_kernel blocks in {{.*}} args(%[[A]] : memref<256xf32>, %[[B]] : memref<256xf32>)
// CHECK:         gpu.launch_func @two_kernels_kernel::@two_kernels_kernel_0 blocks in {{.*}} args(%[[B]] : memref<256xf32>)
// CHECK:       gpu.binary @two_kernels_kernel
// CHECK-SAME:    .target sm_90
// CHECK-SAME:    .entry two_kernels_kernel(
// CHECK-SAME:    .entry two_kernels_kernel_0(
// CHECK-NOT:   gpu.module
func.func @two_kernels(%a: memref<256xf32>, %b: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    %t = math.tanh %v : f32
    memref.store %t, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %b[%tx] : memref<256xf32>
    %t = math.rsqrt %v : f32
    memref.store %t, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
