// RUN: memopt-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(memopt-pack-sub-byte-integers))" | FileCheck %s

// Group-wise int4 dequantization (IREE's form): the weight is read as its
// bytes through a projected permutation; the loop over the packed dim is
// split into the byte index and the nibble (extent 2, innermost); the scale
// does not depend on that loop and keeps its map; the result is expanded
// along it and collapsed back.
#w = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MW:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[MS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[MO:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: func.func @dequant(
// CHECK-SAME: %[[W:.*]]: tensor<64x4x16xi8>, %[[S:.*]]: tensor<64x4xf16>) -> tensor<64x4x32xf16>
// CHECK: %[[E:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [64, 4, 16, 2] : tensor<64x4x32xf16> into tensor<64x4x16x2xf16>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[MW]], #[[MS]], #[[MO]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[W]], %[[S]] : tensor<64x4x16xi8>, tensor<64x4xf16>) outs(%[[E]] : tensor<64x4x16x2xf16>)
// CHECK: ^bb0(%[[B:.*]]: i8, %[[SC:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[L:.*]] = linalg.index 3 : index
// CHECK: %[[L8:.*]] = arith.index_castui %[[L]] : index to i8
// CHECK: %[[SH:.*]] = arith.muli %[[L8]], %{{.*}} : i8
// CHECK: %[[R:.*]] = arith.shrui %[[B]], %[[SH]] : i8
// CHECK: %[[Q:.*]] = arith.trunci %[[R]] : i8 to i4
// CHECK: arith.sitofp %[[Q]] : i4 to f16
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<64x4x16x2xf16> into tensor<64x4x32xf16>
func.func @dequant(%w: tensor<64x4x32xi4>, %scale: tensor<64x4xf16>) -> tensor<64x4x32xf16> {
  %e = tensor.empty() : tensor<64x4x32xf16>
  %d = linalg.generic {indexing_maps = [#w, #s, #w],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale : tensor<64x4x32xi4>, tensor<64x4xf16>) outs(%e : tensor<64x4x32xf16>) {
  ^bb0(%q: i4, %sc: f16, %o: f16):
    %f = arith.sitofp %q : i4 to f16
    %r = arith.mulf %f, %sc : f16
    linalg.yield %r : f16
  } -> tensor<64x4x32xf16>
  return %d : tensor<64x4x32xf16>
}

// -----

// The weight reshaped before it is read (collapse of the groups), read
// transposed (the packed dim is loop 0), a loop index used in the body,
// and an i2 tensor read at a constant index (byte 1, lane 1).
// CHECK: // -----
// CHECK-DAG: #[[M0:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[M1:map[0-9]*]] = affine_map<(d0, d1, d2) -> (2, 1)>
// CHECK-DAG: #[[M2:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: func.func @reshaped(
// CHECK-SAME: %[[W:.*]]: tensor<8x2x4xi8>, %[[T:.*]]: tensor<3x2xi8>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2]] : tensor<8x2x4xi8> into tensor<8x8xi8>
// CHECK: linalg.generic {indexing_maps = [#[[M0]], #[[M1]], #[[M2]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[C]], %[[T]] : tensor<8x8xi8>, tensor<3x2xi8>)
// CHECK: ^bb0(%[[B:.*]]: i8, %[[TB:.*]]: i8, %{{.*}}: i32):
// CHECK: %[[L:.*]] = linalg.index 1 : index
// CHECK: arith.shrui %[[B]]
// CHECK: %[[TL:.*]] = arith.constant 1 : i8
// CHECK: %[[TS:.*]] = arith.muli %[[TL]], %{{.*}} : i8
// CHECK: arith.shrui %[[TB]], %[[TS]] : i8
// CHECK: arith.trunci %{{.*}} : i8 to i2
// CHECK: %[[I0:.*]] = linalg.index 0 : index
// CHECK: %[[I0S:.*]] = arith.muli %[[I0]], %{{.*}} : index
// CHECK: %[[I0L:.*]] = arith.addi %[[I0S]], %{{.*}} : index
// CHECK: %[[I1:.*]] = linalg.index 2 : index
// CHECK: arith.index_cast %[[I0L]] : index to i32
// CHECK: arith.index_cast %[[I1]] : index to i32
#rt = affine_map<(d0, d1) -> (d1, d0)>
#t = affine_map<(d0, d1) -> (2, 5)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshaped(%w: tensor<8x2x8xi4>, %t: tensor<3x8xi2>) -> tensor<16x8xi32> {
  %c = tensor.collapse_shape %w [[0], [1, 2]] : tensor<8x2x8xi4> into tensor<8x16xi4>
  %e = tensor.empty() : tensor<16x8xi32>
  %r = linalg.generic {indexing_maps = [#rt, #t, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %t : tensor<8x16xi4>, tensor<3x8xi2>) outs(%e : tensor<16x8xi32>) {
  ^bb0(%q: i4, %u: i2, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %qq = arith.extsi %q : i4 to i32
    %uu = arith.extui %u : i2 to i32
    %a = arith.addi %qq, %uu : i32
    %b = arith.muli %ii, %jj : i32
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<16x8xi32>
  return %r : tensor<16x8xi32>
}
