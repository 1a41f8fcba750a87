// Execution check of the host emulation of thread-block clusters: a grid of
// 6 blocks in clusters of 3, 2 threads each. Each block stores 100 * rank +
// 10 * cluster + thread (rank and cluster from gpu.cluster_block_id and
// gpu.cluster_id, checked against block_id) in its shared memory; after a
// cluster barrier each thread reads its slot of the next block in the
// cluster (rank + 1 mod 3, sized by gpu.cluster_dim_blocks) and writes it
// out at [block * 2 + thread].
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// Cluster 0: blocks 0, 1, 2 read ranks 1, 2, 0; cluster 1 likewise + 10.
// CHECK:      100
// CHECK-NEXT: 101
// CHECK-NEXT: 200
// CHECK-NEXT: 201
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 110
// CHECK-NEXT: 111
// CHECK-NEXT: 210
// CHECK-NEXT: 211
// CHECK-NEXT: 10
// CHECK-NEXT: 11

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c100 = arith.constant 100 : index
  %bad = arith.constant -1.0 : f32
  %o = memref.alloc() : memref<12xf32>
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c3, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) {
    %rank = gpu.cluster_block_id x
    %cid = gpu.cluster_id x
    %n = gpu.cluster_dim_blocks x
    %r100 = arith.muli %rank, %c100 : index
    %c10x = arith.muli %cid, %c10 : index
    %v0 = arith.addi %r100, %c10x : index
    %v = arith.addi %v0, %tx : index
    // Rank and cluster agree with the block id, else -1.
    %bx2 = arith.muli %cid, %n : index
    %bx3 = arith.addi %bx2, %rank : index
    %ok = arith.cmpi eq, %bx3, %bx : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %val = arith.select %ok, %vf, %bad : f32
    memref.store %val, %w[%tx] : memref<2xf32, #gpu.address_space<workgroup>>
    memopt.cluster_barrier
    %next0 = arith.addi %rank, %c1 : index
    %next = arith.remui %next0, %n : index
    %x = memopt.cluster_load %w[%tx] from %next : memref<2xf32, #gpu.address_space<workgroup>>
    %i0 = arith.muli %bx, %c2 : index
    %i = arith.addi %i0, %tx : index
    memref.store %x, %o[%i] : memref<12xf32>
    memopt.cluster_barrier
    gpu.terminator
  }
  scf.for %i = %c0 to %c12 step %c1 {
    %x = memref.load %o[%i] : memref<12xf32>
    vector.print %x : f32
  }
  return
}
