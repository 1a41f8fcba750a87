// Decode attention as torch-mlir writes softmax(q @ k.transpose(-1, -2) *
// scale) @ v for one query per head: linalg.transpose of K, batch_matmul
// (bf16 in, f32 out), linalg.softmax, bf16 probabilities, batch_matmul, bf16 out.
func.func @decatt_named(%q: tensor<4x1x40xbf16>, %k: tensor<4x77x40xbf16>, %v: tensor<4x77x40xbf16>) -> tensor<4x1x40xbf16> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.158113883 : f32
  %et = tensor.empty() : tensor<4x40x77xbf16>
  %kt = linalg.transpose ins(%k : tensor<4x77x40xbf16>) outs(%et : tensor<4x40x77xbf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x1x77xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<4x1x77xf32>) -> tensor<4x1x77xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x1x40xbf16>, tensor<4x40x77xbf16>) outs(%fs : tensor<4x1x77xf32>) -> tensor<4x1x77xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%s : tensor<4x1x77xf32>) outs(%es : tensor<4x1x77xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x1x77xf32>
  %sm = linalg.softmax dimension(2) ins(%sc : tensor<4x1x77xf32>) outs(%es : tensor<4x1x77xf32>) -> tensor<4x1x77xf32>
  %eb = tensor.empty() : tensor<4x1x77xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%sm : tensor<4x1x77xf32>) outs(%eb : tensor<4x1x77xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x1x77xbf16>
  %eo = tensor.empty() : tensor<4x1x40xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<4x1x40xf32>) -> tensor<4x1x40xf32>
  %o = linalg.batch_matmul ins(%pb, %v : tensor<4x1x77xbf16>, tensor<4x77x40xbf16>) outs(%fo : tensor<4x1x40xf32>) -> tensor<4x1x40xf32>
  %eob = tensor.empty() : tensor<4x1x40xbf16>
  %ob = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%o : tensor<4x1x40xf32>) outs(%eob : tensor<4x1x40xbf16>) {
  ^bb0(%a: f32, %x: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x1x40xbf16>
  return %ob : tensor<4x1x40xbf16>
}
