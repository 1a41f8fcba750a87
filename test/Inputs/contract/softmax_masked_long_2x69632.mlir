// Contract input: a masked softmax (attention-style) over rows of 69632 f32:
// columns from 40000 on are -inf. Split over a cluster, whole slices of a
// row are -inf, so the online softmax must treat a block maximum of -inf
// (its exp values and sum are 0), not produce exp(-inf - -inf) = NaN.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax_masked_long_2x69632(%x: tensor<2x69632xf32>) -> tensor<2x69632xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %limit = arith.constant 40000 : index
  %e = tensor.empty() : tensor<2x69632xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x69632xf32>) outs(%e : tensor<2x69632xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %keep = arith.cmpi ult, %j, %limit : index
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x69632xf32>
  %e2 = tensor.empty() : tensor<2x69632xf32>
  %y = linalg.softmax dimension(1) ins(%v : tensor<2x69632xf32>) outs(%e2 : tensor<2x69632xf32>) -> tensor<2x69632xf32>
  return %y : tensor<2x69632xf32>
}
