// Small-shape copy of examples/w5_transpose.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W5: 2-D transpose, fp32.
//
// What it computes:
//   y[i,j] = x[j,i]   for an 8192 x 8192 matrix
// Written as linalg.transpose permutation = [1, 0].
//
// Minimum bytes (each input read once, each output written once):
//   x and y are 8192 x 8192 floats, 268,435,456 bytes each.
//   Total 2 * 268,435,456 = 536,870,912 bytes (512 MiB).

func.func @w5(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %y = linalg.transpose ins(%x : tensor<128x128xf32>) outs(%e : tensor<128x128xf32>)
         permutation = [1, 0]
  return %y : tensor<128x128xf32>
}
