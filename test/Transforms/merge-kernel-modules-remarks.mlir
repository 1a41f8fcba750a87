// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-merge-kernel-modules)" | FileCheck %s

// Modules with different targets are not merged, and say so.
// CHECK:       gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
// CHECK:         gpu.func @a()
// CHECK:         gpu.func @c()
// CHECK:       gpu.module @sm80 [#nvvm.target<chip = "sm_80">] {
// CHECK:         gpu.func @b()
// CHECK-NOT:   gpu.module @sm90b
// CHECK-LABEL: func.func @g
// CHECK:         gpu.launch_func @sm90::@a
// CHECK:         gpu.launch_func @sm80::@b
// CHECK:         gpu.launch_func @sm90::@c
module attributes {gpu.container_module} {
  gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @a() kernel { gpu.return }
  }
  // expected-remark @+1 {{not merged: its targets differ from the first kernel module's}}
  gpu.module @sm80 [#nvvm.target<chip = "sm_80">] {
    gpu.func @b() kernel { gpu.return }
  }
  gpu.module @sm90b [#nvvm.target<chip = "sm_90">] {
    gpu.func @c() kernel { gpu.return }
  }
  func.func @g() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @sm90::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @sm80::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @sm90b::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
