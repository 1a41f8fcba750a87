// where(mask, x, y) with a bool mask, the way torch-mlir lowers aten.where.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @mask_select(%m: tensor<64x777xi1>, %x: tensor<64x777xf32>,
                       %y: tensor<64x777xf32>) -> tensor<64x777xf32> {
  %e = tensor.empty() : tensor<64x777xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %x, %y : tensor<64x777xi1>, tensor<64x777xf32>, tensor<64x777xf32>)
      outs(%e : tensor<64x777xf32>) {
  ^bb0(%c: i1, %a: f32, %b: f32, %o: f32):
    %s = arith.select %c, %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x777xf32>
  return %r : tensor<64x777xf32>
}
