// Small-shape copy of examples/w4_softmax.mlir for CPU differential testing (the full
// shapes are too slow to run as host loops). Same ops, same style; only the shapes
// (and the constants that depend on them) differ. The byte counts below the
// first line refer to the full-size example.
//
// W4: softmax over each row, fp32.
//
// What it computes:
//   y[i,j] = exp(x[i,j] - max_k x[i,k]) / sum_k exp(x[i,k] - max_k x[i,k])
// Written as the single named op linalg.softmax dimension(1), as StableHLO/torch-mlir
// pipelines that keep softmax whole emit it.
//
// Minimum bytes (each input read once, each output written once):
//   x and y are 16384 x 4096 floats, 268,435,456 bytes each.
//   Total 2 * 268,435,456 = 536,870,912 bytes (512 MiB).

func.func @w4(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %y = linalg.softmax dimension(1)
         ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>)
         -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
