// The host emulation runs a loop around barriers once for all threads, with
// the bounds the first thread computed; threads that disagree (here the
// trip count is 1 + thread id: on the GPU the barrier inside would not be
// met by every thread) abort the program (a failed cf.assert) instead of
// running thread 0's trip count for all.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-launch-to-loops))" | memopt-opt --memopt-host-lowering-stage | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so

// CHECK: cf.assert %{{.*}}, "memopt-launch-to-loops: the threads of a block or cluster disagree on the bounds of a loop around barriers"
// CHECK: cf.assert %{{.*}}, "memopt-launch-to-loops: a loop around barriers runs no iteration"

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %o = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %n = arith.addi %tx, %c1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
      %f = arith.constant 1.0 : f32
      memref.store %f, %o[%tx] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
