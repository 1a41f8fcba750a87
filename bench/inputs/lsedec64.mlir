// Bench input lsedec64: log-sum-exp at decode time over a Llama-3 vocabulary,
// 64 rows of 128256 bf16 logits with f32 math (a batch of 64 sequences).
// Minimum bytes: x 16416768 + 64 f32 results.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @lsedec64(%x: tensor<64x128256xbf16>) -> tensor<64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128256xbf16>) outs(%f0 : tensor<64xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %v = arith.maximumf %w, %o : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<64x128256xbf16>, tensor<64xf32>) outs(%f1 : tensor<64xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %x2 = math.exp %d : f32
    %v = arith.addf %x2, %o : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %v = arith.addf %l, %m : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
