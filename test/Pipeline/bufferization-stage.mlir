// RUN: memopt-opt %s --split-input-file --memopt-input-stage --memopt-bufferization-stage | FileCheck %s

// Results become out-parameters with identity layouts; the static allocation
// of the result is replaced by the out-parameter, intermediates are allocs.
// CHECK-LABEL: func.func @two_ops
// CHECK-SAME:    (%[[X:.+]]: memref<8x32xf32>, %[[OUT:.+]]: memref<8x32xf32>) {
// CHECK-NOT:     tensor<
// CHECK:         %[[T:.+]] = memref.alloc() {{.*}}: memref<8x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<8x32xf32>) outs(%[[T]] : memref<8x32xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : memref<8x32xf32>) outs(%[[OUT]] : memref<8x32xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return{{$}}
func.func @two_ops(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %a = linalg.exp ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %b = linalg.negf ins(%a : tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %b : tensor<8x32xf32>
}

// -----

// Two results: two out-parameters, in order.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME:    (%[[X:.+]]: memref<16xf32>, %[[R0:.+]]: memref<16xf32>, %[[R1:.+]]: memref<16xi32>) {
// CHECK:         linalg.generic {{.*}} outs(%[[R0]] : memref<16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[R1]] : memref<16xi32>)
func.func @two_results(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%ei : tensor<16xi32>) {
  ^bb0(%v: f32, %o: i32):
    %i = arith.fptosi %v : f32 to i32
    linalg.yield %i : i32
  } -> tensor<16xi32>
  return %a, %b : tensor<16xf32>, tensor<16xi32>
}
