// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-approximate-math))" --split-input-file --verify-diagnostics | FileCheck %s

// memopt-approximate-math marks an f32 tanh afn when everything computed
// from it leaves the body rounded to 16 bits, and says why otherwise.

#id = affine_map<(d0) -> (d0)>
// bf16 GELU computed in f32: the tanh's result reaches only a truncf to bf16.
// Its arithmetic may contract into fused multiply-adds.
// CHECK-LABEL: func.func @gelu_bf16
// CHECK:         math.tanh %{{.+}} fastmath<afn> : f32
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:         arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
func.func @gelu_bf16(%x: tensor<64xbf16>) -> tensor<64xbf16> {
  %e = tensor.empty() : tensor<64xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xbf16>) outs(%e : tensor<64xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %v = arith.extf %a : bf16 to f32
    %c1 = arith.constant 1.0 : f32
    %th = math.tanh %v : f32
    %s = arith.addf %c1, %th : f32
    %r = arith.mulf %v, %s : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64xbf16>
  return %y : tensor<64xbf16>
}

// -----

#id = affine_map<(d0) -> (d0)>
// f16 output, but the tanh is also yielded in f32: left precise.
// CHECK-LABEL: func.func @also_f32
// CHECK:         math.tanh %{{.+}} : f32
// CHECK-NOT:     afn
// CHECK-NOT:     contract
func.func @also_f32(%x: tensor<64xf32>) -> (tensor<64xf16>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf16>
  %e2 = tensor.empty() : tensor<64xf32>
  %y:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e, %e2 : tensor<64xf16>, tensor<64xf32>) {
  ^bb0(%a: f32, %o: f16, %o2: f32):
    // expected-remark @below {{tanh computed to f32 accuracy: its result is yielded at 32-bit precision}}
    %th = math.tanh %a : f32
    %t = arith.truncf %th : f32 to f16
    linalg.yield %t, %th : f16, f32
  } -> (tensor<64xf16>, tensor<64xf32>)
  return %y#0, %y#1 : tensor<64xf16>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
// A comparison observes the f32 value (a 16-bit output does not hide it).
// CHECK-LABEL: func.func @compared
// CHECK:         math.tanh %{{.+}} : f32
// CHECK-NOT:     afn
func.func @compared(%x: tensor<64xf32>) -> tensor<64xbf16> {
  %e = tensor.empty() : tensor<64xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %h = arith.constant 0.5 : f32
    // expected-remark @below {{tanh computed to f32 accuracy: its result reaches arith.cmpf}}
    %th = math.tanh %a : f32
    %c = arith.cmpf ogt, %th, %h : f32
    %s = arith.select %c, %th, %h : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64xbf16>
  return %y : tensor<64xbf16>
}

// -----

#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
// Accumulated in f32 (a reduction's yield): left precise.
// CHECK-LABEL: func.func @accumulated
// CHECK:         math.tanh %{{.+}} : f32
// CHECK-NOT:     afn
func.func @accumulated(%x: tensor<64xbf16>, %init: tensor<f32>) -> tensor<f32> {
  %y = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%x : tensor<64xbf16>) outs(%init : tensor<f32>) {
  ^bb0(%a: bf16, %acc: f32):
    %v = arith.extf %a : bf16 to f32
    // expected-remark @below {{tanh computed to f32 accuracy: its result is yielded at 32-bit precision}}
    %th = math.tanh %v : f32
    %s = arith.addf %acc, %th : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %y : tensor<f32>
}

// -----

#id = affine_map<(d0) -> (d0)>
// The tanh derivative 1 - t^2 (tanh backward) cancels near t = +-1, where
// the approximation's 2^-22 would be several bf16 ulps: left precise, and
// so is 0.5 + 0.5 t. The GELU form 1 + t (tanh's only use) is fine.
// CHECK-LABEL: func.func @cancelling
// CHECK:         math.tanh %{{.+}} : f32
// CHECK-NOT:     afn
// CHECK:         math.tanh %{{.+}} : f32
// CHECK-NOT:     afn
// CHECK:         return
func.func @cancelling(%x: tensor<64xbf16>) -> (tensor<64xbf16>, tensor<64xbf16>) {
  %e = tensor.empty() : tensor<64xbf16>
  %y:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xbf16>) outs(%e, %e : tensor<64xbf16>, tensor<64xbf16>) {
  ^bb0(%a: bf16, %o: bf16, %o2: bf16):
    %v = arith.extf %a : bf16 to f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    // expected-remark @below {{tanh computed to f32 accuracy: its result reaches arith.subf, where the approximation's error may not stay relative}}
    %t = math.tanh %v : f32
    %t2 = arith.mulf %t, %t : f32
    %d = arith.subf %one, %t2 : f32
    // expected-remark @below {{tanh computed to f32 accuracy: its result reaches arith.addf, where the approximation's error may not stay relative}}
    %u = math.tanh %v : f32
    %h = arith.mulf %half, %u : f32
    %s = arith.addf %half, %h : f32
    %r1 = arith.truncf %d : f32 to bf16
    %r2 = arith.truncf %s : f32 to bf16
    linalg.yield %r1, %r2 : bf16, bf16
  } -> (tensor<64xbf16>, tensor<64xbf16>)
  return %y#0, %y#1 : tensor<64xbf16>, tensor<64xbf16>
}

// -----

// Log-sum-exp as torch-mlir writes it: exp(x - max x) inside the sum's body,
// the maximum from -inf over the same points. Its results below 2^-126 may
// flush to zero (the sum holds exp(0) = 1): afn. The log after it is not
// touched.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @lse_in_sum
// CHECK:         math.exp %{{.+}} fastmath<afn> : f32
// CHECK:         math.log %{{.+}} : f32
func.func @lse_in_sum(%x: tensor<8x64xbf16>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xbf16>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %v = arith.maximumf %w, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<8x64xbf16>, tensor<8xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %x2 = math.exp %d : f32
    %v = arith.addf %x2, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %v = arith.addf %l, %m : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// The exp in a generic of its own (scaled values, the maximum from the
// lowest float as tosa writes it), its result read only by the plain sum.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @exp_then_sum
// CHECK:         math.exp %{{.+}} fastmath<afn> : f32
func.func @exp_then_sum(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %f0 = linalg.fill ins(%low : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %w = arith.mulf %a, %c : f32
    %v = arith.maxnumf %o, %w : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %w = arith.mulf %a, %c : f32
    %d = arith.subf %w, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<8x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x64xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %sm : tensor<8xf32>
}

// -----

// Softmax: the exp values are also divided by their sum (an output that
// may be below 2^-126 itself): left alone, and said so.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax_exp
// CHECK:         math.exp %{{.+}} : f32
// CHECK-NOT:     afn
func.func @softmax_exp(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mx : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    // expected-remark @below {{exp(v - max) keeps results below 2^-126: its values are read by several ops}}
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<8x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x64xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %v = arith.divf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// Not the maximum of the exp's own values (the maximum is over %y, the exp
// of %x - max y): nothing bounds the exp, no afn and no remark. Nor a
// maximum from 0 (it may exceed every value, so no term is exactly 1), nor
// a sum that starts below 0 (which may cancel the terms).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @not_bounded
// CHECK-COUNT-3: math.exp %{{.+}} : f32
// CHECK-NOT:     afn
func.func @not_bounded(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %neg = arith.constant -1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %fn = linalg.fill ins(%neg : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %my = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x64xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %s0 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %my : tensor<8x64xf32>, tensor<8xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %x2 = math.exp %d : f32
    %v = arith.addf %x2, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %mz = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mz : tensor<8x64xf32>, tensor<8xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %x2 = math.exp %d : f32
    %v = arith.addf %x2, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %s2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<8x64xf32>, tensor<8xf32>) outs(%fn : tensor<8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    // expected-remark @below {{exp(v - max) keeps results below 2^-126: its sum does not start from a constant >= 0}}
    %x2 = math.exp %d : f32
    %v = arith.addf %x2, %o : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %s0, %s1, %s2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
