// LayerNorm over the leading dim scaled by a weight along that dim
// (gamma[r], the same for every column: a broadcast across the rows of the
// interchanged loops), bf16 in and out, f32 statistics, written as frontends write it
// with keepdim maps: mean, then variance of the centered values, then
// (x - mean) * rsqrt(var + eps).
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (0, d1)>
func.func @ln0g(%x: tensor<600x48xbf16>, %g: tensor<600xbf16>) -> tensor<600x48xbf16> {
  %zero = arith.constant 0.0 : f32
  %invn = arith.constant 1.66666671e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<1x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x48xf32>) -> tensor<1x48xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<600x48xbf16>) outs(%z : tensor<1x48xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %acc, %f : f32
    linalg.yield %s : f32
  } -> tensor<1x48xf32>
  %var = linalg.generic {indexing_maps = [#id, #keep, #keep], iterator_types = ["reduction", "parallel"]}
      ins(%x, %sum : tensor<600x48xbf16>, tensor<1x48xf32>) outs(%z : tensor<1x48xf32>) {
  ^bb0(%a: bf16, %s: f32, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %m = arith.mulf %s, %invn : f32
    %c = arith.subf %f, %m : f32
    %q = arith.mulf %c, %c : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<1x48xf32>
  %e2 = tensor.empty() : tensor<600x48xbf16>
  %y = linalg.generic {indexing_maps = [#id, #keep, #keep, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %var, %g : tensor<600x48xbf16>, tensor<1x48xf32>, tensor<1x48xf32>, tensor<600xbf16>) outs(%e2 : tensor<600x48xbf16>) {
  ^bb0(%a: bf16, %s: f32, %v: f32, %gv: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %m = arith.mulf %s, %invn : f32
    %c = arith.subf %f, %m : f32
    %vn = arith.mulf %v, %invn : f32
    %ve = arith.addf %vn, %eps : f32
    %r = math.rsqrt %ve : f32
    %n0 = arith.mulf %c, %r : f32
    %gf = arith.extf %gv : bf16 to f32
    %n = arith.mulf %n0, %gf : f32
    %b = arith.truncf %n : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<600x48xbf16>
  return %y : tensor<600x48xbf16>
}
