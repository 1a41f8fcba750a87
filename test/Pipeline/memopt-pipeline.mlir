// RUN: memopt-opt %s --memopt-pipeline | FileCheck %s
// RUN: memopt-opt %s --memopt-pipeline="chip=sm_80 features=+ptx75" | FileCheck %s --check-prefix=SM80

// End to end: tensors in, one launch of one kernel in a single gpu.binary
// holding sm_90 PTX with 16-byte global loads and stores.
// CHECK-LABEL: module attributes {gpu.container_module, memopt.target = #memopt.target<chip = "sm_90"
// CHECK:       func.func @scale(%[[X:.+]]: memref<64x256xf32>, %[[S:.+]]: memref<256xf32>, %[[OUT:.+]]: memref<64x256xf32>) {
// CHECK:         gpu.launch_func @scale_kernel::@scale_kernel blocks in {{.*}} args(%[[S]] : memref<256xf32>, %[[X]] : memref<64x256xf32>, %[[OUT]] : memref<64x256xf32>)
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK:       gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME:    assembly = "
// CHECK-SAME:    .version 8.0
// CHECK-SAME:    .target sm_90
// CHECK-SAME:    .entry scale_kernel(
// CHECK-SAME:    ld.global.nc.v4.b32
// CHECK-SAME:    st.global.v4.b32
// CHECK-NOT:   gpu.module
// CHECK-NOT:   gpu.binary

// SM80:        gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx75">
// SM80-SAME:     .target sm_80

func.func @scale(%x: tensor<64x256xf32>, %s: tensor<256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %b = linalg.broadcast ins(%s : tensor<256xf32>) outs(%e : tensor<64x256xf32>) dimensions = [0]
  %m = linalg.mul ins(%x, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
