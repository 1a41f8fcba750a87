// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-lower-gpu-math)" | FileCheck %s

// Math ops become native PTX instructions (LLVM intrinsics) or arithmetic,
// never libdevice calls. Ops with no lowering are in lower-gpu-math-invalid.mlir.

// math.sqrt has a native f32 instruction.
// CHECK-LABEL: func.func @sqrt_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.sqrt
// CHECK:         return %[[R]] : f32
func.func @sqrt_f32(%x: f32) -> f32 {
  %r = math.sqrt %x : f32
  return %r : f32
}

// -----

// math.floor has a native f32 instruction.
// CHECK-LABEL: func.func @floor_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.floor.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.floor
// CHECK:         return %[[R]] : f32
func.func @floor_f32(%x: f32) -> f32 {
  %r = math.floor %x : f32
  return %r : f32
}

// -----

// math.ceil has a native f32 instruction.
// CHECK-LABEL: func.func @ceil_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.ceil.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.ceil
// CHECK:         return %[[R]] : f32
func.func @ceil_f32(%x: f32) -> f32 {
  %r = math.ceil %x : f32
  return %r : f32
}

// -----

// math.roundeven has a native f32 instruction.
// CHECK-LABEL: func.func @roundeven_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.roundeven.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.roundeven
// CHECK:         return %[[R]] : f32
func.func @roundeven_f32(%x: f32) -> f32 {
  %r = math.roundeven %x : f32
  return %r : f32
}

// -----

// math.trunc has a native f32 instruction.
// CHECK-LABEL: func.func @trunc_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.trunc.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.trunc
// CHECK:         return %[[R]] : f32
func.func @trunc_f32(%x: f32) -> f32 {
  %r = math.trunc %x : f32
  return %r : f32
}

// -----

// math.absf has a native f32 instruction.
// CHECK-LABEL: func.func @absf_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.fabs.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.absf
// CHECK:         return %[[R]] : f32
func.func @absf_f32(%x: f32) -> f32 {
  %r = math.absf %x : f32
  return %r : f32
}

// -----

// math.exp2 has a native f32 instruction.
// CHECK-LABEL: func.func @exp2_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.exp2.f32"(%[[X]]) : (f32) -> f32
// CHECK-NOT:     math.exp2
// CHECK:         return %[[R]] : f32
func.func @exp2_f32(%x: f32) -> f32 {
  %r = math.exp2 %x : f32
  return %r : f32
}

// -----

// math.copysign has a native f32 instruction.
// CHECK-LABEL: func.func @copysign_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.copysign.f32"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NOT:     math.copysign
// CHECK:         return %[[R]] : f32
func.func @copysign_f32(%x: f32, %y: f32) -> f32 {
  %r = math.copysign %x, %y : f32
  return %r : f32
}

// -----

// math.fma has a native f32 instruction.
// CHECK-LABEL: func.func @fma_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32, %[[Z:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.fma.f32"(%[[X]], %[[Y]], %[[Z]]) : (f32, f32, f32) -> f32
// CHECK-NOT:     math.fma
// CHECK:         return %[[R]] : f32
func.func @fma_f32(%x: f32, %y: f32, %z: f32) -> f32 {
  %r = math.fma %x, %y, %z : f32
  return %r : f32
}

// -----

// arith.maxnumf has a native f32 instruction.
// CHECK-LABEL: func.func @maxnumf_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.maxnum.f32"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NOT:     arith.maxnumf
// CHECK:         return %[[R]] : f32
func.func @maxnumf_f32(%x: f32, %y: f32) -> f32 {
  %r = arith.maxnumf %x, %y : f32
  return %r : f32
}

// -----

// arith.minnumf has a native f32 instruction.
// CHECK-LABEL: func.func @minnumf_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32)
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.minnum.f32"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NOT:     arith.minnumf
// CHECK:         return %[[R]] : f32
func.func @minnumf_f32(%x: f32, %y: f32) -> f32 {
  %r = arith.minnumf %x, %y : f32
  return %r : f32
}

// -----

// exp(x) = exp2(x * log2(e)): one multiply and ex2.approx.
// CHECK-LABEL: func.func @exp_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK:         %[[M:.+]] = arith.mulf %[[X]], %[[LOG2E]] : f32
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.exp2.f32"(%[[M]]) : (f32) -> f32
// CHECK-NOT:     math.
// CHECK:         return %[[R]] : f32
func.func @exp_f32(%x: f32) -> f32 {
  %r = math.exp %x : f32
  return %r : f32
}

// -----

// With afn (memopt-approximate-math: results below 2^-126 may flush to
// zero): ex2.approx.ftz, without the denormal scaling of ex2.approx.
// CHECK-LABEL: func.func @exp_afn_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK:         %[[M:.+]] = arith.mulf %[[X]], %[[LOG2E]] : f32
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[M]]) : (f32) -> f32
// CHECK-NOT:     math.
// CHECK:         return %[[R]] : f32
func.func @exp_afn_f32(%x: f32) -> f32 {
  %r = math.exp %x fastmath<afn> : f32
  return %r : f32
}

// -----

// tanh: an odd polynomial below 2^-4, else (1 - e) / (1 + e) with
// e = exp2(-2 log2(e) |x|) and the sign of x; a division when the result
// is observed at f32 precision.
// CHECK-LABEL: func.func @tanh_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK-NOT:     math.tanh
// CHECK:         %[[A:.+]] = llvm.call_intrinsic "llvm.fabs.f32"(%[[X]])
// CHECK:         %[[SMALL:.+]] = llvm.call_intrinsic "llvm.fma.f32"(%{{.+}}, %{{.+}}, %[[X]])
// CHECK:         %[[NEG2A:.+]] = arith.mulf %[[A]], %{{.+}} : f32
// CHECK:         %[[E:.+]] = llvm.call_intrinsic "llvm.exp2.f32"(%[[NEG2A]])
// CHECK:         %[[Q:.+]] = arith.divf
// CHECK:         %[[LARGE:.+]] = llvm.call_intrinsic "llvm.copysign.f32"(%[[Q]], %[[X]])
// CHECK:         %[[IS:.+]] = arith.cmpf olt, %[[A]], %{{.+}} : f32
// CHECK:         %[[R:.+]] = arith.select %[[IS]], %[[SMALL]], %[[LARGE]] : f32
// CHECK-NOT:     math.
// CHECK:         return %[[R]]
func.func @tanh_f32(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}

// -----

// With afn (memopt-approximate-math: only seen in 16 bits): x - x^3 / 3
// below 2^-4, else 1 - 2 rcp.approx(1 + ex2.approx.ftz(2 x log2 e)); no
// division, no sign handling. 16-bit tanh computes in f32.
// CHECK-LABEL: func.func @tanh_afn_bf16
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: bf16)
// CHECK:         %[[W:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK:         %[[E:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:         %[[DEN:.+]] = arith.addf %[[E]], %{{.+}} : f32
// CHECK:         %[[RCP:.+]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%[[DEN]])
// CHECK:         llvm.call_intrinsic "llvm.fma.f32"(%[[RCP]], %{{.+}}, %{{.+}})
// CHECK-NOT:     arith.divf
// CHECK-NOT:     copysign
// CHECK:         %[[R:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:         return %[[R]]
func.func @tanh_afn_bf16(%x: bf16) -> bf16 {
  %r = math.tanh %x fastmath<afn> : bf16
  return %r : bf16
}

// -----

// rsqrt is expanded to 1 / sqrt.
// CHECK-LABEL: func.func @rsqrt_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[S:.+]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[X]]) : (f32) -> f32
// CHECK:         %[[R:.+]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NOT:     math.
// CHECK:         return %[[R]] : f32
func.func @rsqrt_f32(%x: f32) -> f32 {
  %r = math.rsqrt %x : f32
  return %r : f32
}

// -----

// log uses the polynomial approximation (fma chains on the mantissa bits).
// CHECK-LABEL: func.func @log_f32
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK-NOT:     math.log
// CHECK:         arith.bitcast %{{.+}} : f32 to i32
// CHECK:         llvm.call_intrinsic "llvm.fma.f32"
// CHECK-NOT:     math.
// CHECK:         return
func.func @log_f32(%x: f32) -> f32 {
  %r = math.log %x : f32
  return %r : f32
}

// -----

// erf uses the polynomial approximation too.
// CHECK-LABEL: func.func @erf_f32
// CHECK-NOT:     math.
// CHECK:         return
func.func @erf_f32(%x: f32) -> f32 {
  %r = math.erf %x : f32
  return %r : f32
}

// -----

// f16 runs in f32: extend, the f32 intrinsic, truncate.
// CHECK-LABEL: func.func @absf_f16
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f16)
// CHECK:         %[[E:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK:         %[[A:.+]] = llvm.call_intrinsic "llvm.fabs.f32"(%[[E]]) : (f32) -> f32
// CHECK:         %[[R:.+]] = arith.truncf %[[A]] : f32 to f16
// CHECK-NOT:     math.
// CHECK:         return %[[R]] : f16
func.func @absf_f16(%x: f16) -> f16 {
  %r = math.absf %x : f16
  return %r : f16
}

// -----

// bf16 exp: extended to f32, then exp2(x * log2(e)), then truncated.
// CHECK-LABEL: func.func @exp_bf16
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: bf16)
// CHECK-DAG:     %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK-DAG:     %[[E:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK:         %[[M:.+]] = arith.mulf %[[E]], %[[LOG2E]] : f32
// CHECK:         %[[P:.+]] = llvm.call_intrinsic "llvm.exp2.f32"(%[[M]]) : (f32) -> f32
// CHECK:         %[[R:.+]] = arith.truncf %[[P]] : f32 to bf16
// CHECK:         return %[[R]] : bf16
func.func @exp_bf16(%x: bf16) -> bf16 {
  %r = math.exp %x : bf16
  return %r : bf16
}

// -----

// f16 maxnumf is computed in f32 as well.
// CHECK-LABEL: func.func @maxnumf_f16
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f16, %[[Y:[a-z0-9_]+]]: f16)
// CHECK-DAG:     %[[EX:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-DAG:     %[[EY:.+]] = arith.extf %[[Y]] : f16 to f32
// CHECK:         %[[M:.+]] = llvm.call_intrinsic "llvm.maxnum.f32"(%[[EX]], %[[EY]]) : (f32, f32) -> f32
// CHECK:         %[[R:.+]] = arith.truncf %[[M]] : f32 to f16
// CHECK:         return %[[R]] : f16
func.func @maxnumf_f16(%x: f16, %y: f16) -> f16 {
  %r = arith.maxnumf %x, %y : f16
  return %r : f16
}

// -----

// Kernels in a gpu.module are lowered the same way.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @k(%[[P:[a-z0-9_]+]]: memref<64xf32>)
// CHECK:           %[[V:.+]] = memref.load %[[P]]
// CHECK:           %[[S:.+]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[V]]) : (f32) -> f32
// CHECK:           memref.store %[[S]], %[[P]]
// CHECK-NOT:       math.
// CHECK:           gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%p: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %p[%i] : memref<64xf32>
      %s = math.sqrt %v : f32
      memref.store %s, %p[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// Ops outside the math dialect (and arith ops without a libdevice form) are
// left alone.
// CHECK-LABEL: func.func @other_ops_untouched
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32)
// CHECK:         %[[A:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:         %[[M:.+]] = arith.maximumf %[[A]], %[[Y]] : f32
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return %[[M]] : f32
func.func @other_ops_untouched(%x: f32, %y: f32) -> f32 {
  %a = arith.addf %x, %y : f32
  %m = arith.maximumf %a, %y : f32
  return %m : f32
}

// -----

// Divisions sharing an f32 divisor become one reciprocal (computed right
// before the first of them) and multiplications: a / t = (a * (1 / (t * m)))
// * m, m = 2^64 for |t| < 2^-126, 2^-64 for |t| > 2^126, else 1.
// CHECK-LABEL: func.func @shared_divisor
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[S:[a-z0-9_]+]]: f32)
// CHECK:         %[[T:.+]] = arith.addf %[[S]], %[[S]] : f32
// CHECK-DAG:     %[[TINYC:.+]] = arith.constant 1.17549435E-38 : f32
// CHECK-DAG:     %[[HUGEC:.+]] = arith.constant 8.50705917E+37 : f32
// CHECK-DAG:     arith.cmpf olt, %[[T]], %[[TINYC]] : f32
// CHECK-DAG:     arith.cmpf ogt, %[[T]], %[[HUGEC]] : f32
// CHECK:         %[[DOWN:.+]] = arith.constant 5.42101086E-20 : f32
// CHECK-NEXT:    %[[M1:.+]] = arith.select %{{.+}}, %[[DOWN]], %{{.+}} : f32
// CHECK-NEXT:    %[[UP:.+]] = arith.constant 1.84467441E+19 : f32
// CHECK-NEXT:    %[[M:.+]] = arith.select %{{.+}}, %[[UP]], %[[M1]] : f32
// CHECK:         %[[TM:.+]] = arith.mulf %[[T]], %[[M]] : f32
// CHECK:         %[[R:.+]] = arith.divf %{{.+}}, %[[TM]] : f32
// CHECK-NEXT:    %[[X0:.+]] = arith.mulf %[[A]], %[[R]] : f32
// CHECK-NEXT:    %[[X:.+]] = arith.mulf %[[X0]], %[[M]] : f32
// CHECK-NEXT:    %[[Y0:.+]] = arith.mulf %[[B]], %[[R]] : f32
// CHECK-NEXT:    %[[Y:.+]] = arith.mulf %[[Y0]], %[[M]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         return %[[X]], %[[Y]] : f32, f32
func.func @shared_divisor(%a: f32, %b: f32, %s: f32) -> (f32, f32) {
  %t = arith.addf %s, %s : f32
  %x = arith.divf %a, %t : f32
  %y = arith.divf %b, %t : f32
  return %x, %y : f32, f32
}

// -----

// One division in a loop by a divisor from outside it: the reciprocal is
// taken once, before the loop.
// CHECK-LABEL: func.func @divisor_outside_loop
// CHECK-SAME:    (%[[MEM:[a-z0-9_]+]]: memref<8xf32>, %[[S:[a-z0-9_]+]]: f32)
// CHECK:         %[[SM:.+]] = arith.mulf %[[S]], %[[M:.+]] : f32
// CHECK:         %[[R:.+]] = arith.divf %{{.+}}, %[[SM]] : f32
// CHECK-NEXT:    scf.for
// CHECK:           %[[V:.+]] = memref.load
// CHECK-NEXT:      %[[Q0:.+]] = arith.mulf %[[V]], %[[R]] : f32
// CHECK-NEXT:      %[[Q:.+]] = arith.mulf %[[Q0]], %[[M]] : f32
// CHECK-NEXT:      memref.store %[[Q]]
// CHECK-NOT:     arith.divf
func.func @divisor_outside_loop(%m: memref<8xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %m[%i] : memref<8xf32>
    %q = arith.divf %v, %s : f32
    memref.store %q, %m[%i] : memref<8xf32>
  }
  return
}

// -----

// A quotient that is itself a shared divisor: x = a / n and y = b / n share
// n; z = c / x and w = b / x share x, which by then is a multiplication:
// their reciprocal is of that product, not of any other value.
// CHECK-LABEL: func.func @chained_divisors
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32, %[[N:[a-z0-9_]+]]: f32)
// CHECK:         %[[NM:.+]] = arith.mulf %[[N]], %[[MN:.+]] : f32
// CHECK:         %[[RN:.+]] = arith.divf %{{.+}}, %[[NM]] : f32
// CHECK-NEXT:    %[[X0:.+]] = arith.mulf %[[A]], %[[RN]] : f32
// CHECK-NEXT:    %[[X:.+]] = arith.mulf %[[X0]], %[[MN]] : f32
// CHECK:         %[[XM:.+]] = arith.mulf %[[X]], %[[MX:.+]] : f32
// CHECK:         %[[RX:.+]] = arith.divf %{{.+}}, %[[XM]] : f32
// CHECK-NEXT:    %[[Z0:.+]] = arith.mulf %[[C]], %[[RX]] : f32
// CHECK-NEXT:    %[[Z:.+]] = arith.mulf %[[Z0]], %[[MX]] : f32
// CHECK-NEXT:    %[[W0:.+]] = arith.mulf %[[B]], %[[RX]] : f32
// CHECK-NEXT:    %[[W:.+]] = arith.mulf %[[W0]], %[[MX]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         return %{{.+}}, %[[Z]], %[[W]]
func.func @chained_divisors(%a: f32, %b: f32, %c: f32, %n: f32) -> (f32, f32, f32) {
  %x = arith.divf %a, %n : f32
  %y = arith.divf %b, %n : f32
  %z = arith.divf %c, %x : f32
  %w = arith.divf %b, %x : f32
  return %y, %z, %w : f32, f32, f32
}

// -----

// Left alone: a single division outside any loop, one whose divisor is
// defined in the same loop body, and f16 divisions (PTX divides f16 as f32
// anyway).
// CHECK-LABEL: func.func @divisions_kept
// CHECK:         arith.divf %{{.+}}, %{{.+}} : f32
// CHECK:         scf.for
// CHECK:           arith.addf
// CHECK-NEXT:      arith.divf %{{.+}}, %{{.+}} : f32
// CHECK:         arith.divf %{{.+}}, %{{.+}} : f16
// CHECK-NEXT:    arith.divf %{{.+}}, %{{.+}} : f16
// CHECK-NOT:     arith.mulf
func.func @divisions_kept(%m: memref<8xf32>, %a: f32, %s: f32, %h: f16, %g: f16, %k: f16) -> (f32, f16, f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %x = arith.divf %a, %s : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %m[%i] : memref<8xf32>
    %d = arith.addf %v, %s : f32
    %q = arith.divf %v, %d : f32
    memref.store %q, %m[%i] : memref<8xf32>
  }
  %y = arith.divf %h, %k : f16
  %z = arith.divf %g, %k : f16
  return %x, %y, %z : f32, f16, f16
}

// -----

// 1 + tanh(x) with afn (tanh-GELU) is 2 / (1 + exp(-2x)): no cancellation
// where tanh is near -1; 1 - tanh(x) is 2 / (1 + exp(2x)).
// CHECK-LABEL: func.func @one_plus_tanh_afn
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f32)
// CHECK:         %[[A:.+]] = arith.mulf %[[X]], %[[NEG:.+]] : f32
// CHECK:         %[[E:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[A]])
// CHECK:         %[[D:.+]] = arith.addf %[[E]], %{{.+}} : f32
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%[[D]])
// CHECK:         %[[Y:.+]] = arith.mulf %[[R]], %{{.+}} : f32
// CHECK-NOT:     llvm.fma
// CHECK:         %[[B:.+]] = arith.mulf %[[X]], %{{.+}} : f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[B]])
// CHECK:         return %[[Y]], %{{.+}} : f32, f32
func.func @one_plus_tanh_afn(%x: f32) -> (f32, f32) {
  %one = arith.constant 1.0 : f32
  %t = math.tanh %x fastmath<afn> : f32
  %s = arith.addf %one, %t : f32
  %u = math.tanh %x fastmath<afn> : f32
  %d = arith.subf %one, %u : f32
  return %s, %d : f32, f32
}

// -----

// f64 ops PTX has natively (sqrt.rn.f64, abs.f64, cvt.rmi.f64.f64,
// fma.rn.f64, max.f64) stay f64: no rounding through f32.
// CHECK-LABEL: func.func @native_f64
// CHECK-SAME:    (%[[X:[a-z0-9_]+]]: f64, %[[Y:[a-z0-9_]+]]: f64)
// CHECK:         %[[S:.+]] = llvm.call_intrinsic "llvm.sqrt.f64"(%[[X]]) : (f64) -> f64
// CHECK:         %[[A:.+]] = llvm.call_intrinsic "llvm.fabs.f64"(%[[S]]) : (f64) -> f64
// CHECK:         %[[F:.+]] = llvm.call_intrinsic "llvm.floor.f64"(%[[A]]) : (f64) -> f64
// CHECK:         %[[M:.+]] = llvm.call_intrinsic "llvm.fma.f64"(%[[F]], %[[Y]], %[[X]]) : (f64, f64, f64) -> f64
// CHECK:         %[[N:.+]] = llvm.call_intrinsic "llvm.maxnum.f64"(%[[M]], %[[Y]]) : (f64, f64) -> f64
// CHECK-NOT:     math.
// CHECK-NOT:     arith.extf
// CHECK:         return %[[N]] : f64
func.func @native_f64(%x: f64, %y: f64) -> f64 {
  %s = math.sqrt %x : f64
  %a = math.absf %s : f64
  %f = math.floor %a : f64
  %m = math.fma %f, %y, %x : f64
  %n = arith.maxnumf %m, %y : f64
  return %n : f64
}
