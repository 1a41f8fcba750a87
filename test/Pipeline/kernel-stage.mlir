// RUN: memopt-opt %s --split-input-file --memopt-input-stage --memopt-bufferization-stage --memopt-kernel-stage | FileCheck %s
// RUN: memopt-opt %s --split-input-file --memopt-input-stage --memopt-bufferization-stage --memopt-kernel-stage="block-size=128" | FileCheck %s --check-prefix=BS128

// The kernel stage fuses softmax into one row kernel: no intermediate buffer,
// one launch, no linalg left.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.+]]: memref<16x512xf32>, %[[OUT:.+]]: memref<16x512xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           vector.load %[[X]]
// CHECK:           gpu.shuffle xor
// CHECK:           math.exp
// CHECK:           vector.store %{{.+}}, %[[OUT]]
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.
func.func @softmax(%x: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %e = tensor.empty() : tensor<16x512xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<16x512xf32>) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// An elementwise function with block-size=128 uses 128 threads.
// CHECK-LABEL: func.func @elementwise
// CHECK:         gpu.launch
// BS128-LABEL: func.func @elementwise
// BS128-DAG:     %[[C128:.+]] = arith.constant 128 : index
// BS128:         gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.+}} = %[[C128]],
func.func @elementwise(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %y = linalg.exp ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
