// Bench input decattbf: decode attention as torch-mlir writes
// softmax(q @ k.transpose(-1, -2) * scale) @ v, bf16, 64 heads x 8192 cached
// tokens x head dim 128: linalg.transpose of K, batch_matmul into f32 scores,
// linalg.softmax, bf16 probabilities, batch_matmul into f32, bf16 out.
func.func @decattbf(%q: tensor<64x1x128xbf16>, %k: tensor<64x8192x128xbf16>, %v: tensor<64x8192x128xbf16>) -> tensor<64x1x128xbf16> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.08838834764 : f32
  %et = tensor.empty() : tensor<64x128x8192xbf16>
  %kt = linalg.transpose ins(%k : tensor<64x8192x128xbf16>) outs(%et : tensor<64x128x8192xbf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<64x1x8192xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<64x1x8192xf32>) -> tensor<64x1x8192xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<64x1x128xbf16>, tensor<64x128x8192xbf16>) outs(%fs : tensor<64x1x8192xf32>) -> tensor<64x1x8192xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%s : tensor<64x1x8192xf32>) outs(%es : tensor<64x1x8192xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<64x1x8192xf32>
  %sm = linalg.softmax dimension(2) ins(%sc : tensor<64x1x8192xf32>) outs(%es : tensor<64x1x8192xf32>) -> tensor<64x1x8192xf32>
  %eb = tensor.empty() : tensor<64x1x8192xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%sm : tensor<64x1x8192xf32>) outs(%eb : tensor<64x1x8192xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<64x1x8192xbf16>
  %eo = tensor.empty() : tensor<64x1x128xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<64x1x128xf32>) -> tensor<64x1x128xf32>
  %o = linalg.batch_matmul ins(%pb, %v : tensor<64x1x8192xbf16>, tensor<64x8192x128xbf16>) outs(%fo : tensor<64x1x128xf32>) -> tensor<64x1x128xf32>
  %eob = tensor.empty() : tensor<64x1x128xbf16>
  %ob = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%o : tensor<64x1x128xf32>) outs(%eob : tensor<64x1x128xbf16>) {
  ^bb0(%a: f32, %x: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<64x1x128xbf16>
  return %ob : tensor<64x1x128xbf16>
}
