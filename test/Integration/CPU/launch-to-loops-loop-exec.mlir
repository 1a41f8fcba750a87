// Execution check of the host emulation of a loop with cluster barriers
// inside (a persistent kernel's row loop, which begins and ends with a
// barrier): one cluster of 2 blocks of 2 threads walks 3 iterations (bounds
// computed in the kernel from cluster ids, read between phases and checked
// equal in every thread); each iteration every thread publishes
// 10 * iteration + 100 * rank + thread in its block's shared memory, and
// after a cluster barrier reads the other block's slot and writes it at
// [iteration * 4 + block * 2 + thread]. A value computed before the loop
// and one computed before the barrier are used after it.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// CHECK:      100
// CHECK-NEXT: 101
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 110
// CHECK-NEXT: 111
// CHECK-NEXT: 10
// CHECK-NEXT: 11
// CHECK-NEXT: 120
// CHECK-NEXT: 121
// CHECK-NEXT: 20
// CHECK-NEXT: 21

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c100 = arith.constant 100 : index
  %o = memref.alloc() : memref<12xf32>
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) {
    %rank = gpu.cluster_block_id x
    %cid = gpu.cluster_id x
    %n = gpu.cluster_dim_blocks x
    %r100 = arith.muli %rank, %c100 : index
    %own = arith.addi %r100, %tx : index
    %step = arith.subi %n, %c1 : index
    %next0 = arith.addi %rank, %c1 : index
    %next = arith.remui %next0, %n : index
    scf.for %it = %cid to %c3 step %step {
      memopt.cluster_barrier
      %i10 = arith.muli %it, %c10 : index
      %v = arith.addi %own, %i10 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %w[%tx] : memref<2xf32, #gpu.address_space<workgroup>>
      %at0 = arith.muli %it, %c4 : index
      %at1 = arith.muli %bx, %c2 : index
      %at2 = arith.addi %at0, %at1 : index
      %at = arith.addi %at2, %tx : index
      memopt.cluster_barrier
      %x = memopt.cluster_load %w[%tx] from %next : memref<2xf32, #gpu.address_space<workgroup>>
      memref.store %x, %o[%at] : memref<12xf32>
      memopt.cluster_barrier
    }
    gpu.terminator
  }
  scf.for %i = %c0 to %c12 step %c1 {
    %x = memref.load %o[%i] : memref<12xf32>
    vector.print %x : f32
  }
  return
}
