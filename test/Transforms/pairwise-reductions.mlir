// RUN: memopt-opt %s --memopt-pairwise-reductions 2>&1 | FileCheck %s

// Float reductions become a parallel generic of the combined values, one
// halving level per factor of two of the reduced extent (an odd extent's
// last element folded into the first), and a combination with the init
// through the original output map.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// (@kept's remark comes first, on stderr.)
// CHECK: remark: reduction kept in the program's order in the pairwise reference: output 0 is not comb(acc, value)
// CHECK: remark: reduction kept in the program's order in the pairwise reference: its iteration space is larger than any operand

// CHECK-DAG: #[[EVEN:.+]] = affine_map<(d0, d1) -> (d0, d1 * 2)>
// CHECK-DAG: #[[ODD:.+]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG: #[[TAIL:.+]] = affine_map<(d0, d1) -> (d0, 4)>

// CHECK-LABEL: func.func @row_sum_odd
// CHECK:       %[[V:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%{{.*}} : tensor<3x5xf16>)
// CHECK:         arith.mulf
// CHECK-NOT:     arith.addf
// CHECK:         linalg.yield
// CHECK:       %[[L1:.+]] = linalg.generic {indexing_maps = [#[[EVEN]], #[[ODD]], #[[TAIL]], {{.*}}]{{.*}} ins(%[[V]], %[[V]], %[[V]] : {{.*}}) outs(%{{.*}} : tensor<3x2xf16>)
// CHECK:         arith.addf
// CHECK:         linalg.index 1
// CHECK:         arith.select
// CHECK:       %[[L2:.+]] = linalg.generic {{.*}} ins(%[[L1]], %[[L1]] : {{.*}}) outs(%{{.*}} : tensor<3x1xf16>)
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[L2]] : tensor<3x1xf16>) outs(%{{.*}} : tensor<3xf16>)
// CHECK:         arith.addf %out, %in
func.func @row_sum_odd(%x: tensor<3x5xf16>) -> tensor<3xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<3xf16>) -> tensor<3xf16>
  %r = linalg.generic {indexing_maps = [#id, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x5xf16>) outs(%f : tensor<3xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %sq = arith.mulf %in, %in : f16
    %s = arith.addf %acc, %sq : f16
    linalg.yield %s : f16
  } -> tensor<3xf16>
  return %r : tensor<3xf16>
}

// Two outputs (sum and max) through a keepdim map, over the outer dim.
// CHECK-LABEL: func.func @two_outputs_keepdim
// CHECK:       linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<8x2xbf16>, tensor<8x2xbf16>)
// CHECK-COUNT-3: linalg.generic {{.*}} outs(%{{.*}} : tensor<{{[421]}}x2xbf16>)
// CHECK:         arith.maximumf
// CHECK-COUNT-3: linalg.generic {{.*}} outs(%{{.*}} : tensor<{{[421]}}x2xbf16>)
// CHECK:         arith.addf
// CHECK:       linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<2x1xbf16>, tensor<2x1xbf16>)
// CHECK:         arith.maximumf %out, %in
// CHECK:         arith.addf %in{{.*}}, %out
#t = affine_map<(d0, d1) -> (d0, d1)>
#colkeep = affine_map<(d0, d1) -> (d1, 0)>
func.func @two_outputs_keepdim(%x: tensor<8x2xbf16>, %m0: tensor<2x1xbf16>,
                               %s0: tensor<2x1xbf16>)
    -> (tensor<2x1xbf16>, tensor<2x1xbf16>) {
  %r:2 = linalg.generic {indexing_maps = [#t, #colkeep, #colkeep],
                         iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8x2xbf16>) outs(%m0, %s0 : tensor<2x1xbf16>, tensor<2x1xbf16>) {
  ^bb0(%in: bf16, %m: bf16, %s: bf16):
    %a = arith.maximumf %m, %in : bf16
    %b = arith.addf %in, %s : bf16
    linalg.yield %a, %b : bf16, bf16
  } -> (tensor<2x1xbf16>, tensor<2x1xbf16>)
  return %r#0, %r#1 : tensor<2x1xbf16>, tensor<2x1xbf16>
}

// An accumulator read twice (a running mean) keeps its order, with a
// remark; integer reductions are exact in any order and are left alone.
// CHECK-LABEL: func.func @kept
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         arith.subf
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         arith.addi
// CHECK-NOT:   linalg.generic
func.func @kept(%x: tensor<4x6xf32>, %a: tensor<4xf32>, %y: tensor<4x6xi32>,
                %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %r = linalg.generic {indexing_maps = [#id, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x6xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %d = arith.subf %in, %acc : f32
    %h = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %h : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %i = linalg.generic {indexing_maps = [#id, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x6xi32>) outs(%b : tensor<4xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %s = arith.addi %acc, %in : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r, %i : tensor<4xf32>, tensor<4xi32>
}

// A contraction keeps its order: its iteration space (M*N*K) is larger than
// any operand, and the values combined would be materialized.
// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:   linalg.generic
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                        affine_map<(i, j, k) -> (k, j)>,
                                        affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
