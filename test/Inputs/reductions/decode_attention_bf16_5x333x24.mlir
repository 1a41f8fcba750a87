// Decode attention, 5 heads x 333 cached tokens x head dim 24, bf16 q/K/V,
// f32 scores and accumulation, bf16 out: softmax(q . K^T * scale) . V per head.
#qk_q = affine_map<(h, t, d) -> (h, d)>
#qk_k = affine_map<(h, t, d) -> (h, t, d)>
#qk_s = affine_map<(h, t, d) -> (h, t)>
#id2 = affine_map<(h, t) -> (h, t)>
#row = affine_map<(h, t) -> (h)>
#pv_p = affine_map<(h, d, t) -> (h, t)>
#pv_v = affine_map<(h, d, t) -> (h, t, d)>
#pv_o = affine_map<(h, d, t) -> (h, d)>
func.func @decatt(%q: tensor<5x24xbf16>, %k: tensor<5x333x24xbf16>, %v: tensor<5x333x24xbf16>) -> tensor<5x24xbf16> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.2041241452 : f32
  %es = tensor.empty() : tensor<5x333xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<5x333xf32>) -> tensor<5x333xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<5x24xbf16>, tensor<5x333x24xbf16>) outs(%fs : tensor<5x333xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %a1 = arith.extf %a : bf16 to f32
    %b1 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a1, %b1 : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5x333xf32>
  %er = tensor.empty() : tensor<5xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<5xf32>) -> tensor<5xf32>
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<5x333xf32>) outs(%fm : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %x = arith.mulf %a, %scale : f32
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %e = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<5x333xf32>, tensor<5xf32>) outs(%es : tensor<5x333xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %x = arith.mulf %a, %scale : f32
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<5x333xf32>
  %fl = linalg.fill ins(%z : f32) outs(%er : tensor<5xf32>) -> tensor<5xf32>
  %l = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<5x333xf32>) outs(%fl : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<5x333xf32>, tensor<5xf32>) outs(%es : tensor<5x333xf32>) {
  ^bb0(%a: f32, %s1: f32, %o: f32):
    %r = arith.divf %a, %s1 : f32
    linalg.yield %r : f32
  } -> tensor<5x333xf32>
  %eo = tensor.empty() : tensor<5x24xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<5x24xf32>) -> tensor<5x24xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<5x333xf32>, tensor<5x333x24xbf16>) outs(%fo : tensor<5x24xf32>) {
  ^bb0(%a: f32, %b: bf16, %acc: f32):
    %b1 = arith.extf %b : bf16 to f32
    %x = arith.mulf %a, %b1 : f32
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5x24xf32>
  %eb = tensor.empty() : tensor<5x24xbf16>
  %ob = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<5x24xf32>) outs(%eb : tensor<5x24xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<5x24xbf16>
  return %ob : tensor<5x24xbf16>
}

