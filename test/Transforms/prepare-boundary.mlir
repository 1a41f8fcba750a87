// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-prepare-boundary{unshare-destinations}))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-prepare-boundary))" | FileCheck %s --check-prefix=KEEP

// Inputs become read-only for bufferization; every returned tensor gets a
// buffer of its own.

// Tensor arguments (only they) get bufferization.writable = false; a fresh
// result is returned as is.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @inputs_read_only
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<16xf32> {bufferization.writable = false},
// CHECK-SAME:     %[[N:[a-z0-9_]+]]: index,
// CHECK-SAME:     %[[B:[a-z0-9_]+]]: tensor<16xf32> {bufferization.writable = false})
// CHECK:         %[[R:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<16xf32>) outs(%[[B]] : tensor<16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]] : tensor<16xf32>
func.func @inputs_read_only(%a: tensor<16xf32>, %n: index, %b: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%b : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// An argument returned directly is copied by an identity generic into a new
// tensor.
// CHECK-DAG:   #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @return_argument
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<4x8xf32> {bufferization.writable = false})
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         return %[[C]] : tensor<4x8xf32>
func.func @return_argument(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}

// -----

// A value returned twice: the first result keeps it, the second is a copy.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @return_twice
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[C:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]], %[[C]] : tensor<16xf32>, tensor<16xf32>
func.func @return_twice(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %r, %r : tensor<16xf32>, tensor<16xf32>
}

// -----

// An argument returned twice is copied twice, into two distinct tensors.
// CHECK-LABEL: func.func @return_argument_twice
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<16xf32> {bufferization.writable = false})
// CHECK:         %[[C0:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<16xf32>)
// CHECK:         %[[C1:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[C0]], %[[C1]] : tensor<16xf32>, tensor<16xf32>
func.func @return_argument_twice(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  return %a, %a : tensor<16xf32>, tensor<16xf32>
}

// -----

// Distinct fresh results and non-tensor results are returned as they are.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @distinct_results
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<16xf32> {bufferization.writable = false}, %[[S:[a-z0-9_]+]]: f32)
// CHECK:         %[[R0:.+]] = linalg.generic
// CHECK:         %[[R1:.+]] = linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R0]], %[[R1]], %[[S]], %[[S]] : tensor<16xf32>, tensor<16xf32>, f32, f32
func.func @distinct_results(%a: tensor<16xf32>, %s: f32) -> (tensor<16xf32>, tensor<16xf32>, f32, f32) {
  %e = tensor.empty() : tensor<16xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %r0, %r1, %s, %s : tensor<16xf32>, tensor<16xf32>, f32, f32
}

// -----

// A declaration is left alone.
// CHECK-LABEL: func.func private @external
// CHECK-NOT:     bufferization.writable
func.func private @external(tensor<16xf32>) -> tensor<16xf32>

// -----

// One zero fill serves two reductions and one empty tensor two results:
// every use but the first gets its own copy of the producer, made next to
// the original (which dominates every use), so that bufferization gives
// each op a buffer of its own (no memref.copy of the shared fill, no result
// written over a value another op still reads).
// KEEP-LABEL: func.func @shared_destinations
// KEEP-COUNT-2: tensor.empty
// KEEP-NOT:     tensor.empty
// CHECK-LABEL: func.func @shared_destinations
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[X:.*]] = linalg.generic {{.*}} outs(%[[E0]] :
// CHECK:         %[[R0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[R0]] :
// CHECK-NEXT:    %[[R1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[R1]] :
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[F0]] :
// CHECK:         linalg.generic {{.*}} outs(%[[F1]] :
// CHECK:         linalg.generic {{.*}} outs(%[[E1]] :
func.func @shared_destinations(%x: tensor<4x8xf16>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x32 : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x32 : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x32, %s, %q : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %sv: f32, %qv: f32, %o: f32):
    %t = arith.mulf %a, %sv : f32
    %u = arith.addf %t, %qv : f32
    linalg.yield %u : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
