// Bench input qkvnorm: a fused QKV projection's output viewed as [tokens, 3, heads, dim] and
// split into q, k, v by rank-reducing tensor.extract_slice (qkv.unbind(1)),
// then RMSNorm of q and k over the head dim (QK-norm, bf16 in, f32
// statistics) with a learned weight each; v passes through as a copy.
#id3 = affine_map<(t, h, d) -> (t, h, d)>
#row3 = affine_map<(t, h, d) -> (t, h)>
#w = affine_map<(t, h, d) -> (d)>
func.func @qk_norm(%qkv: tensor<8192x3x32x128xbf16>, %wq: tensor<128xbf16>, %wk: tensor<128xbf16>) -> (tensor<8192x32x128xbf16>, tensor<8192x32x128xbf16>, tensor<8192x32x128xbf16>) {
  %q = tensor.extract_slice %qkv[0, 0, 0, 0] [8192, 1, 32, 128] [1, 1, 1, 1] : tensor<8192x3x32x128xbf16> to tensor<8192x32x128xbf16>
  %k = tensor.extract_slice %qkv[0, 1, 0, 0] [8192, 1, 32, 128] [1, 1, 1, 1] : tensor<8192x3x32x128xbf16> to tensor<8192x32x128xbf16>
  %v = tensor.extract_slice %qkv[0, 2, 0, 0] [8192, 1, 32, 128] [1, 1, 1, 1] : tensor<8192x3x32x128xbf16> to tensor<8192x32x128xbf16>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8192x32xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<8192x32xf32>) -> tensor<8192x32xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q : tensor<8192x32x128xbf16>) outs(%fs : tensor<8192x32xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %m = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8192x32xf32>
  %sk = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%k : tensor<8192x32x128xbf16>) outs(%fs : tensor<8192x32xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %m = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8192x32xf32>
  %e = tensor.empty() : tensor<8192x32x128xbf16>
  %qn = linalg.generic {indexing_maps = [#id3, #row3, #w, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %sq, %wq : tensor<8192x32x128xbf16>, tensor<8192x32xf32>, tensor<128xbf16>) outs(%e : tensor<8192x32x128xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 128.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %f = arith.extf %a : bf16 to f32
    %gf = arith.extf %g : bf16 to f32
    %y = arith.mulf %f, %r : f32
    %yg = arith.mulf %y, %gf : f32
    %t = arith.truncf %yg : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8192x32x128xbf16>
  %kn = linalg.generic {indexing_maps = [#id3, #row3, #w, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k, %sk, %wk : tensor<8192x32x128xbf16>, tensor<8192x32xf32>, tensor<128xbf16>) outs(%e : tensor<8192x32x128xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 128.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %f = arith.extf %a : bf16 to f32
    %gf = arith.extf %g : bf16 to f32
    %y = arith.mulf %f, %r : f32
    %yg = arith.mulf %y, %gf : f32
    %t = arith.truncf %yg : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8192x32x128xbf16>
  return %qn, %kn, %v : tensor<8192x32x128xbf16>, tensor<8192x32x128xbf16>, tensor<8192x32x128xbf16>
}
