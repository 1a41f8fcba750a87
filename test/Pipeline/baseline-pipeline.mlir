// RUN: memopt-opt %s --memopt-baseline-pipeline="chip=sm_90" | FileCheck %s

// The baseline: one kernel per op (broadcast, mul), scalar 4-byte accesses,
// all kernels merged into one gpu.binary.
// CHECK-LABEL: func.func @scale
// CHECK:         gpu.launch_func @scale_kernel::@scale_kernel blocks
// CHECK:         gpu.launch_func @scale_kernel::@scale_kernel_0 blocks
// CHECK-NOT:     gpu.launch_func
// CHECK:       gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// CHECK-SAME:    .entry scale_kernel(
// CHECK-SAME:    ld.global.{{(nc.)?}}b32
// CHECK-SAME:    .entry scale_kernel_0(
// CHECK-NOT:   ld.global.v4
// CHECK-NOT:   gpu.binary

func.func @scale(%x: tensor<64x256xf32>, %s: tensor<256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %b = linalg.broadcast ins(%s : tensor<256xf32>) outs(%e : tensor<64x256xf32>) dimensions = [0]
  %m = linalg.mul ins(%x, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
