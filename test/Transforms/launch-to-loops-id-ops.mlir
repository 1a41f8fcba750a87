// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | FileCheck %s
// gpu.thread_id / gpu.block_id / gpu.block_dim ops inside the launch body
// (instead of the launch block arguments) become the host loop induction
// variables and the launch sizes.

// CHECK-LABEL: func.func @ids
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         scf.for %[[BY:.+]] = %{{.+}} to %[[C2]]
// CHECK:           scf.for %[[TX:.+]] = %{{.+}} to %[[C64]]
// CHECK:             %[[S:.+]] = arith.addi %[[TX]], %[[C64]] : index
// CHECK:             memref.store %[[S]], %{{.+}}[%[[BY]], %[[TX]]]
// CHECK-NOT:     gpu.thread_id
// CHECK-NOT:     gpu.block_id
// CHECK-NOT:     gpu.block_dim
func.func @ids(%o: memref<2x64xindex>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %t = gpu.thread_id x
    %b = gpu.block_id y
    %d = gpu.block_dim x
    %s = arith.addi %t, %d : index
    memref.store %s, %o[%b, %t] : memref<2x64xindex>
    gpu.terminator
  }
  return
}
