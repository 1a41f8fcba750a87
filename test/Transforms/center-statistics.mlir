// memopt-center-statistics: Welford recurrences become two-pass statistics;
// a sum and a centred sum of squares of the same
// values over loops no reshape makes adjacent come from one pass over the
// input: per point of the largest reduced loop's partial, s_p, the centred
// q_p and e_p; then combined over the other reduced loops.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-center-statistics))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-center-statistics))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// NCHW batch-norm statistics over N and H*W (loops 0 and 2): H*W (3136)
// is reduced first into (N, C) partials, each from x alone or x and s_p.
// REMARK: remark: two-pass statistics over non-adjacent loops in one pass: sums and centred sums of squares per point of loop 2 (3136 elements), combined over the other reduced loops (Chan's formula)
// CHECK-LABEL: func.func @bn_stats
// CHECK-DAG:     %[[K:.+]] = arith.constant 3.136000e+03 : f32
// CHECK:         %[[SP:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[PM:.+]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X:.+]] : tensor<64x128x3136xf32>) outs(%{{.*}} : tensor<64x128xf32>)
// CHECK:         %[[QP:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[PM]], #[[PM]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[SP]] : tensor<64x128x3136xf32>, tensor<64x128xf32>)
// CHECK:           %[[C:.+]] = arith.divf %{{.*}}, %[[K]] : f32
// CHECK:           %[[D:.+]] = arith.subf %{{.*}}, %[[C]] : f32
// CHECK:           arith.mulf %[[D]], %[[D]] : f32
// CHECK:         %[[EP:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[PM]], #[[PM]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[SP]] : tensor<64x128x3136xf32>, tensor<64x128xf32>)
// CHECK-NOT:       arith.mulf
// CHECK:           linalg.yield
// The sum: s_p combined over N into the original output's fill.
// CHECK:         %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SP]] : tensor<64x128xf32>)
// CHECK:         %[[M:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<128xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[QP]], %[[EP]], %[[SP]], %[[M]] : tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>, tensor<128xf32>)
// CHECK-NEXT:    ^bb0(%[[Q:.+]]: f32, %[[E:.+]]: f32, %[[SPV:.+]]: f32, %[[MV:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[CP:.+]] = arith.divf %[[SPV]], %[[K]] : f32
// CHECK-NEXT:      %[[T:.+]] = arith.subf %[[CP]], %[[MV]] : f32
// CHECK-NEXT:      %[[E2:.+]] = arith.addf %[[E]], %[[E]] : f32
// CHECK-NEXT:      %[[KT:.+]] = arith.mulf %[[K]], %[[T]] : f32
// CHECK-NEXT:      %[[SUM:.+]] = arith.addf %[[E2]], %[[KT]] : f32
// CHECK-NEXT:      %[[W:.+]] = arith.mulf %[[T]], %[[SUM]] : f32
// CHECK-NEXT:      %[[TERM:.+]] = arith.addf %[[Q]], %[[W]] : f32
// CHECK-NEXT:      %[[R:.+]] = arith.addf %[[ACC]], %[[TERM]] : f32
// CHECK-NEXT:      linalg.yield %[[R]]
#x3 = affine_map<(n, c, s) -> (n, c, s)>
#ch = affine_map<(n, c, s) -> (c)>
#id = affine_map<(c) -> (c)>
func.func @bn_stats(%x: tensor<64x128x3136xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 4.98246169e-06 : f32
  %e = tensor.empty() : tensor<128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.generic {indexing_maps = [#x3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<64x128x3136xf32>) outs(%z : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%s : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %inv : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %q = linalg.generic {indexing_maps = [#x3, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %m : tensor<64x128x3136xf32>, tensor<128xf32>) outs(%z2 : tensor<128xf32>) {
  ^bb0(%a: f32, %mv: f32, %acc: f32):
    %d = arith.subf %a, %mv : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %d2 : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %m, %q : tensor<128xf32>, tensor<128xf32>
}

// -----

// f16 accumulation is left alone, with a remark (K is not exact in f16).
// REMARK: remark: centred sum of squares over non-adjacent loops read in a pass of its own: the accumulator is not f32 or f64
// CHECK-LABEL: func.func @f16_acc
// CHECK-COUNT-2: iterator_types = ["reduction", "parallel", "reduction"]
// CHECK-NOT:     linalg.generic
#x3 = affine_map<(n, c, s) -> (n, c, s)>
#ch = affine_map<(n, c, s) -> (c)>
func.func @f16_acc(%x: tensor<4x8x100xf16>, %m: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %s = linalg.generic {indexing_maps = [#x3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<4x8x100xf16>) outs(%z : tensor<8xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %r = arith.addf %acc, %a : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  %q = linalg.generic {indexing_maps = [#x3, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %m : tensor<4x8x100xf16>, tensor<8xf16>) outs(%z : tensor<8xf16>) {
  ^bb0(%a: f16, %mv: f16, %acc: f16):
    %d = arith.subf %a, %mv : f16
    %d2 = arith.mulf %d, %d : f16
    %r = arith.addf %acc, %d2 : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  return %s, %q : tensor<8xf16>, tensor<8xf16>
}

// -----

// A sum of other values (x * 2) than the square's: no match.
// REMARK: remark: centred sum of squares over non-adjacent loops read in a pass of its own: no sum of the same values over the same loops precedes it
// CHECK-LABEL: func.func @other_values
// CHECK-COUNT-2: iterator_types = ["reduction", "parallel", "reduction"]
// CHECK-NOT:     linalg.generic
#x3 = affine_map<(n, c, s) -> (n, c, s)>
#ch = affine_map<(n, c, s) -> (c)>
func.func @other_values(%x: tensor<4x8x100xf32>, %m: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#x3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<4x8x100xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.mulf %a, %two : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#x3, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %m : tensor<4x8x100xf32>, tensor<8xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %mv: f32, %acc: f32):
    %d = arith.subf %a, %mv : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %d2 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s, %q : tensor<8xf32>, tensor<8xf32>
}

// -----

// Welford's recurrence (count, mean, M2 from zero): its count is the
// reduced extent, its mean a sum over K, its M2 the centred sum of squares.
// REMARK: remark: Welford's recurrence over 31 elements computed as its count, the mean of a sum and a centred sum of squares
// CHECK-LABEL: func.func @welford
// CHECK-DAG:     %[[K:.+]] = arith.constant 3.100000e+01 : f32
// CHECK:         %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X:.+]] : tensor<100x31xf32>)
// CHECK:           arith.addf
// CHECK:         %[[M:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<100xf32>)
// CHECK:           arith.divf %{{.*}}, %[[K]] : f32
// CHECK:         %[[Q:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[M]] : tensor<100x31xf32>, tensor<100xf32>)
// CHECK:           %[[D:.+]] = arith.subf
// CHECK:           arith.mulf %[[D]], %[[D]] : f32
// CHECK:         %[[C:.+]] = linalg.generic {{.*}} ins(%[[K]] : f32)
// CHECK:         return %[[C]], %[[M]], %[[Q]]
#x = affine_map<(r, k) -> (r, k)>
#st = affine_map<(r, k) -> (r)>
func.func @welford(%x: tensor<100x31xf32>) -> (tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %w:3 = linalg.generic {indexing_maps = [#x, #st, #st, #st], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x31xf32>) outs(%z, %z, %z : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  ^bb0(%a: f32, %cnt: f32, %mean: f32, %m2: f32):
    %c1 = arith.addf %cnt, %one : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.divf %d, %c1 : f32
    %mn = arith.addf %mean, %q : f32
    %d2 = arith.subf %a, %mn : f32
    %p = arith.mulf %d, %d2 : f32
    %m2n = arith.addf %m2, %p : f32
    linalg.yield %c1, %mn, %m2n : f32, f32, f32
  } -> (tensor<100xf32>, tensor<100xf32>, tensor<100xf32>)
  return %w#0, %w#1, %w#2 : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>
}

// -----

// A recurrence merged into running statistics (the count starts at %n0):
// kept, with the reason.
// REMARK: remark: Welford's recurrence kept (a naive kernel): its outputs do not all start at zero with one map and type
// CHECK-LABEL: func.func @welford_running
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
#x = affine_map<(r, k) -> (r, k)>
#st = affine_map<(r, k) -> (r)>
func.func @welford_running(%x: tensor<100x31xf32>, %n0: tensor<100xf32>) -> (tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %w:3 = linalg.generic {indexing_maps = [#x, #st, #st, #st], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x31xf32>) outs(%n0, %z, %z : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>) {
  ^bb0(%a: f32, %cnt: f32, %mean: f32, %m2: f32):
    %c1 = arith.addf %cnt, %one : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.divf %d, %c1 : f32
    %mn = arith.addf %mean, %q : f32
    %d2 = arith.subf %a, %mn : f32
    %p = arith.mulf %d, %d2 : f32
    %m2n = arith.addf %m2, %p : f32
    linalg.yield %c1, %mn, %m2n : f32, f32, f32
  } -> (tensor<100xf32>, tensor<100xf32>, tensor<100xf32>)
  return %w#0, %w#1, %w#2 : tensor<100xf32>, tensor<100xf32>, tensor<100xf32>
}

// -----

// One sum, two centred sums (about a running mean, then about the sum's
// own mean): the one centred on the mean takes the sum; the other says why
// it reads x in a pass of its own.
// REMARK: remark: two-pass statistics over non-adjacent loops in one pass: sums and centred sums of squares per point of loop 2 (40 elements)
// REMARK: remark: centred sum of squares over non-adjacent loops read in a pass of its own: its sum is combined with another centred sum
// CHECK-LABEL: func.func @two_centres
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<6x5x40xf32>, tensor<5xf32>)
#x = affine_map<(n, c, h) -> (n, c, h)>
#ch = affine_map<(n, c, h) -> (c)>
#id = affine_map<(c) -> (c)>
func.func @two_centres(%x: tensor<6x5x40xf32>, %rm: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 4.16666666e-03 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#x, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<6x5x40xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sum : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  %sq = linalg.generic {indexing_maps = [#x, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %rm : tensor<6x5x40xf32>, tensor<5xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %m, %a : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %sq2 = linalg.generic {indexing_maps = [#x, #ch, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %mean : tensor<6x5x40xf32>, tensor<5xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %mean, %sq, %sq2 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}
