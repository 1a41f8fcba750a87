// Exhaustive accuracy of memopt-lower-gpu-math's tanh in its precise form
// (the afn form's rcp.approx only runs on the GPU: bench/accuracy.py), on
// the host: for every bf16 and every f16 value x, tanh computed in f32 and
// rounded to the 16-bit type must lie within one ulp of tanh(x) in f64
// (libm), NaN giving NaN. Prints the number of results that do not.
// The control runs upstream's tanh expansion (1 - e) / (1 + e) everywhere,
// with libm's exp: it returns 0 for tiny |x|, so it must report failures.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-lower-gpu-math))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(math-expand-ops{ops=tanh}))" | memopt-opt --memopt-host-lowering-stage | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=CONTROL

// CHECK:      bf16 not faithful: 0
// CHECK:      f16 not faithful: 0
// CONTROL:    bf16 not faithful: {{[1-9][0-9]*}}

func.func private @tanh(f64) -> f64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %mask = arith.constant 32767 : i16
  %one16 = arith.constant 1 : i16
  %zero16 = arith.constant 0 : i16

  %bad_bf16 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i64 {
    %i32 = arith.index_cast %i : index to i32
    %i16 = arith.trunci %i32 : i32 to i16
    %xh = arith.bitcast %i16 : i16 to bf16
    %x = arith.extf %xh : bf16 to f32
    %t = math.tanh %x : f32
    %th = arith.truncf %t : f32 to bf16
    %g = arith.extf %th : bf16 to f64
    %xd = arith.extf %x : f32 to f64
    %e = func.call @tanh(%xd) : (f64) -> f64
    // The spacing of bf16 at the exact value: the smaller of the gaps on
    // either side of its rounding r (the smallest subnormal at 0).
    %r = arith.truncf %e : f64 to bf16
    %rb = arith.bitcast %r : bf16 to i16
    %mag = arith.andi %rb, %mask : i16
    %up = arith.addi %mag, %one16 : i16
    %dn0 = arith.subi %mag, %one16 : i16
    %iszero = arith.cmpi eq, %mag, %zero16 : i16
    %dn = arith.select %iszero, %one16, %dn0 : i16
    %vm = arith.bitcast %mag : i16 to bf16
    %vu = arith.bitcast %up : i16 to bf16
    %vd = arith.bitcast %dn : i16 to bf16
    %fm = arith.extf %vm : bf16 to f64
    %fu = arith.extf %vu : bf16 to f64
    %fd = arith.extf %vd : bf16 to f64
    %gu = arith.subf %fu, %fm : f64
    %gd0 = arith.subf %fm, %fd : f64
    %gdn = arith.negf %gd0 : f64
    %gd1 = arith.maximumf %gd0, %gdn : f64
    %gd = arith.select %iszero, %gu, %gd1 : f64
    %ulp = arith.minimumf %gu, %gd : f64
    %d0 = arith.subf %g, %e : f64
    %dneg = arith.negf %d0 : f64
    %d = arith.maximumf %d0, %dneg : f64
    %close = arith.cmpf olt, %d, %ulp : f64
    // NaN in, NaN out.
    %enan = arith.cmpf uno, %e, %e : f64
    %gnan = arith.cmpf uno, %g, %g : f64
    %nanok = arith.andi %enan, %gnan : i1
    %ok = arith.ori %close, %nanok : i1
    %inc = arith.select %ok, %z, %one : i64
    %next = arith.addi %acc, %inc : i64
    scf.yield %next : i64
  }
  vector.print str "bf16 not faithful: "
  vector.print %bad_bf16 : i64

  %bad_f16 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i64 {
    %i32 = arith.index_cast %i : index to i32
    %i16 = arith.trunci %i32 : i32 to i16
    %xh = arith.bitcast %i16 : i16 to f16
    %x = arith.extf %xh : f16 to f32
    %t = math.tanh %x : f32
    %th = arith.truncf %t : f32 to f16
    %g = arith.extf %th : f16 to f64
    %xd = arith.extf %x : f32 to f64
    %e = func.call @tanh(%xd) : (f64) -> f64
    // The spacing of f16 at the exact value: the smaller of the gaps on
    // either side of its rounding r (the smallest subnormal at 0).
    %r = arith.truncf %e : f64 to f16
    %rb = arith.bitcast %r : f16 to i16
    %mag = arith.andi %rb, %mask : i16
    %up = arith.addi %mag, %one16 : i16
    %dn0 = arith.subi %mag, %one16 : i16
    %iszero = arith.cmpi eq, %mag, %zero16 : i16
    %dn = arith.select %iszero, %one16, %dn0 : i16
    %vm = arith.bitcast %mag : i16 to f16
    %vu = arith.bitcast %up : i16 to f16
    %vd = arith.bitcast %dn : i16 to f16
    %fm = arith.extf %vm : f16 to f64
    %fu = arith.extf %vu : f16 to f64
    %fd = arith.extf %vd : f16 to f64
    %gu = arith.subf %fu, %fm : f64
    %gd0 = arith.subf %fm, %fd : f64
    %gdn = arith.negf %gd0 : f64
    %gd1 = arith.maximumf %gd0, %gdn : f64
    %gd = arith.select %iszero, %gu, %gd1 : f64
    %ulp = arith.minimumf %gu, %gd : f64
    %d0 = arith.subf %g, %e : f64
    %dneg = arith.negf %d0 : f64
    %d = arith.maximumf %d0, %dneg : f64
    %close = arith.cmpf olt, %d, %ulp : f64
    // NaN in, NaN out.
    %enan = arith.cmpf uno, %e, %e : f64
    %gnan = arith.cmpf uno, %g, %g : f64
    %nanok = arith.andi %enan, %gnan : i1
    %ok = arith.ori %close, %nanok : i1
    %inc = arith.select %ok, %z, %one : i64
    %next = arith.addi %acc, %inc : i64
    scf.yield %next : i64
  }
  vector.print str "f16 not faithful: "
  vector.print %bad_f16 : i64
  return
}
