// q, k, v = qkv.split(96, -1), then .view(2, 29, 4, 24) each, as
// torch-mlir lowers them: tensor.extract_slice along the last dim, then
// tensor.expand_shape splitting the sliced dim into heads x head dim. An
// RMSNorm of q over the head dim, k scaled, v returned viewed.
#id4 = affine_map<(b, t, h, d) -> (b, t, h, d)>
#row4 = affine_map<(b, t, h, d) -> (b, t, h)>
func.func @split_view(%qkv: tensor<2x29x288xf32>) -> (tensor<2x29x4x24xf32>, tensor<2x29x4x24xf32>, tensor<2x29x4x24xf32>) {
  %q = tensor.extract_slice %qkv[0, 0, 0] [2, 29, 96] [1, 1, 1] : tensor<2x29x288xf32> to tensor<2x29x96xf32>
  %k = tensor.extract_slice %qkv[0, 0, 96] [2, 29, 96] [1, 1, 1] : tensor<2x29x288xf32> to tensor<2x29x96xf32>
  %v = tensor.extract_slice %qkv[0, 0, 192] [2, 29, 96] [1, 1, 1] : tensor<2x29x288xf32> to tensor<2x29x96xf32>
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 29, 4, 24] : tensor<2x29x96xf32> into tensor<2x29x4x24xf32>
  %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 29, 4, 24] : tensor<2x29x96xf32> into tensor<2x29x4x24xf32>
  %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 29, 4, 24] : tensor<2x29x96xf32> into tensor<2x29x4x24xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x29x4xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x29x4xf32>) -> tensor<2x29x4xf32>
  %ss = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q4 : tensor<2x29x4x24xf32>) outs(%fs : tensor<2x29x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x29x4xf32>
  %e = tensor.empty() : tensor<2x29x4x24xf32>
  %qn = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q4, %ss : tensor<2x29x4x24xf32>, tensor<2x29x4xf32>) outs(%e : tensor<2x29x4x24xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = arith.constant 24.0 : f32
    %eps = arith.constant 1.0e-6 : f32
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x29x4x24xf32>
  %ks = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k4 : tensor<2x29x4x24xf32>) outs(%e : tensor<2x29x4x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x29x4x24xf32>
  return %qn, %ks, %v4 : tensor<2x29x4x24xf32>, tensor<2x29x4x24xf32>, tensor<2x29x4x24xf32>
}
