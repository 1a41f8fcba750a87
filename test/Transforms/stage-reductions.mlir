// memopt-stage-reductions: reductions over loops no reshape makes adjacent
// become a chain of one-loop reductions.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-stage-reductions))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-stage-reductions))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// NCHW batch-norm sums over N, H*W (loops 0 and 2): H*W (3136) is staged
// first into an (N, C) partial seeded with 0, then N is reduced into the
// original output (a column reduction of the partial).
// REMARK: remark: reduction over non-adjacent loops staged: loop 2 (extent 3136) first, into a partial of 8192 values, then the other reduced loops
// CHECK-LABEL: func.func @nchw_sum
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<64x128xf32>
// CHECK:         %[[Z:.+]] = linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%[[E]] : tensor<64x128xf32>)
// CHECK:         %[[P:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[PM:.+]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<64x128x3136xf32>) outs(%[[Z]] : tensor<64x128xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// The last stage's fill is a copy of the original's, just before it (the
// column reduction seeds its result with it).
// CHECK:         %[[F:.+]] = linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%{{.*}} : tensor<128xf32>)
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["reduction", "parallel"]} ins(%[[P]] : tensor<64x128xf32>) outs(%[[F]] : tensor<128xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[S]]
#x3 = affine_map<(n, c, s) -> (n, c, s)>
#ch = affine_map<(n, c, s) -> (c)>
func.func @nchw_sum(%x: tensor<64x128x3136xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(c) -> ()>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%e : tensor<128xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<128xf32>
  %s = linalg.generic {indexing_maps = [#x3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<64x128x3136xf32>) outs(%z : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %s : tensor<128xf32>
}

// -----

// The outer reduced loop is the longer one (100000 rows of 3 x 4, loops 0
// and 2 reduced): it goes first, as a reduction with parallel loops inside
// it, into a (3, 4) partial; then loop 1 of that (a row reduction). A max
// keeps its combiner and identity.
// REMARK: remark: reduction over non-adjacent loops staged: loop 0 (extent 100000) first, into a partial of 12 values
// CHECK-LABEL: func.func @outer_first_max
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         %[[P:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<100000x3x4xf32>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<3x4xf32>) outs(%{{.*}} : tensor<3xf32>)
// CHECK:           arith.maximumf
#x3 = affine_map<(r, c, a) -> (r, c, a)>
#o = affine_map<(r, c, a) -> (c)>
func.func @outer_first_max(%x: tensor<100000x3x4xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %s = linalg.generic {indexing_maps = [#x3, #o], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<100000x3x4xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// Three reduced loops, none adjacent: staged twice (loop 4, then loop 2,
// then loop 0 is the only one left).
// REMARK: remark: reduction over non-adjacent loops staged: loop 4 (extent 50) first, into a partial of 144 values
// REMARK: remark: reduction over non-adjacent loops staged: loop 2 (extent 6) first, into a partial of 24 values
// CHECK-LABEL: func.func @three_loops
// CHECK-COUNT-3: iterator_types = [{{[^]]*}}"reduction"
// CHECK-NOT:     iterator_types = [{{[^]]*}}"reduction"{{[^]]*}}"reduction"
#x5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
#o5 = affine_map<(a, b, c, d, e) -> (b, d)>
func.func @three_loops(%x: tensor<4x2x6x3x50xf32>, %init: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = linalg.generic {indexing_maps = [#x5, #o5], iterator_types = ["reduction", "parallel", "reduction", "parallel", "reduction"]}
      ins(%x : tensor<4x2x6x3x50xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// subf is not an associative combiner: left as it is, with the reason.
// REMARK: remark: reduction over non-adjacent loops not staged: reduction combiner is not an associative arith op
// CHECK-LABEL: func.func @not_associative
// CHECK:         iterator_types = ["reduction", "parallel", "reduction"]
#x3 = affine_map<(n, c, s) -> (n, c, s)>
#ch = affine_map<(n, c, s) -> (c)>
func.func @not_associative(%x: tensor<4x5x6xf32>, %init: tensor<5xf32>) -> tensor<5xf32> {
  %s = linalg.generic {indexing_maps = [#x3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<4x5x6xf32>) outs(%init : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.subf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}
