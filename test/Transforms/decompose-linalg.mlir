// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-decompose-linalg))" | FileCheck %s

// linalg.softmax decomposes into max-reduce, sub+exp, sum-reduce and div, all
// linalg.generic (the fills are generalized too).
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.+]]: tensor<4x16xf32>)
// CHECK-NOT:     linalg.softmax
// CHECK:         %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x16xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<4x16xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<4x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[DIV:.+]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<4x16xf32>, tensor<4xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[DIV]]
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @add
// CHECK-SAME:    (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-NOT:     linalg.add
// CHECK:         %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[IA:.+]]: f32, %[[IB:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[IA]], %[[IB]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mul_f16
// CHECK-NOT:     linalg.mul
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.+}}, %{{.+}} : f16
func.func @mul_f16(%a: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<8xf16> {
  %e = tensor.empty() : tensor<8xf16>
  %r = linalg.mul ins(%a, %b : tensor<8xf16>, tensor<8xf16>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  return %r : tensor<8xf16>
}

// -----

// CHECK-LABEL: func.func @exp
// CHECK-NOT:     linalg.exp
// CHECK:         linalg.generic
// CHECK:           math.exp %{{.+}} : f32
func.func @exp(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.exp ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @max
// CHECK-NOT:     linalg.max
// CHECK:         linalg.generic
// CHECK:           arith.maximumf %{{.+}}, %{{.+}} : f32
func.func @max(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.max ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A broadcast along rows reads the input through (d0, d1) -> (d1).
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[S:.+]]: tensor<16xf32>)
// CHECK-NOT:     linalg.broadcast
// CHECK:         linalg.generic {indexing_maps = [#[[$COL]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]] : tensor<16xf32>)
func.func @broadcast(%s: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.broadcast ins(%s : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  return %b : tensor<8x16xf32>
}

// -----

// CHECK-DAG: #[[$SWAP:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {indexing_maps = [#[[$SWAP]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @transpose(%x: tensor<4x16xf32>) -> tensor<16x4xf32> {
  %e = tensor.empty() : tensor<16x4xf32>
  %y = linalg.transpose ins(%x : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) permutation = [1, 0]
  return %y : tensor<16x4xf32>
}

// -----

// linalg.fill becomes a generic reading the scalar through (d0) -> ().
// A column reduction keeps its reduction iterator on d0.
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @fill_reduce_columns
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     linalg.fill
// CHECK:         %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[$SCALAR]], #{{.+}}], iterator_types = ["parallel"]} ins(%[[ZERO]] : f32)
// CHECK-NOT:     linalg.reduce
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[$COL]]], iterator_types = ["reduction", "parallel"]} {{.*}} outs(%[[INIT]] : tensor<16xf32>)
// CHECK:           arith.addf
func.func @fill_reduce_columns(%x: tensor<4x16xf32>) -> tensor<16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.reduce ins(%x : tensor<4x16xf32>) outs(%f : tensor<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %y : tensor<16xf32>
}

// -----

// A generic is left as it is, body included.
// CHECK-LABEL: func.func @generic_unchanged
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[T:.+]] = math.tanh %[[A]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @generic_unchanged(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Decomposition also works on softmax over the last dim of a 3-D tensor.
// CHECK-DAG: #[[$R3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @softmax_3d
// CHECK-NOT:     linalg.softmax
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[$R3]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           arith.maxnumf
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[$R3]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           arith.addf
func.func @softmax_3d(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.softmax dimension(2) ins(%x : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}
