// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-lower-gpu-math)"

// Math ops with neither a native f32 (or f64) instruction nor an expansion
// are errors:
// the pass never leaves them for the libdevice-based NVVM conversion.

// (f64 exp, exp2, log, log2, log1p and tanh have lowerings of their own;
// expm1 and erf do not.)
func.func @expm1_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.expm1' op has no libdevice-free lowering for the GPU}}
  %r = math.expm1 %x : f64
  return %r : f64
}

// -----

func.func @atan_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.atan' op has no libdevice-free lowering for the GPU}}
  %r = math.atan %x : f64
  return %r : f64
}

// -----

func.func @erf_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.erf' op has no libdevice-free lowering for the GPU}}
  %r = math.erf %x : f64
  return %r : f64
}

// -----

// The intrinsic patterns only take scalars.
func.func @sqrt_vector(%x: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{'math.sqrt' op has no libdevice-free lowering for the GPU}}
  %r = math.sqrt %x : vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// Only the first op left over is reported.
func.func @first_reported(%x: f64) -> f64 {
  // expected-error @+1 {{'math.sin' op has no libdevice-free lowering for the GPU}}
  %a = math.sin %x : f64
  %b = math.cos %a : f64
  return %b : f64
}
