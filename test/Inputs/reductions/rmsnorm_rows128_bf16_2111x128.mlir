// RMSNorm over 2111 bf16 rows of 128 (f32 statistics, bf16 gamma and
// output): 16 threads per row, 8 rows per block though 8 does not divide
// the rows (the last block holds 7; were one warp-wide row per block).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm_rows128_bf16_2111x128(%x: tensor<2111x128xbf16>, %g: tensor<128xbf16>) -> tensor<2111x128xbf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2111xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2111xf32>) -> tensor<2111xf32>
  %ssq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2111x128xbf16>) outs(%f0 : tensor<2111xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2111xf32>
  %e2 = tensor.empty() : tensor<2111x128xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq, %g : tensor<2111x128xbf16>, tensor<2111xf32>, tensor<128xbf16>) outs(%e2 : tensor<2111x128xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gv: bf16, %out: bf16):
    %n = arith.constant 128.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %w = arith.extf %a : bf16 to f32
    %gw = arith.extf %gv : bf16 to f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %o = arith.truncf %u : f32 to bf16
    linalg.yield %o : bf16
  } -> tensor<2111x128xbf16>
  return %y : tensor<2111x128xbf16>
}
