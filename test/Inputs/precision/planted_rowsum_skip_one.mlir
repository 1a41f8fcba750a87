// PLANTED ERROR, perturbs rowsum_f16_64x4096.mlir: same signature and output
// (f16 [64], f16 accumulation), but each row sum skips the last element.
// (Written first as tensor.extract_slice x[:, 0:4095] + linalg.reduce, which
// memopt refuses as outside its input contract; so here the reduction is a
// linalg.generic whose body keeps the accumulator when linalg.index 1 == 4095.)
//   y[i] = sum_{j < 4095} x[i,j]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowsum_f16_64x4096(%x: tensor<64x4096xf16>) -> tensor<64xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %last = arith.constant 4095 : index
  %e = tensor.empty() : tensor<64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %y = linalg.generic {indexing_maps = [#id, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x4096xf16>) outs(%init : tensor<64xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %j = linalg.index 1 : index
    %skip = arith.cmpi eq, %j, %last : index
    %s = arith.addf %in, %acc : f16
    %r = arith.select %skip, %acc, %s : f16
    linalg.yield %r : f16
  } -> tensor<64xf16>
  return %y : tensor<64xf16>
}
