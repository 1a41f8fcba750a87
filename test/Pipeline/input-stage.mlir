// RUN: memopt-opt %s --split-input-file --memopt-input-stage | FileCheck %s
// RUN: memopt-opt %s --split-input-file --memopt-input-stage --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PASSES

// PASSES:      memopt-check-input-contract{max-constant-bytes=16777216},
// PASSES-NEXT: func.func(
// PASSES-NEXT:   memopt-decompose-linalg
// PASSES-NOT:  one-shot-bufferize

// The input stage checks the contract and leaves only linalg.generic on tensors.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%{{.+}}: tensor<8x32xf32> {bufferization.writable = false}) -> tensor<8x32xf32>
// CHECK-NOT:     linalg.softmax
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return %{{.+}} : tensor<8x32xf32>
func.func @softmax(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Reshapes stay (they are metadata for bufferization).
// CHECK-LABEL: func.func @reshape_add
// CHECK:         tensor.collapse_shape
// CHECK-NOT:     linalg.add
// CHECK:         linalg.generic
// CHECK:           arith.addf
func.func @reshape_add(%x: tensor<2x4x16xf32>) -> tensor<8x16xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x16xf32> into tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.add ins(%c, %c : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
