// RUN: memopt-opt %s --memopt-pipeline-loads="stages=3" --test-memopt-print-traffic --test-memopt-print-access-patterns -verify-diagnostics

// After pipelining, the traffic model counts the cp.async copies as the
// global reads they are (8 rows x 4096 f32 read once, 8 x 256 written); the
// lane model sees each copy (prologue and steady state) as a coalesced
// 16-byte read and the ring read as a conflict-free shared access.
func.func @row_sum(%x: memref<8x4096xf32>, %out: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{traffic: read 131072 B, written 8192 B}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    // The ops the pipeliner creates carry the loop's location (the three
    // copies' identical remarks count once).
    // expected-remark @+2 {{global read of 16 B per lane: 16 sectors for 512 useful bytes (100.0% sector efficiency); contiguous, address divisible by 16 B}}
    // expected-remark @+1 {{shared read of 16 B per lane: conflict-free (4 wavefronts, ideal 4); contiguous, address divisible by 16 B}}
    %acc = scf.for %t = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
      %base = arith.muli %t, %c256 : index
      %chunk = arith.addi %base, %tx : index
      %col = arith.muli %chunk, %c4 : index
      %v = vector.load %x[%bx, %col] {alignment = 16 : i64} : memref<8x4096xf32>, vector<4xf32>
      %s = vector.reduction <add>, %v : vector<4xf32> into f32
      %n = arith.addf %a, %s : f32
      scf.yield %n : f32
    }
    // expected-remark @+1 {{global write of 4 B per lane: 4 sectors for 128 useful bytes (100.0% sector efficiency); contiguous, address divisible by 4 B}}
    memref.store %acc, %out[%bx, %tx] : memref<8x256xf32>
    gpu.terminator
  }
  return
}
