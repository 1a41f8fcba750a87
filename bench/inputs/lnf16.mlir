// LayerNorm of an f16 input extended to f32 by its own op and read by two
// reductions (mean, centred squares) and the epilogue, one zero fill and one
// empty tensor shared as frontends write them: 16384x4096 f16 in, f32 out
// (test/Inputs/contract/layernorm_f16_extf_two_reductions_64x1024.mlir at
// the benchmark size).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @ln(%x: tensor<16384x4096xf16>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %e = tensor.empty() : tensor<16384x4096xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16384x4096xf16>) outs(%e : tensor<16384x4096xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<16384x4096xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<16384xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<16384xf32>) -> tensor<16384xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x32 : tensor<16384x4096xf32>) outs(%z : tensor<16384xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x32, %sum : tensor<16384x4096xf32>, tensor<16384xf32>) outs(%z : tensor<16384xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %n = arith.constant 4096.0 : f32
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16384xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x32, %sum, %sq, %g, %b : tensor<16384x4096xf32>, tensor<16384xf32>, tensor<16384xf32>, tensor<4096xf32>, tensor<4096xf32>) outs(%e : tensor<16384x4096xf32>) {
  ^bb0(%a: f32, %s: f32, %v: f32, %gv: f32, %bv: f32, %o: f32):
    %n = arith.constant 4096.0 : f32
    %m = arith.divf %s, %n : f32
    %var = arith.divf %v, %n : f32
    %eps = arith.constant 1.0e-5 : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
