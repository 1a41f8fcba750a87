// Execution check of memopt-lower-gpu-math's f64 exp, log, exp2, log2,
// tanh and log1p on the host
// (their lowerings are f64 arithmetic and LLVM intrinsics), against the
// host's libm called by name (not a math op, so the pass leaves it): the
// largest distance in units in the last place over
//   exp: 400000 points evenly over [-745.2, 709.9] and 400000 bit patterns
//        of |x| below 1, both signs (where the polynomial alone decides);
//   log: 400000 bit patterns evenly over every positive finite double
//        (subnormals included) and 400000 points within 2^-12 of 1 (where
//        log cancels);
// the same for exp2 (over [-1075.5, 1024.5]) and log2; tanh over [-20,
// 20] and of |x| < 1, log1p over [-0.9999, 3] and of 0 < x < 1 (at most
// 2 ulps there); then the special values. A lowering off by more than 1 ulp anywhere
// sampled fails: planted on the lowered IR, exp without the low half of
// ln2 is off by 214 ulps, exp's Taylor polynomial a term short by 2, log
// with its last coefficient rounded to 4 digits by 5, tanh with its x^5
// coefficient rounded to 10 digits by 30029.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-lower-gpu-math))" | FileCheck %s --check-prefix=IR
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-lower-gpu-math))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// IR-LABEL: func.func @mine_exp
// IR-NOT:     math.exp
// IR:         "llvm.fma.f64"
// IR-LABEL: func.func @mine_log
// IR-NOT:     math.log
// IR:         arith.divf

// exp over [-745.2, 709.9], exp of |x| < 1, log of all positives, log near
// 1, then the same of exp2 ([-1075.5, 1024.5]) and log2:
// CHECK:      {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// CHECK-NEXT: {{^[01]$}}
// tanh over [-20, 20], tanh of |x| < 1, log1p over [-0.9999, 3], log1p of
// 0 < x < 1 (within 2 ulps):
// CHECK-NEXT: {{^[0-2]$}}
// CHECK-NEXT: {{^[0-2]$}}
// CHECK-NEXT: {{^[0-2]$}}
// CHECK-NEXT: {{^[0-2]$}}
// exp(nan), exp(inf), exp(-inf), exp(710), exp(-746), exp(0), exp(-745):
// CHECK-NEXT: {{-?nan}}
// CHECK-NEXT: inf
// CHECK-NEXT: 0
// CHECK-NEXT: inf
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 4.94066e-324
// log(0), log(-1), log(inf), log(nan), log(1), log(5e-324):
// CHECK-NEXT: -inf
// CHECK-NEXT: {{-?nan}}
// CHECK-NEXT: inf
// CHECK-NEXT: {{-?nan}}
// CHECK-NEXT: 0
// CHECK-NEXT: -744.44
// exp2(1024), exp2(-1074), exp2(-inf), log2(8), log2(5e-324), log2(0):
// CHECK-NEXT: inf
// CHECK-NEXT: 4.94066e-324
// CHECK-NEXT: 0
// CHECK-NEXT: 3
// CHECK-NEXT: -1074
// CHECK-NEXT: -inf

func.func private @exp(f64) -> f64
func.func private @log(f64) -> f64
func.func private @exp2(f64) -> f64
func.func private @log2(f64) -> f64
func.func private @tanh(f64) -> f64
func.func private @log1p(f64) -> f64

func.func @mine_exp(%x: f64) -> f64 {
  %r = math.exp %x : f64
  return %r : f64
}

func.func @mine_log(%x: f64) -> f64 {
  %r = math.log %x : f64
  return %r : f64
}

func.func @mine_exp2(%x: f64) -> f64 {
  %r = math.exp2 %x : f64
  return %r : f64
}

func.func @mine_log2(%x: f64) -> f64 {
  %r = math.log2 %x : f64
  return %r : f64
}

func.func @mine_tanh(%x: f64) -> f64 {
  %r = math.tanh %x : f64
  return %r : f64
}

func.func @mine_log1p(%x: f64) -> f64 {
  %r = math.log1p %x : f64
  return %r : f64
}

// Units in the last place between two finite doubles of one sign (0 when
// both are the same infinity or both NaN).
func.func @ulps(%a: f64, %b: f64) -> i64 {
  %ai = arith.bitcast %a : f64 to i64
  %bi = arith.bitcast %b : f64 to i64
  %d = arith.subi %ai, %bi : i64
  %n = arith.subi %bi, %ai : i64
  %abs = arith.maxsi %d, %n : i64
  %na = arith.cmpf uno, %a, %a : f64
  %nb = arith.cmpf uno, %b, %b : f64
  %both = arith.andi %na, %nb : i1
  %zero = arith.constant 0 : i64
  %r = arith.select %both, %zero, %abs : i64
  return %r : i64
}

// The largest ulps of `which` (0: exp, 1: log) over points x_i, i < n:
// mode 0: lo + i * step; mode 1: bitcast(i * step_bits) with the sign
// alternating (exp) or not (log); mode 2: 1 + (i - n/2) * step.
func.func @sweep(%which: i32, %mode: i32, %lo: f64, %step: f64, %stepBits: i64, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1.0 : f64
  %m0 = arith.constant 0 : i32
  %m1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> i64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %isM0 = arith.cmpi eq, %mode, %m0 : i32
    %isM1 = arith.cmpi eq, %mode, %m1 : i32
    %x0 = math.fma %fi, %step, %lo : f64
    %b1 = arith.muli %ii, %stepBits : i64
    %x1p = arith.bitcast %b1 : i64 to f64
    %two = arith.constant 2 : i64
    %odd = arith.remui %ii, %two : i64
    %isOdd = arith.cmpi ne, %odd, %zero : i64
    %w2 = arith.constant 2 : i32
    %wpar = arith.remui %which, %w2 : i32
    %isExp = arith.cmpi eq, %wpar, %m0 : i32
    %flip = arith.andi %isOdd, %isExp : i1
    %x1n = arith.negf %x1p : f64
    %x1 = arith.select %flip, %x1n, %x1p : f64
    %nn = arith.index_cast %n : index to i64
    %h = arith.divsi %nn, %two : i64
    %c = arith.subi %ii, %h : i64
    %cf = arith.sitofp %c : i64 to f64
    %x2 = math.fma %cf, %step, %one : f64
    %xa = arith.select %isM1, %x1, %x2 : f64
    %x = arith.select %isM0, %x0, %xa : f64
    %wi = arith.index_cast %which : i32 to index
    %u = scf.index_switch %wi -> i64
    case 0 {
      %a = func.call @mine_exp(%x) : (f64) -> f64
      %b = func.call @exp(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    case 1 {
      %a = func.call @mine_log(%x) : (f64) -> f64
      %b = func.call @log(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    case 2 {
      %a = func.call @mine_exp2(%x) : (f64) -> f64
      %b = func.call @exp2(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    case 3 {
      %a = func.call @mine_log2(%x) : (f64) -> f64
      %b = func.call @log2(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    case 4 {
      %a = func.call @mine_tanh(%x) : (f64) -> f64
      %b = func.call @tanh(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    default {
      %a = func.call @mine_log1p(%x) : (f64) -> f64
      %b = func.call @log1p(%x) : (f64) -> f64
      %d = func.call @ulps(%a, %b) : (f64, f64) -> i64
      scf.yield %d : i64
    }
    %w = arith.maxsi %worst, %u : i64
    scf.yield %w : i64
  }
  return %r : i64
}

func.func @main() {
  %n = arith.constant 400000 : index
  %e = arith.constant 0 : i32
  %l = arith.constant 1 : i32
  %m0 = arith.constant 0 : i32
  %m1 = arith.constant 1 : i32
  %m2 = arith.constant 2 : i32
  %z = arith.constant 0.0 : f64
  %zb = arith.constant 0 : i64
  // (709.9 + 745.2) / 400000
  %lo = arith.constant -745.2 : f64
  %st = arith.constant 0.00363775 : f64
  %w0 = func.call @sweep(%e, %m0, %lo, %st, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w0 : i64
  // bits(1.0) / 400000
  %sb1 = arith.constant 11509240769042 : i64
  %w1 = func.call @sweep(%e, %m1, %z, %z, %sb1, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w1 : i64
  // bits(DBL_MAX) / 400000
  %sb2 = arith.constant 23040227614627 : i64
  %w2 = func.call @sweep(%l, %m1, %z, %z, %sb2, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w2 : i64
  // 2^-12 / 200000 per step around 1
  %st3 = arith.constant 1.220703125e-09 : f64
  %w3 = func.call @sweep(%l, %m2, %z, %st3, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w3 : i64
  // exp2 over [-1075.5, 1024.5], exp2 of |x| < 1, log2 of all positives,
  // log2 near 1.
  %x2 = arith.constant 2 : i32
  %y2 = arith.constant 3 : i32
  %lo2 = arith.constant -1075.5 : f64
  %st2 = arith.constant 0.00525 : f64
  %w4 = func.call @sweep(%x2, %m0, %lo2, %st2, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w4 : i64
  %w5 = func.call @sweep(%x2, %m1, %z, %z, %sb1, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w5 : i64
  %w6 = func.call @sweep(%y2, %m1, %z, %z, %sb2, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w6 : i64
  %w7 = func.call @sweep(%y2, %m2, %z, %st3, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w7 : i64
  // tanh over [-20, 20] and of |x| < 1 (both signs); log1p over
  // [-0.9999, 3] and of 0 < x < 1 (bit patterns).
  %t4 = arith.constant 4 : i32
  %t5 = arith.constant 5 : i32
  %lot = arith.constant -20.0 : f64
  %stt = arith.constant 0.0001 : f64
  %w8 = func.call @sweep(%t4, %m0, %lot, %stt, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w8 : i64
  %w9 = func.call @sweep(%t4, %m1, %z, %z, %sb1, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w9 : i64
  %lol = arith.constant -0.9999 : f64
  %stl = arith.constant 0.00000999975 : f64
  %w10 = func.call @sweep(%t5, %m0, %lol, %stl, %zb, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w10 : i64
  %w11 = func.call @sweep(%t5, %m1, %z, %z, %sb1, %n) : (i32, i32, f64, f64, i64, index) -> i64
  vector.print %w11 : i64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %c710 = arith.constant 710.0 : f64
  %cm746 = arith.constant -746.0 : f64
  %cm745 = arith.constant -745.0 : f64
  %one = arith.constant 1.0 : f64
  %mone = arith.constant -1.0 : f64
  %tiny = arith.constant 4.9406564584124654e-324 : f64
  %e1 = func.call @mine_exp(%nan) : (f64) -> f64
  vector.print %e1 : f64
  %e2 = func.call @mine_exp(%inf) : (f64) -> f64
  vector.print %e2 : f64
  %e3 = func.call @mine_exp(%ninf) : (f64) -> f64
  vector.print %e3 : f64
  %e4 = func.call @mine_exp(%c710) : (f64) -> f64
  vector.print %e4 : f64
  %e5 = func.call @mine_exp(%cm746) : (f64) -> f64
  vector.print %e5 : f64
  %e6 = func.call @mine_exp(%z) : (f64) -> f64
  vector.print %e6 : f64
  %e7 = func.call @mine_exp(%cm745) : (f64) -> f64
  vector.print %e7 : f64
  %l1 = func.call @mine_log(%z) : (f64) -> f64
  vector.print %l1 : f64
  %l2 = func.call @mine_log(%mone) : (f64) -> f64
  vector.print %l2 : f64
  %l3 = func.call @mine_log(%inf) : (f64) -> f64
  vector.print %l3 : f64
  %l4 = func.call @mine_log(%nan) : (f64) -> f64
  vector.print %l4 : f64
  %l5 = func.call @mine_log(%one) : (f64) -> f64
  vector.print %l5 : f64
  %l6 = func.call @mine_log(%tiny) : (f64) -> f64
  vector.print %l6 : f64
  %c1024 = arith.constant 1024.0 : f64
  %cm1074 = arith.constant -1074.0 : f64
  %c8 = arith.constant 8.0 : f64
  %x1 = func.call @mine_exp2(%c1024) : (f64) -> f64
  vector.print %x1 : f64
  %x2v = func.call @mine_exp2(%cm1074) : (f64) -> f64
  vector.print %x2v : f64
  %x3 = func.call @mine_exp2(%ninf) : (f64) -> f64
  vector.print %x3 : f64
  %y1 = func.call @mine_log2(%c8) : (f64) -> f64
  vector.print %y1 : f64
  %y2v = func.call @mine_log2(%tiny) : (f64) -> f64
  vector.print %y2v : f64
  %y3 = func.call @mine_log2(%z) : (f64) -> f64
  vector.print %y3 : f64
  return
}
