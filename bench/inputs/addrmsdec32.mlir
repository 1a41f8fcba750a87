// Decode-time residual add + RMSNorm, written as torch-mlir lowers it
// (keepdim statistics of shape 32x1, a named linalg.add): 32 rows of 4096
// bf16; outputs the sum (the next residual) and the normalized rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @addrmsdec32(%x: tensor<32x4096xbf16>, %r: tensor<32x4096xbf16>, %g: tensor<4096xbf16>) -> (tensor<32x4096xbf16>, tensor<32x4096xbf16>) {
  %eh = tensor.empty() : tensor<32x4096xbf16>
  %h = linalg.add ins(%x, %r : tensor<32x4096xbf16>, tensor<32x4096xbf16>) outs(%eh : tensor<32x4096xbf16>) -> tensor<32x4096xbf16>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x1xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x1xf32>) -> tensor<32x1xf32>
  %ssq = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<32x4096xbf16>) outs(%f0 : tensor<32x1xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %sq = arith.mulf %w, %w : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x1xf32>
  %e2 = tensor.empty() : tensor<32x4096xbf16>
  %y = linalg.generic {indexing_maps = [#id, #keep, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %ssq, %g : tensor<32x4096xbf16>, tensor<32x1xf32>, tensor<4096xbf16>)
      outs(%e2 : tensor<32x4096xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gv: bf16, %out: bf16):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %ms = arith.divf %s, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    %w = arith.extf %a : bf16 to f32
    %gw = arith.extf %gv : bf16 to f32
    %t = arith.mulf %w, %rs : f32
    %u = arith.mulf %t, %gw : f32
    %o = arith.truncf %u : f32 to bf16
    linalg.yield %o : bf16
  } -> tensor<32x4096xbf16>
  return %h, %y : tensor<32x4096xbf16>, tensor<32x4096xbf16>
}
