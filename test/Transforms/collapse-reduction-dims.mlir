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

// Instance norm NCHW: the statistics reduce over (H, W), collapsed; the
// normalization reading x as the collapsed statistic does follows, over
// [N, C, H * W], its result expanded back: one row space for the kernel
// group (it was a second kernel re-reading x).
// CHECK-LABEL: func.func @instnorm_epilogue
// CHECK:       %[[C:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x3x5x7xf32> into tensor<2x3x35xf32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[C]] : tensor<2x3x35xf32>)
// CHECK:       %[[N:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x35xf32>, tensor<2x3xf32>, tensor<3xf32>)
// CHECK:       %[[E:.+]] = tensor.expand_shape %[[N]] {{\[}}[0], [1], [2, 3]] output_shape [2, 3, 5, 7]
// CHECK:       return %[[E]]
func.func @instnorm_epilogue(%x: tensor<2x3x5x7xf32>, %a: tensor<2x3xf32>, %g: tensor<3xf32>) -> tensor<2x3x5x7xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                        affine_map<(n, c, h, w) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x3x5x7xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %acc, %in : f32
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3x5x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                        affine_map<(n, c, h, w) -> (n, c)>,
                                        affine_map<(n, c, h, w) -> (c)>,
                                        affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s, %g : tensor<2x3x5x7xf32>, tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3x5x7xf32>) {
  ^bb0(%in: f32, %m: f32, %gg: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %v = arith.mulf %d, %gg : f32
    linalg.yield %v : f32
  } -> tensor<2x3x5x7xf32>
  return %y : tensor<2x3x5x7xf32>
}

// LayerNorm over the last two dims: the centred values (an elementwise op
// over x) feed the variance, which reads them through its own collapse;
// the centring and the normalization after it follow the collapse (the
// variance's collapse of the centred values folds into them), three ops
// over [B, S * D].
// CHECK-LABEL: func.func @layernorm_two_dims
// CHECK-COUNT-4: linalg.generic {{.*}}tensor<4x63xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 7, 9]
func.func @layernorm_two_dims(%x: tensor<4x7x9xf32>, %a: tensor<4xf32>) -> tensor<4x7x9xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x7x9xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %acc, %in : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x7x9xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b)>, affine_map<(b, s, d) -> (b, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<4x7x9xf32>, tensor<4xf32>) outs(%e : tensor<4x7x9xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %v = arith.subf %in, %m : f32
    linalg.yield %v : f32
  } -> tensor<4x7x9xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%c : tensor<4x7x9xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %v = arith.addf %acc, %p : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s, d)>, affine_map<(b, s, d) -> (b)>, affine_map<(b, s, d) -> (b, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %q : tensor<4x7x9xf32>, tensor<4xf32>) outs(%e : tensor<4x7x9xf32>) {
  ^bb0(%in: f32, %v2: f32, %o: f32):
    %r = math.rsqrt %v2 : f32
    %v = arith.mulf %in, %r : f32
    linalg.yield %v : f32
  } -> tensor<4x7x9xf32>
  return %y : tensor<4x7x9xf32>
}

// A frontend's own reshapes are not followed: x viewed as [24, 10, 100]
// (one reduced dim, nothing collapsed) keeps the elementwise op 3-D.
// CHECK-LABEL: func.func @frontend_reshape
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [24, 10, 100]
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel", "parallel"]{{.*}} tensor<24x10x100xf32>
func.func @frontend_reshape(%x: tensor<24x1000xf32>, %a: tensor<24x10xf32>) -> tensor<24x10x100xf32> {
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [24, 10, 100] : tensor<24x1000xf32> into tensor<24x10x100xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3 : tensor<24x10x100xf32>) outs(%a : tensor<24x10xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %acc, %in : f32
    linalg.yield %v : f32
  } -> tensor<24x10xf32>
  %e = tensor.empty() : tensor<24x10x100xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x3, %s : tensor<24x10x100xf32>, tensor<24x10xf32>) outs(%e : tensor<24x10x100xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %v = arith.divf %in, %m : f32
    linalg.yield %v : f32
  } -> tensor<24x10x100xf32>
  return %y : tensor<24x10x100xf32>
}
