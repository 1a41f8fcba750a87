// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-fold-slices,canonicalize))" -split-input-file | FileCheck %s

// A slice read by a generic: its source read through offset + stride * i,
// a dropped dim at its offset.
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1) -> (2, d0 + 1, d1 * 3 + 2)>
// CHECK-LABEL: func.func @strided_rank_reducing
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {indexing_maps = [#[[S]], {{.*}}]} ins(%arg0 : tensor<4x9x32xf32>)
func.func @strided_rank_reducing(%x: tensor<4x9x32xf32>) -> tensor<5x10xf32> {
  %s = tensor.extract_slice %x[2, 1, 2] [1, 5, 10] [1, 1, 3] : tensor<4x9x32xf32> to tensor<5x10xf32>
  %e = tensor.empty() : tensor<5x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<5x10xf32>) outs(%e : tensor<5x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}

// -----

// A leading part of a dim (x[:, :16]) is read at j mod 16 (a plain j would
// give the loop the source's extent); a slice of a slice composes; a slice
// returned as is becomes a copy generic.
// CHECK-DAG: #[[LEAD:.*]] = affine_map<(d0, d1) -> (d0, d1 mod 16)>
// CHECK-DAG: #[[NEST:.*]] = affine_map<(d0, d1) -> (d0 + 3, d1 + 7)>
// CHECK-LABEL: func.func @leading_nested_returned
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {indexing_maps = [#[[LEAD]], {{.*}}]} ins(%arg0 : tensor<8x33xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[NEST]], {{.*}}]} ins(%arg0 : tensor<8x33xf32>)
func.func @leading_nested_returned(%x: tensor<8x33xf32>) -> (tensor<8x16xf32>, tensor<2x20xf32>) {
  %lead = tensor.extract_slice %x[0, 0] [8, 16] [1, 1] : tensor<8x33xf32> to tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%lead : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %outer = tensor.extract_slice %x[1, 2] [5, 30] [1, 1] : tensor<8x33xf32> to tensor<5x30xf32>
  %inner = tensor.extract_slice %outer[2, 5] [2, 20] [1, 1] : tensor<5x30xf32> to tensor<2x20xf32>
  return %r, %inner : tensor<8x16xf32>, tensor<2x20xf32>
}

// -----

// rotate_half: cat(-x[..., 32:], x[..., :32]). One generic over the
// result; the negation of the second half computed inside it.
// CHECK-DAG: #[[HI:.*]] = affine_map<(d0, d1) -> (d0, d1 mod 32 + 32)>
// CHECK-DAG: #[[LO:.*]] = affine_map<(d0, d1) -> (d0, d1 mod 32)>
// CHECK-LABEL: func.func @rotate_half
// CHECK-NOT: tensor.concat
// CHECK: linalg.generic {indexing_maps = [#[[HI]], #[[LO]], {{.*}}]} ins(%arg0, %arg0
// CHECK: arith.negf
// CHECK: %[[I:.*]] = linalg.index 1
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[I]], %c32
// CHECK: arith.select %[[FIRST]]
// CHECK-NOT: linalg.generic
func.func @rotate_half(%x: tensor<6x64xf32>) -> tensor<6x64xf32> {
  %x1 = tensor.extract_slice %x[0, 0] [6, 32] [1, 1] : tensor<6x64xf32> to tensor<6x32xf32>
  %x2 = tensor.extract_slice %x[0, 32] [6, 32] [1, 1] : tensor<6x64xf32> to tensor<6x32xf32>
  %e = tensor.empty() : tensor<6x32xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x2 : tensor<6x32xf32>) outs(%e : tensor<6x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<6x32xf32>
  %r = tensor.concat dim(1) %n, %x1 : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x64xf32>
  return %r : tensor<6x64xf32>
}

// -----

// Three pieces of unequal length along dim 0: piece p at offset o, n long,
// read at (i + n * ceil(o / n) - o) mod n.
// CHECK-DAG: #[[P0:.*]] = affine_map<(d0, d1) -> (d0 mod 5, d1)>
// CHECK-DAG: #[[P1:.*]] = affine_map<(d0, d1) -> ((d0 + 1) mod 3, d1)>
// CHECK-DAG: #[[P2:.*]] = affine_map<(d0, d1) -> ((d0 + 6) mod 7, d1)>
// CHECK-LABEL: func.func @three_pieces
// CHECK: linalg.generic {indexing_maps = [#[[P0]], #[[P1]], #[[P2]], {{.*}}]}
// CHECK-DAG: arith.cmpi ult, %{{.*}}, %c5
// CHECK-DAG: arith.cmpi ult, %{{.*}}, %c8
func.func @three_pieces(%a: tensor<5x4xf16>, %b: tensor<3x4xf16>, %c: tensor<7x4xf16>) -> tensor<15x4xf16> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<5x4xf16>, tensor<3x4xf16>, tensor<7x4xf16>) -> tensor<15x4xf16>
  return %r : tensor<15x4xf16>
}

// -----

// Padding: an insert into a tensor filled with a constant selects the
// source inside the box and the constant outside it (the fill is not read).
// CHECK-DAG: #[[BOX:.*]] = affine_map<(d0, d1) -> ((d0 + 1) mod 2, (d1 + 3) mod 4)>
// CHECK-LABEL: func.func @pad
// CHECK-NOT: tensor.insert_slice
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[BOX]], #{{.*}}]} ins(%arg0 : tensor<2x4xf32>)
// CHECK-DAG: arith.cmpi uge, %{{.*}}, %c1
// CHECK-DAG: arith.cmpi ult, %{{.*}}, %c3
// CHECK-DAG: arith.cmpi uge, %{{.*}}, %c1
// CHECK-DAG: arith.cmpi ult, %{{.*}}, %c5
// CHECK: arith.select
func.func @pad(%x: tensor<2x4xf32>) -> tensor<4x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = tensor.insert_slice %x into %f[1, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}

// -----

// A slice whose dim only the slice carries in a reduction (the reduced
// loop would lose its range): the reduction reads a copy generic.
// CHECK-LABEL: func.func @reduced_slice
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x40xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[COPY]] : tensor<4x27xf32>)
func.func @reduced_slice(%x: tensor<4x40xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %x[0, 3] [4, 27] [1, 1] : tensor<4x40xf32> to tensor<4x27xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<4x27xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// tensor.pad by a constant (F.pad): the same selection, the constant 1.5.
// CHECK-DAG: #[[PADMAP:.*]] = affine_map<(d0, d1) -> (d0, (d1 + 1) mod 3)>
// CHECK-LABEL: func.func @tensor_pad
// CHECK-NOT: tensor.pad
// CHECK: %[[ONE5:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#[[PADMAP]], #{{.*}}]} ins(%arg0 : tensor<4x3xf32>)
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: arith.cmpi ult, %{{.*}}, %c5
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[ONE5]]
func.func @tensor_pad(%x: tensor<4x3xf32>) -> tensor<4x9xf32> {
  %p = tensor.pad %x low[0, 2] high[0, 4] {
  ^bb0(%i: index, %j: index):
    %v = arith.constant 1.5 : f32
    tensor.yield %v : f32
  } : tensor<4x3xf32> to tensor<4x9xf32>
  return %p : tensor<4x9xf32>
}

// -----

// split(96, -1) then view(.., 4, 24): the reshape moves onto the source
// (288 = 3 x 4 x 24) and the slice becomes x[.., 1, :, :], folded into the
// reader; a slice whose offset is not a multiple of its size (48 of 96)
// keeps its reshape (a copy generic is reshaped).
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2) -> (d0, 1, d1, d2)>
// CHECK-LABEL: func.func @split_view
// CHECK: %[[R:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2, 3]] output_shape [5, 3, 4, 24]
// CHECK: linalg.generic {indexing_maps = [#[[K]], #{{.*}}]} ins(%[[R]] : tensor<5x3x4x24xf32>)
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<5x288xf32>)
// CHECK: tensor.expand_shape %[[COPY]] {{\[}}[0], [1, 2]] output_shape [5, 4, 24]
func.func @split_view(%x: tensor<5x288xf32>) -> (tensor<5x4x24xf32>, tensor<5x4x24xf32>) {
  %k = tensor.extract_slice %x[0, 96] [5, 96] [1, 1] : tensor<5x288xf32> to tensor<5x96xf32>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [5, 4, 24] : tensor<5x96xf32> into tensor<5x4x24xf32>
  %e = tensor.empty() : tensor<5x4x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, h, d) -> (i, h, d)>, affine_map<(i, h, d) -> (i, h, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k3 : tensor<5x4x24xf32>) outs(%e : tensor<5x4x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<5x4x24xf32>
  %odd = tensor.extract_slice %x[0, 48] [5, 96] [1, 1] : tensor<5x288xf32> to tensor<5x96xf32>
  %odd3 = tensor.expand_shape %odd [[0], [1, 2]] output_shape [5, 4, 24] : tensor<5x96xf32> into tensor<5x4x24xf32>
  return %r, %odd3 : tensor<5x4x24xf32>, tensor<5x4x24xf32>
}
