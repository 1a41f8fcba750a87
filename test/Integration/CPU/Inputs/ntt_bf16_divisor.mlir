// Planted precision loss in test/Inputs/colnorm/normalize_then_transpose_f32_64x64.mlir:
// the column sums rounded to bf16 before the division (a kernel keeping a
// statistic in a narrower type than the program's). memopt-cpu-diff must
// fail it against the original's reference, perturbed evaluations or not.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @ntt(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %bh = arith.truncf %b : f32 to bf16
    %bw = arith.extf %bh : bf16 to f32
    %q = arith.divf %a, %bw : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.addf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %n, %y : tensor<64x64xf32>, tensor<64x64xf32>
}
