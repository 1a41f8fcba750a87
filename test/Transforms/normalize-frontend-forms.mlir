// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-normalize-frontend-forms))" | FileCheck %s

// Frontends' spellings become the input contract's: alloc_tensor without a
// copy is tensor.empty; a splat constant read by a linalg op is a scalar
// constant in its body (a named op is generalized for it).

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @alloc_and_splat
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK-NOT:     dense<
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<64xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<64xf32>) outs(%[[E]] : tensor<64xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[C:.+]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:      arith.mulf %[[A]], %[[C]] : f32
// CHECK:         linalg.generic
// CHECK:           arith.constant 1.000000e+00 : f32
// CHECK:           arith.addf
func.func @alloc_and_splat(%x: tensor<64xf32>) -> tensor<64xf32> {
  %q = arith.constant dense<2.5e-01> : tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %a = bufferization.alloc_tensor() : tensor<64xf32>
  %t = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %q : tensor<64xf32>, tensor<64xf32>) outs(%a : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b = bufferization.alloc_tensor() : tensor<64xf32>
  %y = linalg.add ins(%t, %one : tensor<64xf32>, tensor<64xf32>) outs(%b : tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// A splat constant returned or used as an output: a fill.
// CHECK-LABEL: func.func @splat_result
// CHECK:         %[[C:.+]] = arith.constant 3.000000e+00 : f32
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<8xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[C]] : f32) outs(%[[E]] : tensor<8xf32>)
// CHECK:         return %[[F]]
func.func @splat_result() -> tensor<8xf32> {
  %c = arith.constant dense<3.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// A non-splat constant stays (the contract check or the manifest names it).
// CHECK-LABEL: func.func @table
// CHECK:         arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
func.func @table(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %y = linalg.add ins(%x, %c : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
// Scalars through 0-d tensors: from_elements is a fill; an extract used in
// a body becomes an input read through the map to no dims; a fill of an
// extracted scalar broadcasts the 0-d tensor.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME:    (%[[X:.+]]: tensor<16xf32>, %[[S:.+]]: f32)
// CHECK-NOT:     tensor.from_elements
// CHECK-NOT:     tensor.extract
// CHECK:         %[[T:.+]] = linalg.fill ins(%[[S]] : f32) outs(%{{.+}} : tensor<f32>)
// CHECK:         %[[B:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel"]}
// CHECK-SAME:      ins(%[[T]] : tensor<f32>)
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[B]], %[[T]] : tensor<16xf32>, tensor<16xf32>, tensor<f32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[F:.+]]: f32, %[[V:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[A]], %[[V]] : f32
// CHECK-NEXT:      arith.addf %[[M]], %[[F]] : f32
func.func @scalars(%x: tensor<16xf32>, %s: f32) -> tensor<16xf32> {
  %t = tensor.from_elements %s : tensor<f32>
  %v = tensor.extract %t[] : tensor<f32>
  %e0 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%v : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %f : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %r = arith.addf %m, %b : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
// A splat read twice by one op, and a splat that alone gives a loop its
// range (a sum over it): the first is folded twice, the second becomes a
// fill (dropping it would leave the reduced loop without a range).
// CHECK-LABEL: func.func @splat_twice_and_alone
// CHECK-NOT:     dense<
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<8xf32>)
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK:         %[[F:.+]] = linalg.fill
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[F]] : tensor<8xf32>)
func.func @splat_twice_and_alone(%x: tensor<8xf32>, %init: tensor<f32>) -> (tensor<8xf32>, tensor<f32>) {
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %c, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %b2: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %b2 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%c : tensor<8xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %y, %s : tensor<8xf32>, tensor<f32>
}
