// RUN: memopt-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-widen-floats))"

// A bitcast's meaning depends on its width: the f64 reference is refused.
func.func @bitcast(%x: tensor<4xf32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xi32>) {
  ^bb0(%a: f32, %o: i32):
    // expected-error @below {{cannot compute the reference in f64: 'arith.bitcast' is not widened}}
    %b = arith.bitcast %a : f32 to i32
    linalg.yield %b : i32
  } -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// Only what the input stage leaves is widened: a named op is refused.
func.func @named(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  // expected-error @below {{cannot compute the reference in f64: 'linalg.matmul' is not widened}}
  %z = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// -----

// A float constant held as a resource blob is not converted: refused.
func.func @resource(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot compute the reference in f64: constant}}
  %c = arith.constant dense_resource<blob1> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F0000803F0000803F0000803F"
    }
  }
#-}
