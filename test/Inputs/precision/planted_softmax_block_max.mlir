// PLANTED ERROR, perturbs softmax_f16_acc_32x2048.mlir: same signature and
// output (f16 32 x 2048). Each row is viewed as 32 blocks of 64
// (tensor.expand_shape to 32x32x64); bm = per-block max over the 64, rm = row
// max over the 32 block maxima; the f16 sum is correct, sum_j exp(x - rm),
// but the output subtracts the BLOCK max: y = exp(x - bm) / sum, so every
// element is too large by exp(rm - bm) >= 1. Collapsed back to 32 x 2048.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#blk3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
func.func @softmax_f16_acc_32x2048(%x: tensor<32x2048xf16>) -> tensor<32x2048xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [32, 32, 64]
          : tensor<32x2048xf16> into tensor<32x32x64xf16>
  // block max over the 64
  %eb = tensor.empty() : tensor<32x32xf16>
  %b0 = linalg.fill ins(%ninf : f16) outs(%eb : tensor<32x32xf16>) -> tensor<32x32xf16>
  %bm = linalg.generic {indexing_maps = [#id3, #blk3],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3 : tensor<32x32x64xf16>) outs(%b0 : tensor<32x32xf16>) {
  ^bb0(%a: f16, %m: f16):
    %r = arith.maximumf %a, %m : f16
    linalg.yield %r : f16
  } -> tensor<32x32xf16>
  // row max over the block maxima
  %er = tensor.empty() : tensor<32xf16>
  %r0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<32xf16>) -> tensor<32xf16>
  %rm = linalg.generic {indexing_maps = [#id2, #row2],
                        iterator_types = ["parallel", "reduction"]}
      ins(%bm : tensor<32x32xf16>) outs(%r0 : tensor<32xf16>) {
  ^bb0(%a: f16, %m: f16):
    %r = arith.maximumf %a, %m : f16
    linalg.yield %r : f16
  } -> tensor<32xf16>
  // correct sum: sum over (d1, d2) of exp(x - rowmax), f16 accumulator
  %es = tensor.empty() : tensor<32xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<32xf16>) -> tensor<32xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #row3, #row3],
                         iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x3, %rm : tensor<32x32x64xf16>, tensor<32xf16>) outs(%s0 : tensor<32xf16>) {
  ^bb0(%a: f16, %m: f16, %acc: f16):
    %d = arith.subf %a, %m : f16
    %e = math.exp %d : f16
    %s = arith.addf %e, %acc : f16
    linalg.yield %s : f16
  } -> tensor<32xf16>
  // wrong output: exp(x - blockmax) / sum
  %ey = tensor.empty() : tensor<32x32x64xf16>
  %y3 = linalg.generic {indexing_maps = [#id3, #blk3, #row3, #id3],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x3, %bm, %sum : tensor<32x32x64xf16>, tensor<32x32xf16>, tensor<32xf16>)
      outs(%ey : tensor<32x32x64xf16>) {
  ^bb0(%a: f16, %b: f16, %s: f16, %o: f16):
    %d = arith.subf %a, %b : f16
    %e = math.exp %d : f16
    %q = arith.divf %e, %s : f16
    linalg.yield %q : f16
  } -> tensor<32x32x64xf16>
  %y = tensor.collapse_shape %y3 [[0], [1, 2]]
         : tensor<32x32x64xf16> into tensor<32x2048xf16>
  return %y : tensor<32x2048xf16>
}
