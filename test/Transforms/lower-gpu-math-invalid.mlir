// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-lower-gpu-math)"

// Math ops with neither a native f32 instruction nor an expansion are errors:
// the pass never leaves them for the libdevice-based NVVM conversion.

func.func @sqrt_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.sqrt' op has no libdevice-free lowering for the GPU}}
  %r = math.sqrt %x : f64
  return %r : f64
}

// -----

func.func @exp_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.exp' op has no libdevice-free lowering for the GPU}}
  %r = math.exp %x : f64
  return %r : f64
}

// -----

func.func @absf_f64(%x: f64) -> f64 {
  // expected-error @+1 {{'math.absf' op has no libdevice-free lowering for the GPU}}
  %r = math.absf %x : f64
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
  // expected-error @+1 {{'math.floor' op has no libdevice-free lowering for the GPU}}
  %a = math.floor %x : f64
  %b = math.ceil %a : f64
  return %b : f64
}
