// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-check-input-contract{max-constant-bytes=64})"

// A non-splat constant larger than max-constant-bytes (lowered to 64 here;
// 16 MiB by default) is refused: it would be written into the PTX.
func.func @big_table(%x: tensor<32xi32>) -> tensor<32xf32> {
  // expected-error @+1 {{'arith.constant' op is a non-splat constant of 128 bytes, more than the 64 bytes memopt places in the kernels' PTX (max-constant-bytes); pass it to the function as an argument}}
  %t = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]> : tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %t : tensor<32xi32>, tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: i32, %b: f32, %o: f32):
    %f = arith.sitofp %a : i32 to f32
    %v = arith.addf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<32xf32>
  return %y : tensor<32xf32>
}

// A table of 64 bytes (at the limit) and a splat are in the contract.
func.func @small_table(%x: tensor<16xf32>) -> tensor<16xf32> {
  %t = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : tensor<16xf32>
  %s = arith.constant dense<2.0> : tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %t, %s : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    %w = arith.mulf %v, %c : f32
    linalg.yield %w : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}
