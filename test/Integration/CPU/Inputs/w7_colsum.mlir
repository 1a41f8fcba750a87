// Small-shape copy of examples/w7_colsum.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W7: column sum, fp32.
//
// What it computes:
//   y[j] = sum_i x[i,j]     (sum over dimension 0 of a 16384 x 4096 matrix)
// Written as linalg.fill of 0.0 on tensor.empty, then linalg.reduce dimensions = [0].
//
// Minimum bytes (each input read once, each output written once):
//   x is 16384 x 4096 floats = 268,435,456 bytes; y is 4096 floats = 16,384 bytes.
//   Total 268,451,840 bytes (~256 MiB).

func.func @w7(%x: tensor<64x256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %y = linalg.reduce ins(%x : tensor<64x256xf32>) outs(%init : tensor<256xf32>)
         dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %y : tensor<256xf32>
}
