// W5: 2-D transpose, fp32.
//
// What it computes:
//   y[i,j] = x[j,i]   for an 8192 x 8192 matrix
// Written as linalg.transpose permutation = [1, 0].
//
// Minimum bytes (each input read once, each output written once):
//   x and y are 8192 x 8192 floats, 268,435,456 bytes each.
//   Total 2 * 268,435,456 = 536,870,912 bytes (512 MiB).

func.func @w5(%x: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %e = tensor.empty() : tensor<8192x8192xf32>
  %y = linalg.transpose ins(%x : tensor<8192x8192xf32>) outs(%e : tensor<8192x8192xf32>)
         permutation = [1, 0]
  return %y : tensor<8192x8192xf32>
}
