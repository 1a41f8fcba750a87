// Bench input decatt: decode attention, 64 heads (batch 2 x 32) x 4096 cached
// tokens x head dim 128, f32: softmax(q . K^T / sqrt(128)) . V per head, as
// generics (scores, max, exp, sum, divide, p . V).
#qk_q = affine_map<(h, t, d) -> (h, d)>
#qk_k = affine_map<(h, t, d) -> (h, t, d)>
#qk_s = affine_map<(h, t, d) -> (h, t)>
#id2 = affine_map<(h, t) -> (h, t)>
#row = affine_map<(h, t) -> (h)>
#pv_p = affine_map<(h, d, t) -> (h, t)>
#pv_v = affine_map<(h, d, t) -> (h, t, d)>
#pv_o = affine_map<(h, d, t) -> (h, d)>
func.func @decatt(%q: tensor<64x128xf32>, %k: tensor<64x4096x128xf32>, %v: tensor<64x4096x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.0883883476 : f32
  %es = tensor.empty() : tensor<64x4096xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x128xf32>, tensor<64x4096x128xf32>) outs(%fs : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %a1 = arith.addf %a, %z : f32
    %b1 = arith.addf %b, %z : f32
    %p = arith.mulf %a1, %b1 : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64x4096xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<64x4096xf32>) outs(%fm : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %x = arith.mulf %a, %scale : f32
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<64x4096xf32>, tensor<64xf32>) outs(%es : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %x = arith.mulf %a, %scale : f32
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x4096xf32>
  %fl = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %l = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<64x4096xf32>) outs(%fl : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<64x4096xf32>, tensor<64xf32>) outs(%es : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %s1: f32, %o: f32):
    %r = arith.divf %a, %s1 : f32
    linalg.yield %r : f32
  } -> tensor<64x4096xf32>
  %eo = tensor.empty() : tensor<64x128xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<64x128xf32>) -> tensor<64x128xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<64x4096xf32>, tensor<64x4096x128xf32>) outs(%fo : tensor<64x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %b1 = arith.addf %b, %z : f32
    %x = arith.mulf %a, %b1 : f32
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %o : tensor<64x128xf32>
}

