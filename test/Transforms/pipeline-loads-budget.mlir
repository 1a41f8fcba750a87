// RUN: memopt-opt %s -verify-diagnostics --memopt-pipeline-loads="shared-budget-bytes=16384" | FileCheck %s

// With the default depth, one 16 KiB stage (1024 threads x 16 bytes) leaves
// no room for a second in a 16 KiB budget.
// CHECK-LABEL: func.func @over_budget
// CHECK-NOT:     nvgpu.device_async_copy
func.func @over_budget(%x: memref<8x65536xf32>, %out: memref<8x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{loop not pipelined: one stage (16384 bytes) leaves no room for a second within the shared-memory budget of 16384 bytes}}
    %acc = scf.for %t = %c0 to %c16 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c1024 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      %v = vector.load %x[%bx, %col] {alignment = 16 : i64} : memref<8x65536xf32>, vector<4xf32>
      %s = vector.reduction <add>, %v : vector<4xf32> into f32
      %n = arith.addf %a, %s : f32
      scf.yield %n : f32
    }
    memref.store %acc, %out[%bx, %tx] : memref<8x1024xf32>
    gpu.terminator
  }
  return
}
