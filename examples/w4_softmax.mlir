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

func.func @w4(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %e = tensor.empty() : tensor<16384x4096xf32>
  %y = linalg.softmax dimension(1)
         ins(%x : tensor<16384x4096xf32>) outs(%e : tensor<16384x4096xf32>)
         -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
