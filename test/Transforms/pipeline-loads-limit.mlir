// RUN: memopt-opt %s -verify-diagnostics --memopt-pipeline-loads="stages=4" | FileCheck %s

// Explicit depths are checked against a block's shared memory: 4 stages of
// four 16-byte loads of 1024 threads need 256 KiB.
// CHECK-LABEL: func.func @over_block_limit
// CHECK-NOT:     nvgpu.device_async_copy
func.func @over_block_limit(%a: memref<8x65536xf32>, %b: memref<8x65536xf32>, %c: memref<8x65536xf32>, %d: memref<8x65536xf32>, %out: memref<8x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: 4 stages need 262144 bytes of shared memory, over the block limit of 232448}}
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%acc0 = %zero) -> (f32) {
      %base = arith.muli %t, %c1024 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      %va = vector.load %a[%bx, %col] {alignment = 16 : i64} : memref<8x65536xf32>, vector<4xf32>
      %vb = vector.load %b[%bx, %col] {alignment = 16 : i64} : memref<8x65536xf32>, vector<4xf32>
      %vc = vector.load %c[%bx, %col] {alignment = 16 : i64} : memref<8x65536xf32>, vector<4xf32>
      %vd = vector.load %d[%bx, %col] {alignment = 16 : i64} : memref<8x65536xf32>, vector<4xf32>
      %s1 = arith.addf %va, %vb : vector<4xf32>
      %s2 = arith.addf %vc, %vd : vector<4xf32>
      %s3 = arith.addf %s1, %s2 : vector<4xf32>
      %r = vector.reduction <add>, %s3 : vector<4xf32> into f32
      %n = arith.addf %acc0, %r : f32
      scf.yield %n : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x1024xf32>
    gpu.terminator
  }
  return
}
