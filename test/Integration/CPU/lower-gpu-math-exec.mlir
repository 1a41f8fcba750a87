// Execution check of memopt-lower-gpu-math on the host (its intrinsics are
// ordinary LLVM intrinsics): softmax's last step divides each element of a
// row by the row's sum, in a loop; the pass turns it into one reciprocal
// and a multiplication per element. Prints a / 7 for a = 0..10, 21 / 7,
// exp(a - 2) / 8.1 and 1 / 8.1 (each within 4e-6 of the exact value at the
// 6 digits printed), then pairs of quotients by divisors outside
// [2^-126, 2^126] (1e-40, -3e-45: 2^64 scaling; 1e38: 2^-64), by 0, by inf
// and by 3, each next to the f64 quotient rounded to f32 (0 / 0 and
// inf / inf print -nan on the host).
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-lower-gpu-math))" | FileCheck %s --check-prefix=IR
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-lower-gpu-math))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

// IR-LABEL: func.func @normalize
// IR-NOT:     arith.divf
// IR:         %[[SM:.+]] = arith.mulf %arg1, %{{.+}} : f32
// IR:         arith.divf %{{.+}}, %[[SM]]
// IR-NEXT:    scf.for
// IR-NOT:     arith.divf
// IR:         return

// CHECK:      0
// CHECK-NEXT: 0.142857
// CHECK-NEXT: 0.285714
// CHECK-NEXT: 0.428571
// CHECK-NEXT: 0.571429
// CHECK-NEXT: 0.714286
// CHECK-NEXT: 0.857143
// CHECK-NEXT: 1
// CHECK-NEXT: 1.14286
// CHECK-NEXT: 1.28571
// CHECK-NEXT: 1.42857
// CHECK-NEXT: 3
// CHECK-NEXT: 0.0167081
// CHECK-NEXT: 0.0454172
// CHECK-NEXT: 0.123457
// CHECK-NEXT: 0.33559
// CHECK-NEXT: 0.912229
// CHECK-NEXT: 2.4797
// CHECK-NEXT: 6.74051
// CHECK-NEXT: 18.3226
// CHECK-NEXT: 49.806
// CHECK-NEXT: 135.387
// CHECK-NEXT: 368.019
// CHECK-NEXT: 0.123457
// CHECK-NEXT: 10.0001
// CHECK-NEXT: 10.0001
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: -5.5
// CHECK-NEXT: -5.5
// CHECK-NEXT: -inf
// CHECK-NEXT: -inf
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: 9.80909e-45
// CHECK-NEXT: 9.80909e-45
// CHECK-NEXT: inf
// CHECK-NEXT: inf
// CHECK-NEXT: -nan
// CHECK-NEXT: -nan
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: -nan
// CHECK-NEXT: -nan
// CHECK-NEXT: 0.333333
// CHECK-NEXT: 0.333333
// CHECK-NEXT: 1e{{[+]}}38
// CHECK-NEXT: 1e{{[+]}}38

func.func @normalize(%m: memref<11xf32>, %s: f32, %t: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  scf.for %i = %c0 to %c11 step %c1 {
    %v = memref.load %m[%i] : memref<11xf32>
    %q = arith.divf %v, %s : f32
    memref.store %q, %m[%i] : memref<11xf32>
  }
  %r = arith.divf %t, %s : f32
  return %r : f32
}

func.func @exps(%m: memref<11xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c11 step %c1 {
    %v = memref.load %m[%i] : memref<11xf32>
    %d = arith.subf %v, %two : f32
    %e = math.exp %d : f32
    memref.store %e, %m[%i] : memref<11xf32>
  }
  return
}

func.func @show(%m: memref<11xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  scf.for %i = %c0 to %c11 step %c1 {
    %v = memref.load %m[%i] : memref<11xf32>
    vector.print %v : f32
  }
  return
}

// a1 / b and a2 / b (sharing b: rewritten), each printed next to the same
// quotient taken in f64 and rounded to f32 (not rewritten).
func.func @pair(%a1: f32, %a2: f32, %b: f32) {
  %q1 = arith.divf %a1, %b : f32
  %q2 = arith.divf %a2, %b : f32
  %a1d = arith.extf %a1 : f32 to f64
  %a2d = arith.extf %a2 : f32 to f64
  %bd = arith.extf %b : f32 to f64
  %r1d = arith.divf %a1d, %bd : f64
  %r2d = arith.divf %a2d, %bd : f64
  %r1 = arith.truncf %r1d : f64 to f32
  %r2 = arith.truncf %r2d : f64 to f32
  vector.print %q1 : f32
  vector.print %r1 : f32
  vector.print %q2 : f32
  vector.print %r2 : f32
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %m = memref.alloc() : memref<11xf32>
  scf.for %i = %c0 to %c11 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<11xf32>
  }
  %seven = arith.constant 7.0 : f32
  %twentyone = arith.constant 21.0 : f32
  %r = func.call @normalize(%m, %seven, %twentyone) : (memref<11xf32>, f32, f32) -> f32
  func.call @show(%m) : (memref<11xf32>) -> ()
  vector.print %r : f32
  // exp(i - 2) for i = 0..10, then divided by 0.1 * 81 = 8.1 of 1.
  scf.for %i = %c0 to %c11 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<11xf32>
  }
  func.call @exps(%m) : (memref<11xf32>) -> ()
  %one = arith.constant 1.0 : f32
  %s81 = arith.constant 8.1 : f32
  %q = func.call @normalize(%m, %s81, %one) : (memref<11xf32>, f32, f32) -> f32
  func.call @show(%m) : (memref<11xf32>) -> ()
  vector.print %q : f32
  // Divisors outside [2^-126, 2^126] (scaled by 2^64 or 2^-64 around their
  // reciprocal), 0, inf and an ordinary one.
  %tinyb = arith.constant 1.0e-40 : f32
  %tinya = arith.constant 1.0e-39 : f32
  %zero = arith.constant 0.0 : f32
  func.call @pair(%tinya, %zero, %tinyb) : (f32, f32, f32) -> ()
  %tinyn = arith.constant -3.0e-45 : f32
  %tinyna = arith.constant 1.5e-44 : f32
  func.call @pair(%tinyna, %one, %tinyn) : (f32, f32, f32) -> ()
  %hugeb = arith.constant 1.0e38 : f32
  %hugea = arith.constant 3.0e38 : f32
  %small = arith.constant 1.0e-6 : f32
  func.call @pair(%hugea, %small, %hugeb) : (f32, f32, f32) -> ()
  %inf = arith.constant 0x7F800000 : f32
  func.call @pair(%one, %zero, %zero) : (f32, f32, f32) -> ()
  func.call @pair(%one, %inf, %inf) : (f32, f32, f32) -> ()
  %three = arith.constant 3.0 : f32
  func.call @pair(%one, %hugea, %three) : (f32, f32, f32) -> ()
  memref.dealloc %m : memref<11xf32>
  return
}
