// RUN: memopt-opt %s --memopt-collapse-reduction-dims 2>&1 | FileCheck %s

// Adjacent reduced dims that every operand indexes contiguously become one
// reduced dim: the row form (sum over the two inner dims) and the column
// form (NHWC statistics over N, H, W).

// CHECK: remark: reduction dims 1 to 2 not collapsed into one: an operand does not index them contiguously and in order

// CHECK-LABEL: func.func @inner_two
// CHECK:       %[[C:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<6x37x41xf32> into tensor<6x1517xf32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[C]] : tensor<6x1517xf32>)
func.func @inner_two(%x: tensor<6x37x41xf32>, %a: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<6x37x41xf32>) outs(%a : tensor<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// CHECK-LABEL: func.func @nhwc_stats
// CHECK:       %[[C:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x5x7x16xbf16> into tensor<70x16xbf16>
// CHECK:       linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[C]] : tensor<70x16xbf16>)
func.func @nhwc_stats(%x: tensor<2x5x7x16xbf16>, %a: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                        affine_map<(n, h, w, c) -> (c)>],
                       iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<2x5x7x16xbf16>) outs(%a : tensor<16xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %e = arith.extf %in : bf16 to f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// The two reduced dims are transposed in the input: left as they are.
// CHECK-LABEL: func.func @permuted
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       iterator_types = ["parallel", "reduction", "reduction"]
func.func @permuted(%x: tensor<6x41x37xf32>, %a: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<6x41x37xf32>) outs(%a : tensor<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
