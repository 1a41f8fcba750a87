// masked_fill(x, mask, -inf) then softmax over the last dim, f16 with f32
// accumulation, the mask a bool tensor broadcast over the rows' batch.
#map = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @masked_softmax(%x: tensor<64x777xf16>, %m: tensor<777xi1>) -> tensor<64x777xf16> {
  %e = tensor.empty() : tensor<64x777xf16>
  %filled = linalg.generic {indexing_maps = [#map, #bcast, #map],
                            iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<64x777xf16>, tensor<777xi1>) outs(%e : tensor<64x777xf16>) {
  ^bb0(%a: f16, %c: i1, %o: f16):
    %ninf = arith.constant 0xFC00 : f16
    %s = arith.select %c, %ninf, %a : f16
    linalg.yield %s : f16
  } -> tensor<64x777xf16>
  %r = linalg.softmax dimension(1) ins(%filled : tensor<64x777xf16>)
      outs(%e : tensor<64x777xf16>) -> tensor<64x777xf16>
  return %r : tensor<64x777xf16>
}
