// Bench input colnarrow: column sums of a tall, narrow matrix, bf16 in,
// f32 accumulation, 1048576 x 64 (64 outputs cannot fill the GPU: the rows
// are split across blocks), as x.float().sum(0) after torch-mlir.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @colnarrow(%x: tensor<1048576x64xbf16>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<1048576x64xbf16>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
