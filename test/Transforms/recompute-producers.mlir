// memopt-recompute-producers: cheap elementwise producers of reductions
// with a parallel loop inside the reduced one are recomputed inside them.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-recompute-producers))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-recompute-producers))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Softmax over dim 0: the column sum of exp(x - max[j]) reads x and the
// maxima instead of the exponentials; the producer stays for its other
// user.
// REMARK: remark: input 0 recomputed in this reduction from its producer's inputs (fewer bytes than writing and reading it)
// CHECK-LABEL: func.func @column_sum_of_exp
// CHECK-SAME:    (%[[X:.+]]: tensor<64x32xf32>, %[[M:.+]]: tensor<32xf32>, %[[I:.+]]: tensor<32xf32>)
// CHECK:         %[[S:.+]] = linalg.generic {indexing_maps = [#[[ID:.+]], #[[COL:.+]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%[[X]], %[[M]] : tensor<64x32xf32>, tensor<32xf32>) outs(%[[I]] : tensor<32xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[D:.+]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[EX:.+]] = math.exp %[[D]] : f32
// CHECK-NEXT:      %[[R:.+]] = arith.addf %[[EX]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// The producer moves down to its first remaining user (kernel formation
// fuses it into that user's kernel when it is an elementwise op).
// CHECK:         %[[E:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<64x32xf32>, tensor<32xf32>) outs(%{{.+}} : tensor<64x32xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.subf
// CHECK-NEXT:      math.exp
// CHECK:         return %[[E]], %[[S]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @column_sum_of_exp(%x: tensor<64x32xf32>, %m: tensor<32xf32>, %init: tensor<32xf32>) -> (tensor<64x32xf32>, tensor<32xf32>) {
  %e0 = tensor.empty() : tensor<64x32xf32>
  %e = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<64x32xf32>, tensor<32xf32>) outs(%e0 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%e : tensor<64x32xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  return %e, %s : tensor<64x32xf32>, tensor<32xf32>
}

// -----

// A producer with no other user goes; a second level (the producer's own
// producer) is recomputed too, in a 3-D middle-dim reduction.
// REMARK-COUNT-2: recomputed in this reduction
// CHECK-LABEL: func.func @two_levels
// CHECK-NOT:     iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.+}} : tensor<3x50x8xf16>)
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @two_levels(%x: tensor<3x50x8xf16>, %init: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %e0 = tensor.empty() : tensor<3x50x8xf32>
  %w = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x50x8xf16>) outs(%e0 : tensor<3x50x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %v = arith.extf %a : f16 to f32
    linalg.yield %v : f32
  } -> tensor<3x50x8xf32>
  %q = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<3x50x8xf32>) outs(%e0 : tensor<3x50x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<3x50x8xf32>
  %s = linalg.generic {indexing_maps = [#id3, #o3], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%q : tensor<3x50x8xf32>) outs(%init : tensor<3x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3x8xf32>
  return %s : tensor<3x8xf32>
}

// -----

// Two full-size inputs (x + y) read more than the sum it feeds, and a row
// sum reads it too: materialized, with the reason. A row reduction is left
// to kernel formation (no remark).
// REMARK: remark: input 0 materialized, not recomputed in this reduction: it reads more full-size data than it writes and has other users
// REMARK-NOT: remark
// CHECK-LABEL: func.func @two_full_inputs
// CHECK:         %[[P:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[P]] :
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_full_inputs(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>, %init: tensor<32xf32>, %init2: tensor<64xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %e0 = tensor.empty() : tensor<64x32xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e0 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%p : tensor<64x32xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %t = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<64x32xf32>) outs(%init2 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s, %t : tensor<32xf32>, tensor<64xf32>
}

// -----

// dgamma's column sum of dy * (x - mean) * rstd: two full-size inputs, but
// the sum is the product's only user, so it goes.
// REMARK: remark: input 0 recomputed in this reduction
// CHECK-LABEL: func.func @dgamma
// CHECK-NOT:     iterator_types = ["parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64xf32>, tensor<64xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dgamma(%dy: tensor<64x32xbf16>, %x: tensor<64x32xbf16>, %mean: tensor<64xf32>, %rstd: tensor<64xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %e0 = tensor.empty() : tensor<64x32xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %x, %mean, %rstd : tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64xf32>, tensor<64xf32>) outs(%e0 : tensor<64x32xf32>) {
  ^bb0(%g: bf16, %a: bf16, %m: f32, %r: f32, %o: f32):
    %gf = arith.extf %g : bf16 to f32
    %af = arith.extf %a : bf16 to f32
    %d = arith.subf %af, %m : f32
    %xh = arith.mulf %d, %r : f32
    %v = arith.mulf %gf, %xh : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%p : tensor<64x32xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----

// A broadcast producer (Gemma's 1 + w over the hidden dim) of a row op:
// recomputed in it, so no kernel and buffer of its own.
// REMARK: remark: input 2 recomputed in this op from its broadcast producer's inputs (no kernel and buffer of its own)
// CHECK-LABEL: func.func @broadcast_one_plus_w
// CHECK-SAME:    (%[[X:.+]]: tensor<8x64xf32>, %[[S:.+]]: tensor<8xf32>, %[[W:.+]]: tensor<64xbf16>)
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[S]], %[[W]] : tensor<8x64xf32>, tensor<8xf32>, tensor<64xbf16>)
// CHECK:           arith.extf
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @broadcast_one_plus_w(%x: tensor<8x64xf32>, %s: tensor<8xf32>, %w: tensor<64xbf16>) -> tensor<8x64xf32> {
  %e1 = tensor.empty() : tensor<64xf32>
  %w1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%w : tensor<64xbf16>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %one = arith.constant 1.0 : f32
    %r = arith.addf %f, %one : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s, %w1 : tensor<8x64xf32>, tensor<8xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %g: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// A broadcast producer computing a transcendental stays a kernel of its
// own (it would be repeated at every point of the consumer).
// REMARK: remark: input 1 materialized, not recomputed in this op: its body computes more than arithmetic (repeated at every point of the consumer)
// CHECK-LABEL: func.func @broadcast_exp
// CHECK:         math.exp
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<8x64xf32>, tensor<64xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @broadcast_exp(%x: tensor<8x64xf32>, %w: tensor<64xf32>) -> tensor<8x64xf32> {
  %e1 = tensor.empty() : tensor<64xf32>
  %w1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%w : tensor<64xf32>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %w1 : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %g: f32, %o: f32):
    %u = arith.mulf %a, %g : f32
    linalg.yield %u : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
