// RUN: memopt-opt %s --memopt-perturb-rounding | FileCheck %s
// RUN: not memopt-opt %s --memopt-perturb-rounding --memopt-perturb-rounding 2>&1 | FileCheck %s --check-prefix=TWICE

// Every rounding op of a generic's body (here an f32 add, an f32 -> bf16
// truncation and an exp in bf16) is followed by its perturbation: the
// result's bits hashed with the element's loop indices and the seed, a
// relative step of at most the type's unit roundoff (2^-24 for f32, 2^-8
// for bf16) taken in f64 and rounded back, and the result kept as it is
// where the seed is 0. Exact ops (extf, maximumf, negf, absf) are left
// alone, and so is f64 arithmetic.

// CHECK: memref.global "public" @memopt_rounding_seed : memref<i64> = dense<0>
// CHECK-LABEL: func.func @f
// CHECK:         %[[G:.+]] = memref.get_global @memopt_rounding_seed : memref<i64>
// CHECK:         %[[SEED:.+]] = memref.load %[[G]][] : memref<i64>
// CHECK:         linalg.generic
// CHECK:           linalg.index 0
// CHECK:           linalg.index 1
// CHECK:           %[[W:.+]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:      %[[NEG:.+]] = arith.negf %[[W]] : f32
// CHECK-NEXT:      %[[ABS:.+]] = math.absf %[[NEG]] : f32
// CHECK-NEXT:      %[[MAX:.+]] = arith.maximumf %[[ABS]], %{{.*}} : f32
// CHECK-NEXT:      %[[ADD:.+]] = arith.addf %[[MAX]], %{{.*}} : f32
// CHECK:           arith.bitcast %[[ADD]] : f32 to i32
// CHECK:           %[[WIDE:.+]] = arith.extf %[[ADD]] : f32 to f64
// CHECK:           arith.constant 5.9604644775390625E-8 : f64
// CHECK:           %[[BACK:.+]] = arith.truncf %{{.*}} : f64 to f32
// CHECK:           %[[ZERO:.+]] = arith.cmpi eq, %[[SEED]], %{{.*}} : i64
// CHECK:           %[[P:.+]] = arith.select %[[ZERO]], %[[ADD]], %[[BACK]] : f32
// CHECK:           %[[T:.+]] = arith.truncf %[[P]] : f32 to bf16
// CHECK:           arith.constant 3.906250e-03 : f64
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT:      arith.truncf %{{.*}} : f32 to bf16
// CHECK:           %[[PT:.+]] = arith.select %{{.*}}, %[[T]], %{{.*}} : bf16
// CHECK:           %[[E:.+]] = math.exp %[[PT]] : bf16
// CHECK:           %[[PE:.+]] = arith.select %{{.*}}, %[[E]], %{{.*}} : bf16
// CHECK:           %[[D:.+]] = arith.addf %{{.*}}, %{{.*}} : f64
// CHECK-NOT:       arith.bitcast %[[D]]
// CHECK:           linalg.yield %[[PE]], %[[D]] : bf16, f64

// TWICE: error: memopt-perturb-rounding: the module already defines memopt_rounding_seed

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<4x8xbf16>, %y: tensor<4x8xf32>, %z: tensor<4x8xf64>)
    -> (tensor<4x8xbf16>, tensor<4x8xf64>) {
  %e = tensor.empty() : tensor<4x8xbf16>
  %e64 = tensor.empty() : tensor<4x8xf64>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %z : tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf64>) outs(%e, %e64 : tensor<4x8xbf16>, tensor<4x8xf64>) {
  ^bb0(%a: bf16, %b: f32, %c: f64, %o: bf16, %o2: f64):
    %w = arith.extf %a : bf16 to f32
    %n = arith.negf %w : f32
    %m = math.absf %n : f32
    %mx = arith.maximumf %m, %b : f32
    %s = arith.addf %mx, %b : f32
    %t = arith.truncf %s : f32 to bf16
    %ex = math.exp %t : bf16
    %d = arith.addf %c, %c : f64
    linalg.yield %ex, %d : bf16, f64
  } -> (tensor<4x8xbf16>, tensor<4x8xf64>)
  return %r#0, %r#1 : tensor<4x8xbf16>, tensor<4x8xf64>
}
