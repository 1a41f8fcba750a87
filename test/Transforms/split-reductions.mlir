// RUN: memopt-opt %s --memopt-split-reductions 2>&1 | FileCheck %s

// Independent outputs of one reduction become one reduction each, with the
// part of the body and the inputs each needs; outputs reading another's
// accumulator stay together, with a remark.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK: remark: reduction outputs not split: output 1 reads the accumulator of output 0

// CHECK-LABEL: func.func @sum_and_sumsq
// CHECK:       %[[S:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf32>) outs(%arg2 : tensor<4xf32>)
// CHECK-NEXT:  ^bb0(%[[IN:.+]]: f32, %[[OUT:.+]]: f32):
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT:    linalg.yield %[[A]] : f32
// CHECK:       %[[Q:.+]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x9xf32>, tensor<4x9xf32>) outs(%arg3 : tensor<4xf32>)
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK:       return %[[S]], %[[Q]]
func.func @sum_and_sumsq(%x: tensor<4x9xf32>, %y: tensor<4x9xf32>,
                         %s0: tensor<4xf32>, %q0: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<4x9xf32>, tensor<4x9xf32>)
      outs(%s0, %q0 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %q: f32):
    %s1 = arith.addf %s, %a : f32
    %p = arith.mulf %a, %b : f32
    %q1 = arith.addf %q, %p : f32
    linalg.yield %s1, %q1 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @dependent
// CHECK:       linalg.generic {{.*}} outs(%arg1, %arg2 : tensor<4xf32>, tensor<4xf32>)
func.func @dependent(%x: tensor<4x9xf32>, %m0: tensor<4xf32>, %v0: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%m0, %v0 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32):
    %m1 = arith.maximumf %m, %a : f32
    %d = arith.subf %a, %m : f32
    %v1 = arith.addf %v, %d : f32
    linalg.yield %m1, %v1 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
