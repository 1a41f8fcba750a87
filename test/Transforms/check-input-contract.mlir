// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-check-input-contract)" | FileCheck %s

// The check rewrites nothing: valid IR comes out as it went in.

// CHECK-LABEL: func.func @named_ops
// CHECK-SAME:    (%[[X:.+]]: tensor<8x16xf32>, %[[S:.+]]: tensor<16xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK:         %[[B:.+]] = linalg.broadcast ins(%[[S]] : tensor<16xf32>) outs(%[[E]] : tensor<8x16xf32>) dimensions = [0]
// CHECK:         %[[M:.+]] = linalg.mul ins(%[[X]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK:         return %[[M]]
func.func @named_ops(%x: tensor<8x16xf32>, %s: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.broadcast ins(%s : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  %m = linalg.mul ins(%x, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

// Constant-index maps (AoS field reads) and a scalar operand with map () are allowed.
// CHECK-DAG: #[[$F3:.+]] = affine_map<(d0) -> (d0, 3)>
// CHECK-DAG: #[[$SC:.+]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @constant_index_map
// CHECK:         linalg.generic {indexing_maps = [#[[$F3]], #[[$SC]], #{{.+}}]
// CHECK:           arith.mulf
// CHECK:           math.sqrt
#f3 = affine_map<(d0) -> (d0, 3)>
#sc = affine_map<(d0) -> ()>
#id = affine_map<(d0) -> (d0)>
func.func @constant_index_map(%p: tensor<64x8xf32>) -> tensor<64xf32> {
  %k = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#f3, #sc, #id], iterator_types = ["parallel"]}
      ins(%p, %k : tensor<64x8xf32>, f32) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %r = math.sqrt %m : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// Reshapes, linalg.softmax and linalg.index are in the contract; so are i8 and bf16.
// CHECK-LABEL: func.func @reshape_softmax_index
// CHECK:         tensor.collapse_shape
// CHECK:         linalg.softmax dimension(1)
// CHECK:         tensor.expand_shape
// CHECK:         linalg.index 0
// CHECK:         arith.index_cast
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshape_softmax_index(%x: tensor<2x4x32xbf16>) -> (tensor<2x4x32xbf16>, tensor<8x32xi8>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x32xbf16> into tensor<8x32xbf16>
  %e = tensor.empty() : tensor<8x32xbf16>
  %s = linalg.softmax dimension(1) ins(%c : tensor<8x32xbf16>) outs(%e : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %r = tensor.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 32] : tensor<8x32xbf16> into tensor<2x4x32xbf16>
  %ei = tensor.empty() : tensor<8x32xi8>
  %i = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%ei : tensor<8x32xi8>) {
  ^bb0(%o: i8):
    %row = linalg.index 0 : index
    %v = arith.index_cast %row : index to i8
    linalg.yield %v : i8
  } -> tensor<8x32xi8>
  return %r, %i : tensor<2x4x32xbf16>, tensor<8x32xi8>
}

// -----

// External declarations are not checked (no body), even with dynamic shapes.
// CHECK-LABEL: func.func private @external_dynamic(tensor<?xf32>) -> tensor<?xf32>
func.func private @external_dynamic(tensor<?xf32>) -> tensor<?xf32>

// -----

// Scalar arith between ops (a frontend's folded constants) is allowed.
// CHECK-LABEL: func.func @scalar_arith
// CHECK:         %[[C:.+]] = arith.divf
// CHECK:         linalg.fill ins(%[[C]] : f32)
func.func @scalar_arith() -> tensor<4xf32> {
  %a = arith.constant 3.0 : f32
  %n = arith.constant 4.0 : f32
  %c = arith.divf %a, %n : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
