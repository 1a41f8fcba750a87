// Small-shape copy of examples/w1_gelu.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W1: bias-scaled GELU with a residual add, fp32.
//
// What it computes:
//   y[i,j] = gelu_tanh(x[i,j] * s[j] + b[j]) + r[i,j]
//   gelu_tanh(v) = 0.5 * v * (1 + tanh(0.7978845608 * (v + 0.044715 * v^3)))
// The per-column scale s and bias b are broadcast along the rows with linalg.broadcast;
// the GELU itself is one elementwise linalg.generic, the way torch-mlir emits it.
//
// Minimum bytes (each input read once, each output written once):
//   x, r and y are 16384 x 4096 floats, 268,435,456 bytes each; s and b are 4096 floats,
//   16,384 bytes each. Total 3 * 268,435,456 + 2 * 16,384 = 805,339,136 bytes (~768 MiB).

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @w1(%x: tensor<64x256xf32>, %s: tensor<256xf32>, %b: tensor<256xf32>,
              %r: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e0 = tensor.empty() : tensor<64x256xf32>
  %sb = linalg.broadcast ins(%s : tensor<256xf32>) outs(%e0 : tensor<64x256xf32>)
          dimensions = [0]
  %e1 = tensor.empty() : tensor<64x256xf32>
  %bb = linalg.broadcast ins(%b : tensor<256xf32>) outs(%e1 : tensor<64x256xf32>)
          dimensions = [0]
  %e2 = tensor.empty() : tensor<64x256xf32>
  %xs = linalg.mul ins(%x, %sb : tensor<64x256xf32>, tensor<64x256xf32>)
          outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e3 = tensor.empty() : tensor<64x256xf32>
  %v = linalg.add ins(%xs, %bb : tensor<64x256xf32>, tensor<64x256xf32>)
         outs(%e3 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e4 = tensor.empty() : tensor<64x256xf32>
  %g = linalg.generic {indexing_maps = [#map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<64x256xf32>) outs(%e4 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c05 = arith.constant 5.000000e-01 : f32
    %c1 = arith.constant 1.000000e+00 : f32
    %k = arith.constant 0.797884560 : f32
    %a = arith.constant 4.471500e-02 : f32
    %v2 = arith.mulf %in, %in : f32
    %v3 = arith.mulf %v2, %in : f32
    %av3 = arith.mulf %a, %v3 : f32
    %inner = arith.addf %in, %av3 : f32
    %kin = arith.mulf %k, %inner : f32
    %t = math.tanh %kin : f32
    %onep = arith.addf %c1, %t : f32
    %hv = arith.mulf %c05, %in : f32
    %res = arith.mulf %hv, %onep : f32
    linalg.yield %res : f32
  } -> tensor<64x256xf32>
  %e5 = tensor.empty() : tensor<64x256xf32>
  %y = linalg.add ins(%g, %r : tensor<64x256xf32>, tensor<64x256xf32>)
         outs(%e5 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
