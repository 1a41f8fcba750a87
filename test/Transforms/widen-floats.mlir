// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-widen-floats))" | FileCheck %s

// The body computes in f64; the signature stays. Arguments are widened on
// entry (tensors by a generic, scalars by arith.extf), float constants
// (scalar, dense, inside bodies) become f64, conversions between the
// widened types disappear (extf f16->f32, truncf f32->f16), an integer to
// float conversion yields f64, and results are rounded to their types on
// return.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8xf16>, %[[S:.+]]: f32, %[[N:.+]]: tensor<4xi32>) -> (tensor<4x8xf16>, tensor<4xf32>)
// CHECK:         %[[XW:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf16>) outs(%{{.+}} : tensor<4x8xf64>)
// CHECK:           arith.extf %{{.+}} : f16 to f64
// CHECK:         %[[SW:.+]] = arith.extf %[[S]] : f32 to f64
// CHECK:         arith.constant dense<5.000000e-01> : tensor<8xf64>
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} ins(%[[XW]] : tensor<4x8xf64>) outs(%{{.+}} : tensor<4x8xf64>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f64, %{{.+}}: f64):
// CHECK-NEXT:      %[[K:.+]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[A]], %[[K]] : f64
// CHECK-NEXT:      %[[M2:.+]] = arith.mulf %[[M]], %[[SW]] : f64
// CHECK-NEXT:      linalg.yield %[[M2]] : f64
// CHECK:         %[[Z:.+]] = linalg.generic {{.*}} ins(%[[N]] : tensor<4xi32>) outs(%{{.+}} : tensor<4xf64>)
// CHECK:           arith.sitofp %{{.+}} : i32 to f64
// CHECK:         %[[YN:.+]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf64>) outs(%{{.+}} : tensor<4x8xf16>)
// CHECK:           arith.truncf %{{.+}} : f64 to f16
// CHECK:         %[[ZN:.+]] = linalg.generic {{.*}} ins(%[[Z]] : tensor<4xf64>) outs(%{{.+}} : tensor<4xf32>)
// CHECK:           arith.truncf %{{.+}} : f64 to f32
// CHECK:         return %[[YN]], %[[ZN]] : tensor<4x8xf16>, tensor<4xf32>
func.func @mixed(%x: tensor<4x8xf16>, %s: f32, %n: tensor<4xi32>) -> (tensor<4x8xf16>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf16>
  %c = arith.constant dense<0.5> : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %w = arith.extf %a : f16 to f32
    %k = arith.constant 3.0 : f32
    %m = arith.mulf %w, %k : f32
    %m2 = arith.mulf %m, %s : f32
    %t = arith.truncf %m2 : f32 to f16
    linalg.yield %t : f16
  }  -> tensor<4x8xf16>
  %e2 = tensor.empty() : tensor<4xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n : tensor<4xi32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%i: i32, %o: f32):
    %f = arith.sitofp %i : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  return %y, %z : tensor<4x8xf16>, tensor<4xf32>
}

// A conversion of a scalar argument inside a body (captured from above)
// disappears once the argument is widened on entry.
// CHECK-LABEL: func.func @captured_scalar
// CHECK-SAME:    (%[[X:.+]]: tensor<8xf32>, %[[S:.+]]: f16) -> tensor<8xf32>
// CHECK:         %[[SW:.+]] = arith.extf %[[S]] : f16 to f64
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f64, %{{.+}}: f64):
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[A]], %[[SW]] : f64
// CHECK-NEXT:      linalg.yield %[[M]] : f64
func.func @captured_scalar(%x: tensor<8xf32>, %s: f16) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %w = arith.extf %s : f16 to f32
    %m = arith.mulf %a, %w : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
