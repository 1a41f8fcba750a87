// Small-shape copy of examples/w6_kinetic.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W6: kinetic energy of particles stored as an array of structures, fp32.
//
// What it computes:
//   Each particle is a record of 8 floats: x y z vx vy vz m q (fields 0..7).
//   ke[i] = 0.5 * m * (vx^2 + vy^2 + vz^2)
//         = 0.5 * p[i,6] * (p[i,3]^2 + p[i,4]^2 + p[i,5]^2)
// Only fields 3, 4, 5 and 6 are read. Each field is a separate input operand of one
// 1-D linalg.generic whose input map has a constant column index,
// e.g. affine_map<(d0) -> (d0, 3)> (tensor.extract_slice is not in the input contract).
//
// Minimum bytes (each input read once, each output written once):
//   p is 33,554,432 x 8 floats = 1,073,741,824 bytes; ke is 33,554,432 floats
//   = 134,217,728 bytes. Reading all of p: 1,207,959,552 bytes (~1.125 GiB).
//   The workload target is measured against the SoA minimum, which reads only the four
//   used fields: 4 * 4 * 33,554,432 = 536,870,912 bytes, plus the 134,217,728-byte
//   output = 671,088,640 bytes (640 MiB). (A 32-byte record spans one 32-byte DRAM
//   sector, so an AoS reader in practice moves the whole record.)

#f3 = affine_map<(d0) -> (d0, 3)>
#f4 = affine_map<(d0) -> (d0, 4)>
#f5 = affine_map<(d0) -> (d0, 5)>
#f6 = affine_map<(d0) -> (d0, 6)>
#id1 = affine_map<(d0) -> (d0)>
func.func @w6(%p: tensor<4096x8xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %ke = linalg.generic {indexing_maps = [#f3, #f4, #f5, #f6, #id1],
                        iterator_types = ["parallel"]}
      ins(%p, %p, %p, %p : tensor<4096x8xf32>, tensor<4096x8xf32>,
                           tensor<4096x8xf32>, tensor<4096x8xf32>)
      outs(%e : tensor<4096xf32>) {
  ^bb0(%vx: f32, %vy: f32, %vz: f32, %m: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %vx2 = arith.mulf %vx, %vx : f32
    %vy2 = arith.mulf %vy, %vy : f32
    %vz2 = arith.mulf %vz, %vz : f32
    %s0 = arith.addf %vx2, %vy2 : f32
    %s1 = arith.addf %s0, %vz2 : f32
    %hm = arith.mulf %half, %m : f32
    %k = arith.mulf %hm, %s1 : f32
    linalg.yield %k : f32
  } -> tensor<4096xf32>
  return %ke : tensor<4096xf32>
}
